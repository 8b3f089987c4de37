"""HR's own thesaurus entries (`<data dir>/thesaurus.tsv`): read, edited, added from a knowledge gap.

The file is optional and hand-editable, so nothing in it may stop the assistant: a start reads it with
`read_custom` (UTF-8 or GB18030; a bad line is left out, named by number), uses what parses, and says
once what it left out (`thesaurus_notice`, also in the store notices the pages and the CLI show).

Nothing is lost: HR's `#` comment lines are kept by every save (after the header, before the entries),
and a file that is not byte for byte what a save writes back (another encoding, a line left out or
repeated, its own order or comment places, unreadable) is moved aside, byte for byte, to
`thesaurus.original-<time>.tsv` before the first save replaces it, and the save says where it went.
Entries are masked like questions (`redact_text`) before they are stored, searched with or shown; a
file whose only difference is an unmasked number is rewritten masked without a raw copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..errors import SettingsError
from ..storage.health import StoreCheck
from ..text.pii import redact_text
from ..text.thesaurus import (
    MAX_CUSTOM_CHARS,
    Thesaurus,
    custom_text,
    hr_comments,
    parse_entries,
    read_custom,
    shipped_entries,
)
from ..types import Principal

THESAURUS_FILE = "thesaurus.tsv"  # HR's own entries, in the data dir
FIX = "在设置页的“词表”里改好并保存（原文件会先原样另存一份），或改好文件后重启"


def masked_lines(text: str) -> str:
    """`text` with personal data masked line by line (a line's tab and the line breaks stay)."""
    return "\n".join(redact_text(line) for line in str(text).splitlines())


def _within_size(text: str) -> None:
    """Refuse a text larger than the whole file may be, without reading (or echoing) any of it."""
    if len(text) > MAX_CUSTOM_CHARS:
        raise SettingsError(f"词表内容共 {len(text)} 个字，超过上限 {MAX_CUSTOM_CHARS} 字；同义词只写词或短语")


def thesaurus_check(data_dir: Path) -> StoreCheck | None:
    """`doctor`'s line for HR's thesaurus file (None when there is none); nothing is changed."""
    path = Path(data_dir) / THESAURUS_FILE
    if not path.exists():
        return None
    found = read_custom(path)
    if found.problem:
        return StoreCheck(THESAURUS_FILE, "damaged", f"自定义词表{found.problem}，这部分没有使用（提问不受影响）", f"请{FIX}")
    detail = f"{len(found.entries)} 条自定义词条"
    if found.encoding not in ("utf-8", "utf-8-sig"):
        detail += f"（{found.encoding} 编码，保存时改存为 UTF-8，原文件先原样另存一份）"
    elif not found.clean:
        detail += "（与保存的格式不同：第一次保存时原文件先原样另存一份，注释行保留）"
    return StoreCheck(THESAURUS_FILE, "ok", detail)


class ThesaurusActions:
    """Mixin of `Assistant`: the settings page's word list and the gap page's 添加同义词."""

    thesaurus: Thesaurus
    thesaurus_notice: str = ""  # what a start left out of HR's file, in Chinese ("" when it was used whole)
    thesaurus_comments: tuple[str, ...] = ()  # HR's '#' lines in the file, written back by every save
    store_notices: list[str]

    def _load_thesaurus(self) -> Thesaurus:
        """The shipped table plus HR's file (whatever of it parses); a problem becomes one notice, never an error."""
        found = read_custom(self._settings.path(THESAURUS_FILE), redact_text)
        self.thesaurus_comments = found.comments
        if found.problem:
            used = f"其余 {len(found.entries)} 条照常使用" if found.entries else "其中的词条都没有使用"
            self.thesaurus_notice = f"{THESAURUS_FILE}（自定义词表）{found.problem}：{used}，提问不受影响；原文件保持不动。请{FIX}"
            self.store_notices.append(self.thesaurus_notice)
        return Thesaurus(shipped_entries(), found.entries)

    def custom_thesaurus(self, *, actor: Principal | None = None) -> str:
        """HR's own thesaurus entries, as the text the settings page edits."""
        self._acting(actor, "settings")
        return custom_text(self.thesaurus.custom, self.thesaurus_comments)

    def save_custom_thesaurus(self, text: str, *, actor: Principal | None = None) -> int:
        """Validate, mask and store HR's entries (a bad line is refused with its number); returns how many."""
        actor = self._acting(actor, "settings")
        try:
            _within_size(str(text))  # before masking: an oversized paste is refused at once
            masked = masked_lines(text)
            entries = parse_entries(masked, "自定义词表")
        except Exception as exc:
            self._audit(actor, "thesaurus.change", "自定义词表", "failed", str(exc))
            raise
        self._audit(actor, "thesaurus.change", "自定义词表", "ok", f"{len(entries)} 条")
        self._store_custom_thesaurus(entries, hr_comments(masked))
        return len(entries)

    def add_thesaurus_entry(self, word: str, terms: str | Sequence[str], *, actor: Principal | None = None) -> str:
        """HR's one step from a knowledge gap: `word` (口语词) also searches for `terms` (制度用语).

        Kept with HR's own entries (the shipped terms of a known word are kept too); masked, and validated
        like the editor's lines, the whole file included (its size); one audit row. Returns one Chinese
        line saying what was added.
        """
        actor = self._acting(actor, "thesaurus")
        text = terms if isinstance(terms, str) else " ".join(str(t) for t in terms)
        try:
            _within_size(str(word) + text)  # before masking: an oversized term is refused at once
            # mask the whole text before splitting it, as the editor masks a whole line: split first,
            # a number typed in groups (138 1234 5678) is pieces no masking rule recognises
            head, masked = redact_text(str(word).strip()), redact_text(text)
            wanted = masked.replace("、", " ").replace("，", " ").replace(",", " ").split()
            known = self.thesaurus.entries.get(head, ())
            merged = tuple(dict.fromkeys([*known, *wanted]))
            if not head or not wanted or any(c.isspace() for c in head) or head.startswith("#"):
                raise SettingsError("同义词需要一个口语词（不含空格）和至少一个制度用语")
            entry = parse_entries(f"{head}\t{' '.join(merged)}", "同义词")
            if list(entry) != [head]:
                raise SettingsError("同义词需要一个口语词（不含空格）和至少一个制度用语")
            entries = {**self.thesaurus.custom, **entry}
            parse_entries(custom_text(entries, self.thesaurus_comments), "自定义词表")  # the file stays within its size
        except SettingsError as exc:
            self._audit(actor, "thesaurus.change", "添加同义词", "failed", str(exc))
            raise
        self._audit(actor, "thesaurus.change", "添加同义词", "ok", f"{head} → {' '.join(merged)}")
        kept = self._store_custom_thesaurus(entries, self.thesaurus_comments)
        line = f"已添加同义词：搜索“{head}”时也会找“{'、'.join(merged)}”。"
        return line + (f"原词表文件已原样另存为 {kept}。" if kept else "")

    def _store_custom_thesaurus(self, entries: dict[str, tuple[str, ...]], comments: tuple[str, ...]) -> str:
        """Write HR's entries and comment lines atomically and search with them at once; returns the name the
        old file was kept under when it was not what this writes back ("" when it was, or there was none)."""
        path = self._settings.path(THESAURUS_FILE)
        kept = ""
        if path.exists() and not read_custom(path).clean:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
            target = path.with_name(f"thesaurus.original-{stamp}.tsv")
            path.replace(target)
            kept = target.name
        tmp = path.with_suffix(".tmp")
        tmp.write_text(custom_text(entries, comments), encoding="utf-8")
        tmp.replace(path)
        self.thesaurus_comments = comments
        if self.thesaurus_notice in self.store_notices:
            self.store_notices.remove(self.thesaurus_notice)
        self.thesaurus_notice = f"原来的 {THESAURUS_FILE} 已原样另存为 {kept}，没有丢失" if kept else ""
        self.thesaurus = Thesaurus(shipped_entries(), entries)
        self.retriever.thesaurus = self.thesaurus
        return kept
