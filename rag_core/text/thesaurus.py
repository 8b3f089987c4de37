"""Colloquial → policy wording: the thesaurus keyword search and the answer guard share.

Employees type 开除, 押金, 产检; policies say 解除劳动合同, 担保/财物, 产前检查.
BM25 alone scores such a question 0 on the clause that answers it, so a
question term found in the thesaurus also searches for its policy terms, and
the terms count as finding the question term (coverage, answer guard).

The shipped table (`resources/thesaurus.tsv`, ≥ 600 entries) was written from
general HR and labour-law vocabulary, never from evaluation questions. HR can
add or override entries in `<data dir>/thesaurus.tsv` (the settings page edits
it); one line per entry: ``口语词<TAB>制度用语 制度用语 …``. HR's ``#`` comment lines are kept
(after the header a save writes); a word on two lines is a problem named with both line numbers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from ..errors import SettingsError
from .inputs import INVISIBLE
from .tokenizer import tokenize

MAX_TERMS = 8
MAX_HEAD_CHARS = 12
# a policy term is a word or a short phrase: the shipped table's longest is 12 characters (人力资源社会保障行政部门).
# Without a bound one 8 MB "term" was accepted, then every question naming its head took ~25 s and drew it
MAX_TERM_CHARS = 20
# HR's whole file: ~2,000 ordinary entries (the shipped table is 677 entries in 29 KB)
MAX_CUSTOM_CHARS = 100_000
MAX_CUSTOM_BYTES = 4 * MAX_CUSTOM_CHARS  # read no larger file (UTF-8 Chinese is 3 bytes a character)
CUSTOM_ENCODINGS = ("utf-8-sig", "gb18030")  # what HR's editors save (Notepad's "ANSI" on a Chinese Windows)
CUSTOM_HEADER = "# 自定义词表：口语词<Tab>制度用语（空格分隔）；与内置词表同名的口语词以这里为准"
CONTROL_PROBLEM = "含有看不见的控制字符（常见于从 Word、Excel 或网页复制），请删去这些字符后再保存"
SURROGATE_PROBLEM = "含有无法识别的字符（可能是编码错误），请删去乱码后再保存"
NOT_A_FILE = "是一个文件夹，不是文件"  # thesaurus.tsv in the data dir (a start, doctor and a save say it)
# a line ends at \n, \r\n, \r and the Unicode line and paragraph separators (Zl, Zp: no control character, but
# `str.split` splits terms at them, so one line held two entries); form feed, \x85 and other control characters
# stay inside their line, which is refused for them (`has_control`)
_LINE_BREAK = re.compile("\r\n|[\n\r\u2028\u2029]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def has_control(text: str) -> bool:
    """`text` holds a control character other than a tab or a line break (pasted from Word, Excel, a terminal)."""
    return any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in text)


def has_surrogate(text: str) -> bool:
    """`text` holds a lone surrogate: bytes that were not UTF-8 (a mis-decoded paste or command line); no file
    can hold it, and writing it raised Python's English UnicodeEncodeError."""
    return bool(_SURROGATE.search(text))


def invisible_count(text: str) -> int:
    """How many characters of `text` show nothing and are dropped when it is read (`inputs.INVISIBLE`)."""
    return len(INVISIBLE.findall(text))


def text_lines(text: str) -> list[str]:
    """The lines of a thesaurus text as the engine reads it, at a save and at a start alike: split at line breaks
    only (`_LINE_BREAK`; `str.splitlines` also split at form feeds and other control characters, so a line holding
    one was read as two there and refused elsewhere), without the characters that show nothing (zero-width, BOM,
    direction marks: `inputs.INVISIBLE`). A question loses those before it is searched (`inputs.checked`), so a
    word that kept one (饭卡\\u200b pasted from a web page) was saved and counted but never found."""
    return _LINE_BREAK.split(INVISIBLE.sub("", text))


def parse_entries(text: str, origin: str = "词表") -> dict[str, tuple[str, ...]]:
    """Parse thesaurus lines; a bad line raises SettingsError naming its line number."""
    table, problems = parse_lines(text)
    if problems:
        raise SettingsError(f"{origin}有误：" + _joined(problems))
    return table


def parse_lines(text: str) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """The entries of the lines that parse, and one Chinese problem per line (or for the text) that does not."""
    table: dict[str, tuple[str, ...]] = {}
    first: dict[str, int] = {}  # head → its line: a repeat is named, never silently replaces the first line
    problems: list[str] = []
    for number, raw in enumerate(text_lines(text), start=1):
        line = raw.strip()
        if has_control(raw):  # the same rule at a save (refused) and a start (only this line left out)
            problems.append(f"第 {number} 行{CONTROL_PROBLEM}")
            continue
        if has_surrogate(raw):  # text that was not UTF-8 (a file's bytes always decode to none)
            problems.append(f"第 {number} 行{SURROGATE_PROBLEM}")
            continue
        if not line or line.startswith("#"):
            continue
        head, tab, rest = raw.partition("\t")
        if not tab:  # the word ends at its first space of any kind (an IME's full-width one too), as a term does
            head, *more = line.split(maxsplit=1)
            rest = more[0] if more else ""
        head, terms = head.strip(), tuple(dict.fromkeys(rest.split()))
        if not head or not terms:
            problems.append(f"第 {number} 行缺少口语词或制度用语（格式：口语词<Tab>制度用语 制度用语）")
        elif len(head) > MAX_HEAD_CHARS:
            problems.append(f"第 {number} 行的口语词「{head[:MAX_HEAD_CHARS]}…」超过 {MAX_HEAD_CHARS} 个字")
        elif len(terms) > MAX_TERMS:
            problems.append(f"第 {number} 行的制度用语超过 {MAX_TERMS} 个")
        elif long := next((t for t in terms if len(t) > MAX_TERM_CHARS), None):
            problems.append(f"第 {number} 行的制度用语「{long[:MAX_TERM_CHARS]}…」超过 {MAX_TERM_CHARS} 个字")
        elif head in first:
            problems.append(
                f"第 {number} 行的口语词「{head}」与第 {first[head]} 行重复（同一个口语词请写在一行，制度用语用空格隔开）"
            )
        else:
            table[head], first[head] = terms, number
    if len(text) > MAX_CUSTOM_CHARS:  # nothing of an oversized text is used
        return {}, [f"共 {len(text)} 个字，超过上限 {MAX_CUSTOM_CHARS} 字", *problems]
    return table, problems


def hr_comments(text: str) -> tuple[str, ...]:
    """HR's own ``#`` lines, in order (the header a save writes is not one): a save keeps them (a line holding a
    control character is not used, as an entry's line is not)."""
    lines = (line.strip() for line in text_lines(text) if not has_control(line) and not has_surrogate(line))
    return tuple(line for line in lines if line.startswith("#") and line != CUSTOM_HEADER)


def _joined(problems: list[str]) -> str:
    return "；".join(problems[:5]) + ("……" if len(problems) > 5 else "")


@dataclass
class CustomFile:
    """HR's file as read at a start: the entries that parse, what is wrong with the rest, the bytes' encoding."""

    entries: dict[str, tuple[str, ...]] = field(default_factory=dict)
    problem: str = ""  # Chinese: why some or all of the file is not used ("" when every line is)
    encoding: str = "utf-8"  # how it was decoded ("" when it could not be)
    comments: tuple[str, ...] = ()  # HR's '#' lines, which a save keeps (after its header, before the entries)
    exact: bool = True  # the bytes are exactly what saving these entries and comments writes back

    @property
    def clean(self) -> bool:
        """Saving over the file loses nothing: every line used and the bytes what a save writes (else keep a copy
        first). A comment's place, the lines' order, another encoding, a BOM or CRLF all differ from that."""
        return not self.problem and self.exact


def read_custom(path: Path, mask: Callable[[str], str] = lambda line: line) -> CustomFile:
    """Read HR's file without ever raising on its content: UTF-8 or GB18030, bad lines left out and named.

    `mask` is applied to each line before it is parsed (personal data never reaches search or the page).
    """
    path = Path(path)
    try:
        if not path.is_file():  # none (nothing to read), or a folder or a device no save can replace
            return CustomFile(problem=NOT_A_FILE if path.is_dir() else "不是普通文件", encoding="") \
                if path.exists() else CustomFile()
        size = path.stat().st_size
        if size > MAX_CUSTOM_BYTES:
            return CustomFile(problem=f"文件有 {size // 1024} KB，超过上限 {MAX_CUSTOM_BYTES // 1024} KB", encoding="")
        data = path.read_bytes()
    except OSError as exc:
        return CustomFile(problem=f"无法读取（{exc.strerror or exc}）", encoding="")
    for encoding in CUSTOM_ENCODINGS:
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        return CustomFile(problem="不是 UTF-8 或 GB18030 编码的文本文件", encoding="")
    if "\x00" in text:  # NUL bytes: UTF-16 (Notepad's "Unicode") or not text at all; another control character
        return CustomFile(problem="不是 UTF-8 或 GB18030 编码的文本文件", encoding="")  # leaves out its line only
    masked = "\n".join(mask(line) for line in text_lines(text))
    table, problems = parse_lines(masked)
    encoding = "utf-8" if encoding == "utf-8-sig" and not data.startswith(b"\xef\xbb\xbf") else encoding
    comments = hr_comments(masked)
    exact = data == custom_text(table, comments).encode("utf-8")
    return CustomFile(table, _joined(problems) if problems else "", encoding, comments, exact)


def shipped_entries() -> dict[str, tuple[str, ...]]:
    """The table that ships with the engine (a copy: the caller may change it)."""
    return dict(_shipped_table())


@cache
def _shipped_table() -> dict[str, tuple[str, ...]]:
    """Read and parsed once per process: the package's file does not change while it runs (every assistant
    opened, every settings save, read it again before)."""
    text = resources.files("rag_core.text.resources").joinpath("thesaurus.tsv").read_text(encoding="utf-8")
    return parse_entries(text, "内置词表")


@dataclass
class Expansion:
    """What the thesaurus added to one question."""

    tokens: list[str]  # the question's own tokens
    added: list[str]  # policy terms searched for in addition
    groups: dict[str, set[str]] = field(default_factory=dict)  # question token → index tokens that count as finding it
    phrases: dict[str, set[str]] = field(default_factory=dict)  # question token → policy phrases that name the same thing
    applied: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (colloquial word, policy terms) used


class Thesaurus:
    """The shipped table plus HR's own entries (which win); immutable once built."""

    def __init__(self, entries: dict[str, tuple[str, ...]], custom: dict[str, tuple[str, ...]] | None = None):
        self.custom = dict(custom or {})
        self.shipped_count = len(entries)  # the shipped table's own, HR's entries of the same words aside
        self.entries = {**entries, **self.custom}
        self._expanded = _Expanded(self.entries)

    @classmethod
    def load(cls, custom_path: Path | None = None) -> Thesaurus:
        """Shipped entries plus the lines of the custom file that parse (see `read_custom` for what is wrong)."""
        return cls(shipped_entries(), read_custom(custom_path).entries if custom_path is not None else {})

    def __len__(self) -> int:
        return len(self.entries)

    def expand(self, query: str, tokens: Iterable[str] | None = None) -> Expansion:
        """The question's tokens, the policy terms its colloquial words stand for, and which token each finds."""
        tokens = list(tokenize(query) if tokens is None else tokens)
        seen = set(tokens)
        result = Expansion(tokens=tokens, added=[])
        for head, terms in self.entries.items():
            if head not in query and head not in seen:
                continue
            expansion = self._expanded[head]
            owners = [t for t in tokens if t in head or head in t] or [head]
            for owner in owners:
                result.groups.setdefault(owner, set()).update(expansion)
                if owner != head and head in owner and owner in self.entries:
                    # a longer word with an entry of its own is named by that entry, not by a shorter
                    # head inside it: 离职证明 is not named by 离职's 解除劳动合同 (a piece inside a longer
                    # head, 补贴 in 高温补贴, still gets that head's wording: 防暑降温费)
                    result.phrases.setdefault(owner, set())
                else:
                    result.phrases.setdefault(owner, set()).update(_phrases_for(owner, head, owners, terms))
            result.applied.append((head, terms))
            for term in sorted(expansion):
                if term not in seen:
                    seen.add(term)
                    result.added.append(term)
        return result

    def equivalents(self, word: str) -> set[str]:
        """Policy terms that stand for `word` (empty when the thesaurus does not know it)."""
        found: set[str] = set()
        for head, terms in self.entries.items():
            if head == word or (len(head) >= 2 and head in word):
                found.update(terms)
        return found


class _Expanded(dict[str, frozenset[str]]):
    """head → the index tokens of its policy terms, tokenised when a question first names the head.

    A start built them for every entry (600+, jieba on each: 12 % of a warm restart's samples at 10k
    chunks, py-spy), where one question names a handful."""

    def __init__(self, entries: dict[str, tuple[str, ...]]):
        super().__init__()
        self._entries = entries

    def __missing__(self, head: str) -> frozenset[str]:
        found = self[head] = _policy_tokens(self._entries[head])
        return found


@lru_cache(maxsize=4096)
def _policy_tokens(terms: tuple[str, ...]) -> frozenset[str]:
    """The index tokens of an entry's policy terms. Kept per entry: every start builds the thesaurus twice (the
    shipped table for the warm-up, the data dir's for search) and HR's edits rebuild it."""
    return frozenset(t for term in terms for t in tokenize(term) if len(t) > 1)


def _phrases_for(owner: str, head: str, owners: list[str], terms: tuple[str, ...]) -> tuple[str, ...]:
    """The phrases of an entry that name `owner`, one of the question words inside its head.

    An entry for a compound that writes one of its pieces out as a phrase (加班打车 → 加班 出租车 网约车)
    keeps that piece as itself: 加班 is not named by 出租车, or an 出差 taxi clause would answer
    加班打车能报吗 (出差餐补 → 伙食补助费 出差 likewise: 出差 does not name 餐补). The other pieces get
    the rest. The head itself, and an entry that writes out every piece (病假工资 → 病假 医疗期 工资),
    keep all their phrases.
    """
    if len(owners) < 2 or owner == head:
        return terms
    kept = {o for o in owners if o in terms}
    if not kept or kept == set(owners):
        return terms
    if owner in kept:
        return ()
    return tuple(term for term in terms if term not in kept)


def with_policy_wording(query: str, expansion: Expansion, per_word: int = 3) -> str:
    """The question followed by the policy wording the thesaurus gives its colloquial words:
    打车费能报吗（出租车、市内交通费）. A sentence model reads this when the asked word never occurs in the
    policies, so 打车 is not judged by how close 打车 alone sits to 出租车."""
    wording = list(dict.fromkeys(term for _, terms in expansion.applied for term in terms[:per_word] if term not in query))
    return f"{query}（{'、'.join(wording)}）" if wording else query


@lru_cache(maxsize=1)
def default_thesaurus() -> Thesaurus:
    """The shipped table alone (for callers without a data dir)."""
    return Thesaurus(shipped_entries())


def custom_text(entries: dict[str, tuple[str, ...]], comments: Iterable[str] = ()) -> str:
    """The custom table as the file the settings page edits (HR's comment lines after the header)."""
    lines = [CUSTOM_HEADER, *comments]
    lines += [f"{head}\t{' '.join(terms)}" for head, terms in sorted(entries.items())]
    return "\n".join(lines) + "\n"
