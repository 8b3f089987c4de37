"""Errors a user can read: each names the thing refused and why, in Chinese."""

import errno


class RagError(Exception):
    """Base class for refusals the UI and CLI show as plain messages."""


class IngestError(RagError):
    """A file was refused; nothing already indexed was changed."""

    def __init__(self, filename: str, reason: str):
        self.filename = filename
        self.reason = reason
        super().__init__(f"{filename}: {reason}")


class OverBound(IngestError):
    """A file refused for passing a safety bound (size, count, nesting, compression ratio).

    Not damage: a part of a file that passes a bound refuses the whole file, where a damaged
    part may be skipped and named as not read.
    """


class DocumentIdConflict(IngestError):
    """A different file name maps onto an existing document's id; refused unless the id is given."""

    def __init__(self, filename: str, doc_id: str, reason: str):
        self.doc_id = doc_id
        super().__init__(filename, reason)


class StoreDamaged(RagError):
    """A store file under the data dir is unreadable; the message names the file and what to do."""


class StoreBusy(StoreDamaged):
    """A healthy store file another process holds locked: handled where damage is (the action goes on or waits),
    but said as busy, never as damage to move away."""


class StoreUnavailable(RagError):
    """The data dir cannot be opened or written (a full disk, no permission): nothing in it is damaged."""


class VectorServerDown(RagError):
    """The Chroma server (CHROMA_HOST) cannot be reached: one Chinese line saying to start it, never httpx's words."""

    def __init__(self, address: str):
        self.address = address
        super().__init__(f"向量库服务器 {address} 连不上：请先启动 chroma run（见 docs/deploy.md）")


class SettingsError(RagError):
    """A setting value was rejected; the previous settings stay in force."""


class ThesaurusChanged(SettingsError):
    """HR's word list changed after the editor was drawn (another person, the gap page, another replica): nothing was
    saved. `current` is the text the editor would show now."""

    def __init__(self, message: str, current: str):
        super().__init__(message)
        self.current = current


class MemoryStoreError(RagError):
    """A memory operation was refused (bad input, unknown id)."""


class PermissionDenied(RagError):
    """The acting person may not do this; nothing was read or changed."""


class AccountError(RagError):
    """An account action or a login was refused (bad name, weak password, locked, unknown)."""


# json's messages, in the words a person fixing the file needs; {name}: what a key is in that file (设置名 in
# settings.json, 字段名 in a question set), {whole}: what one document of it is (the position is the caller's)
_JSON_PROBLEMS = {"Expecting property name": "应是带双引号的{name}，常见原因是最后一项后面多了逗号",
                  "Expecting ','": "缺少逗号", "Expecting ':'": "缺少冒号", "Expecting value": "缺少值",
                  "Extra data": "{whole}结束之后还有多余的内容", "Unterminated string": "引号没有成对",
                  "Invalid control character": "引号里有换行等控制字符", "Invalid \\escape": "反斜杠转义写法有误",
                  "Invalid \\uXXXX escape": "\\u 转义应为四位十六进制数",
                  "Unexpected UTF-8 BOM": "文件开头有 BOM（UTF-8 签名），请另存为不带 BOM 的 UTF-8 后重试"}


def explain_json_error(message: str, *, name: str = "字段名", whole: str = "这一行的对象") -> str:
    """What a `json.JSONDecodeError.msg` means, in Chinese ("Unterminated string starting at" meant nothing to HR)."""
    what = next((text for start, text in _JSON_PROBLEMS.items() if message.startswith(start)), "格式有误")
    return what.format(name=name, whole=whole)


def exception_chain(exc: BaseException, limit: int = 10) -> list[BaseException]:
    """`exc` and those it was raised from or while handling, nearest first (cycle-safe, at most `limit`): libraries
    re-raise a cause under another type (chromadb wraps httpx's ConnectError, SQLite's full disk, in its own)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not e for e in seen) and len(seen) < limit:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


# Why an OS call failed, in Chinese: what happened, then what to do. One map, so the CLI's error lines and the
# facade's refusals say a full disk the same way.
_OS_ERRNO_REASONS: dict[int, tuple[str, str]] = {
    errno.ENOSPC: ("磁盘已满", "请清理空间后重试"),
    errno.EDQUOT: ("磁盘配额已满", "请清理空间或请管理员调高配额后重试"),
    errno.EROFS: ("这个位置是只读的", "请换一个位置"),
    errno.EACCES: ("没有读写权限", "请换一个位置或检查权限"),
    errno.EPERM: ("没有读写权限", "请换一个位置或检查权限"),
    errno.EIO: ("磁盘读写出错", "请检查磁盘后重试"),
    errno.ENAMETOOLONG: ("路径或文件名太长", "请缩短后重试"),
    errno.ELOOP: ("路径里的符号链接形成了循环", "请检查路径"),
    # a folder was expected where a file is (a --data-dir naming a file, or a path through one: review 349)
    errno.EEXIST: ("这个位置已经有一个同名的文件", "请换一个名字或位置"),
    errno.ENOTDIR: ("路径里有一段是文件，不是文件夹", "请检查路径"),
    errno.EISDIR: ("这是一个文件夹，不是文件", "请给出文件的路径"),
}


def os_reason(exc: OSError, advice: bool = False) -> str:
    """What an OS error means in Chinese (with what to do when `advice`); unknown codes are named by number."""
    said = _OS_ERRNO_REASONS.get(exc.errno or 0)
    if said is None:
        return f"读写失败（错误码 {exc.errno}）"
    return f"{said[0]}，{said[1]}" if advice else said[0]
