"""settings.json in the data dir: what the settings page changed, applied over .env at every start.

Read (`with_saved_changes`), written (`save_changes`) and cleared (`forget_changes`) here; the frozen `Settings`
and their limits are `rag_core.settings`'s.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import SettingsError, explain_json_error
from ..settings import ASIDE_STAMP, LIMITS, SAVED_FILE, Settings

FOLDER = "是一个文件夹，不是设置页写的文件"
MOVE_IT = f"把数据目录里名为 {SAVED_FILE} 的文件夹移走或改名"
_KEPT_NAME = "settings.original-<时间>.json"  # where a save keeps a file it cannot write back whole
_SAVE_FORM: dict[str, Any] = {"ensure_ascii": False, "indent": 1}  # json.dumps as a save writes: any other form is a hand edit
_SAVED_MAX_BYTES, _NAMED = 100_000, 5  # a settings.json larger is refused whole; a notice names this many settings


def _read_saved(data: bytes | None) -> tuple[dict[str, Any], str]:
    """The saved knobs, or {} and what is wrong with the file in Chinese (never the parser's English); None: unreadable."""
    if data is None or len(data) > _SAVED_MAX_BYTES:  # the page writes a few hundred bytes (review 335: 29 MB read)
        return {}, "文件权限或磁盘有问题" if data is None else f"文件过大（超过 {_SAVED_MAX_BYTES:,} 字节），不是设置页写的文件"
    try:
        saved = json.loads(data.decode("utf-8-sig"))  # a BOM (Windows Notepad's UTF-8) is harmless
    except json.JSONDecodeError as exc:
        what = explain_json_error(exc.msg, name="设置名", whole="在设置")
        return {}, f"第 {exc.lineno} 行第 {exc.colno} 列{what}，不是有效的 JSON"
    except (ValueError, RecursionError) as exc:  # not UTF-8, a number of over 4300 digits, nested past the parser
        return {}, ("不是 UTF-8 编码的文本" if isinstance(exc, UnicodeDecodeError) else "有位数过多的数字"
                    if isinstance(exc, ValueError) else "嵌套层数过多，不是设置页写的格式")
    if not isinstance(saved, dict):
        return {}, '不是一组设置（应为 {"top_k": 5} 这样的格式）'
    return saved, ""


# settings.json as this process knows it, by path: the sha256 of the bytes its start read ("" for no file), it last wrote,
# or a save read whole in a save's form (another replica's). Any other file (a hand fix) is kept aside before it is replaced.
_KNOWN: dict[Path, str] = {}


def with_saved_changes(settings: Settings, *, now: bool = False) -> tuple[Settings, str, frozenset[str]]:
    """`settings` with the settings page's saved changes applied, a Chinese notice, and the knobs applied.

    Kept only in memory, the page's changes were gone after a restart (a store re-chunked at the page's chunk size
    was then mixed with uploads cut at the .env's). Each knob is applied on its own (chunk size before overlap,
    `LIMITS` order): one the code no longer accepts is named and left out, and the next save writes the file without
    it (keeping the old file aside, `save_changes`), instead of one bad value discarding them all. `now`: a save's read
    (`shared_settings.on_file_now`), after which a file another replica saved is known: rewritten whole, no copy kept."""
    path = settings.path(SAVED_FILE)
    if not path.exists():
        _KNOWN.setdefault(path.resolve(), "")
        return settings, "", frozenset()
    if path.is_dir():  # no save can fix this one (review 395 #8): said as what it is
        return settings, f"{SAVED_FILE}（设置页保存的修改）{FOLDER}，这次已按 .env 和默认值启动；{MOVE_IT}后重启", frozenset()
    data: bytes | None = None
    with contextlib.suppress(OSError), path.open("rb") as file:
        data = file.read(_SAVED_MAX_BYTES + 1)  # a larger file is refused whole, never read whole (review 336)
    found = _applied(settings, data)
    if data is not None and (path.resolve() not in _KNOWN or now and not found[1] and json.dumps(_read_saved(data)[0], **_SAVE_FORM).encode() == data):
        _KNOWN[path.resolve()] = hashlib.sha256(data).hexdigest()
    return found


def _applied(settings: Settings, data: bytes | None) -> tuple[Settings, str, frozenset[str]]:
    """`with_saved_changes` on these bytes of settings.json (None: unreadable)."""
    saved, problem = _read_saved(data)
    if problem:
        return settings, (f"{SAVED_FILE}（设置页保存的修改）无法读取：{problem}，这次已按 .env 和默认值启动。请修正该处后重启；"
                          f"或在设置页重新保存，原文件会先原样另存为 {_KEPT_NAME}，不会丢失"), frozenset()
    applied, refused = [], []
    together = [k for k in ("chunk_size", "chunk_overlap") if k in saved]  # each is checked against the other
    for names in [together, *([k] for k in LIMITS if k in saved and k not in together)]:
        try:
            settings = settings.with_changes(**{name: saved[name] for name in names}) if names else settings
            applied += names
        except SettingsError:
            refused += names
    refused += [str(k)[:40] for k in saved if k not in LIMITS]
    named = "、".join(refused[:_NAMED]) + (f" 等 {len(refused)} 项" if len(refused) > _NAMED else "")  # bounded
    notice = (f"{SAVED_FILE}（设置页保存的修改）里 {named} 的值现在不被接受或不是设置页的设置，"
              f"已按 .env 和默认值使用；在设置页保存一次会把它去掉，原文件会先另存为 {_KEPT_NAME}") if refused else ""
    return settings, notice, frozenset(applied)


def _worth_keeping(base: Settings) -> bytes | bool:
    """What a save or a clear must keep aside before replacing settings.json: its bytes when this process does not
    know them (`_KNOWN`) or the start's check over `base` (.env and defaults) cannot use them all; True when it may
    not be read (another user's 0600 file: the start's notice promised a copy, so it is moved aside whole); else False."""
    path = base.path(SAVED_FILE)
    try:  # one over the size limit is refused whole at start: moved aside whole, never read (review 337)
        data = path.read_bytes() if path.exists() and path.stat().st_size <= _SAVED_MAX_BYTES else None
        if data is None and path.exists():
            return True
    except PermissionError:  # a rename needs only the folder's write permission; a directory in the way still raises
        return True
    known = data is not None and _KNOWN.get(path.resolve()) == hashlib.sha256(data).hexdigest()
    return False if data is None or (known and not _applied(base, data)[1]) else data


def _kept_path(path: Path) -> Path:
    return path.with_name(f"settings.original-{datetime.now(UTC).strftime(ASIDE_STAMP)}.json")


def save_changes(settings: Settings, names: Iterable[str], base: Settings | None = None) -> str:
    """Keep these knobs' values in `settings` for the next start (written atomically); the kept copy's name or "".

    A file `_worth_keeping` names is kept aside whole as `settings.original-<time>.json` (copied; moved if unreadable).
    The new file is written first: moved aside before a failed write (a full disk), the old file was lost with the
    next start's knobs; now a failure raises SettingsError with it in place (a moved one is put back). `base`: what
    the start applied the file over (.env and defaults; `settings` when not given)."""
    path = settings.path(SAVED_FILE)
    if path.is_dir():
        raise SettingsError(f"设置没有保存：数据目录里的 {SAVED_FILE} {FOLDER}，原来的设置没有改动；请{MOVE_IT}后再保存")
    data = json.dumps({k: getattr(settings, k) for k in LIMITS if k in set(names)}, **_SAVE_FORM).encode()
    partial, kept, old = path.with_name(path.name + ".tmp"), None, False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        if (old := _worth_keeping(base or settings)) is True:  # unreadable: moved aside, the new file put in its place
            path.replace(kept := _kept_path(path))
        elif old is not False:
            (kept := _kept_path(path)).write_bytes(old)  # a copy: the old file stays until the replace below
        os.replace(partial, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            if old is True and kept is not None:  # the only copy of the unreadable file goes back in place
                kept.replace(path)
        for leftover in filter(None, (partial, None if old is True else kept)):  # a directory in the way: left alone
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise SettingsError(f"设置没有保存：数据目录里的 {SAVED_FILE} 写不进去（磁盘已满或没有写权限），原来的设置没有改动，"
                            "这次的修改也没有生效。请腾出磁盘空间或检查数据目录的写权限后再保存") from exc
    _KNOWN[path.resolve()] = hashlib.sha256(data).hexdigest()
    return kept.name if kept else ""


def forget_changes(base: Settings) -> str:
    """Remove settings.json, back to `base` (.env and defaults); one a save would keep aside (`_worth_keeping`) is
    moved aside instead of deleted, since it may hold the only copy of a value to fix. The copy's name, or ""."""
    path, kept = base.path(SAVED_FILE), None
    if path.is_dir():
        raise SettingsError(f"设置页保存的修改没有清除：数据目录里的 {SAVED_FILE} {FOLDER}；请{MOVE_IT}后重启助手")
    try:
        if _worth_keeping(base) is not False:
            path.replace(kept := _kept_path(path))  # moved whole: a clear needs no disk space, nor to read the file
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise SettingsError(f"设置页保存的修改没有清除：数据目录里的 {SAVED_FILE} 无法移走或删除（多半是运行助手的账户没有"
                            "数据目录的写权限），设置没有改动。请给该账户数据目录的写权限后再清除，或在服务器上删除该文件后重启助手") from exc
    _KNOWN[path.resolve()] = ""  # no file, as this process left it
    return kept.name if kept else ""
