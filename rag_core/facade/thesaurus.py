"""HR's own thesaurus entries (`<data dir>/thesaurus.tsv`): read, edited, added from a knowledge gap.

The file is optional and hand-editable, so nothing in it may stop the assistant: a start reads it with
`read_custom` (UTF-8 or GB18030; a bad line is left out, named by number), uses what parses, and says
once what it left out (`thesaurus_notice`, also in the store notices the pages and the CLI show).

Nothing is lost: HR's `#` comment lines are kept by every save (after the header, before the entries),
and a file that is not byte for byte what a save writes back (another encoding, a line left out or
repeated, its own order or comment places, unreadable) is moved aside, byte for byte, to
`thesaurus.original-<time>.tsv` before the first save replaces it, and the save says where it went.
Entries are masked like questions (`redact_text`) before they are stored, searched with or shown; a
file whose only difference is an unmasked number is rewritten masked without a raw copy. Characters that show
nothing (zero-width, a BOM, direction marks) are dropped from every line, as from a question, and a save says
how many; a lone surrogate is refused in Chinese; a thesaurus.tsv that is a folder is named at a start and by doctor.

A save starts from the file as it is now, under a lock shared by every replica of the data dir: the gap page's
添加同义词 merges its entry into the entries on disk, and the settings page's editor is refused (nothing written)
when the file changed after it was drawn. The new file is written beside the old one and put in its place at
once; a save that cannot write changes nothing (the old file stays, a Chinese error says why).
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from ..documents.write_lock import held_if_writable
from ..errors import RagError, SettingsError, ThesaurusChanged, os_reason
from ..storage.health import StoreCheck
from ..storage.set_aside import aside_stamp
from ..text.inputs import INVISIBLE
from ..text.pii import redact_text
from ..text.thesaurus import (
    MAX_CUSTOM_CHARS,
    NOT_A_FILE,
    CustomFile,
    Thesaurus,
    custom_text,
    has_control,
    has_surrogate,
    hr_comments,
    invisible_count,
    parse_entries,
    parse_lines,
    read_custom,
    shipped_entries,
    text_lines,
)
from ..types import Principal
from .core import FacadeCore

THESAURUS_FILE = "thesaurus.tsv"  # HR's own entries, in the data dir
THESAURUS_LOCK = ".thesaurus.write-lock"  # one save at a time across replicas (hidden: backups skip it)
THESAURUS_TMP = ".thesaurus.tsv.tmp"  # the new file, written whole before it replaces the old one
FIX = "在设置页的“词表”里改好并保存（原文件会先原样另存一份），或改好文件后重启"
MOVE_FOLDER = "把数据目录里名为 thesaurus.tsv 的文件夹移走或改名"
REMOVAL_COPY, REMOVAL_COPIES_KEPT = "thesaurus.before-removal-", 10  # what a save that removed entries keeps
DROPPED = "删去了 {} 个看不见的字符（常见于从 Word、Excel 或网页复制；提问里同样不算）"
# why a save could not write, in Chinese (an OSError's strerror is English); the rest: its number
def masked_lines(text: str) -> str:
    """`text` with personal data masked line by line (a line's tab and the line breaks stay)."""
    return "\n".join(redact_text(line) for line in text_lines(str(text)))


def _within_size(text: str) -> None:
    """Refuse a text larger than the whole file may be, without reading (or echoing) any of it."""
    if len(text) > MAX_CUSTOM_CHARS:
        raise SettingsError(f"词表内容共 {len(text)} 个字，超过上限 {MAX_CUSTOM_CHARS} 字；同义词只写词或短语")


def changed_heads(drawn: str, current: str) -> list[str]:
    """The colloquial words whose entry differs between two editor texts (added, changed or removed)."""
    before, after = parse_lines(drawn)[0], parse_lines(current)[0]
    return sorted(h for h in before.keys() | after.keys() if before.get(h) != after.get(h))


def entry_changes(before: dict[str, tuple[str, ...]], after: dict[str, tuple[str, ...]]) -> str:
    """What a save did to HR's entries, for the audit trail: 新增 / 修改 (old → new) / 删除, each named (review 395 #4:
    every save read "N 条", and a list deleted could not be rebuilt from the trail)."""
    added = [f"{h} → {' '.join(after[h])}" for h in after if h not in before]
    changed = [f"{h}：{' '.join(before[h])} → {' '.join(after[h])}" for h in after if h in before and before[h] != after[h]]
    removed = [f"{h} → {' '.join(before[h])}" for h in before if h not in after]
    # every one named, the file's size bounds the row: an entry in no copy left is still in the trail (review 397 #5)
    parts = [f"{label} {len(items)} 条：{'；'.join(items)}"
             for label, items in (("新增", added), ("修改", changed), ("删除", removed)) if items]
    return "；".join(parts) or "没有改动"


def _saving(data_dir: Path):
    """One thesaurus save at a time across the replicas (read, merge, write)."""
    return held_if_writable(Path(data_dir) / THESAURUS_LOCK)


def _fix(problem: str) -> str:
    """What HR does about a problem of the file (a folder: no save can replace it)."""
    return f"{MOVE_FOLDER}，之后在设置页保存词表即可新建这个文件" if problem == NOT_A_FILE else FIX


def _write_failed(exc: OSError) -> SettingsError:
    """A save that could not write, said in Chinese (the old file stays and is used)."""
    if isinstance(exc, IsADirectoryError) or exc.errno == errno.EISDIR:
        return SettingsError(f"词表没有保存：{THESAURUS_FILE} 无法写入，因为它{NOT_A_FILE}。原来的词表保持不变，"
                             f"仍在使用；请{MOVE_FOLDER}后再保存")
    reason = os_reason(exc)
    return SettingsError(f"词表没有保存：{THESAURUS_FILE} 无法写入数据目录（{reason}）。"
                         "原来的词表保持不变，仍在使用；请检查磁盘空间和文件权限后再试")


def thesaurus_check(data_dir: Path) -> StoreCheck | None:
    """`doctor`'s line for HR's thesaurus file (None when there is none); nothing is changed."""
    path = Path(data_dir) / THESAURUS_FILE
    if not path.exists():
        return None
    found = read_custom(path, redact_text)  # masked as the start's notice is: doctor's output is pasted into tickets
    if found.problem:
        return StoreCheck(THESAURUS_FILE, "damaged", f"自定义词表{redact_text(found.problem)}，这部分没有使用（提问不受影响）",
                          f"请{_fix(found.problem)}")
    detail = f"{len(found.entries)} 条自定义词条"
    if found.encoding not in ("utf-8", "utf-8-sig"):
        detail += f"（{found.encoding} 编码，保存时改存为 UTF-8，原文件先原样另存一份）"
    elif not found.clean:
        detail += "（与保存的格式不同：第一次保存时原文件先原样另存一份，注释行保留）"
    return StoreCheck(THESAURUS_FILE, "ok", detail)


class ThesaurusActions(FacadeCore):
    """Mixin of `Assistant`: the settings page's word list and the gap page's 添加同义词."""

    thesaurus: Thesaurus
    thesaurus_notice: str = ""  # what a start left out of HR's file, in Chinese ("" when it was used whole)
    thesaurus_comments: tuple[str, ...] = ()  # HR's '#' lines in the file, written back by every save
    store_notices: list[str]

    _thesaurus_stamp: tuple[int, int] | None = None  # the file's (mtime, size) when this process last read it

    def _file_stamp(self) -> tuple[int, int] | None:
        try:
            info = self._settings.path(THESAURUS_FILE).stat()
        except OSError:
            return None
        return info.st_mtime_ns, info.st_size

    def thesaurus_in_force(self) -> Thesaurus:
        """The table searched with, HR's entries as the file holds them now: another replica's save is used from the
        next question on (review 395 #7: only this replica's 设置 page read the file again). One stat a search; the
        file is read again only when it changed."""
        if (stamp := self._file_stamp()) != self._thesaurus_stamp:
            self._thesaurus_stamp = stamp
            self._custom_now()
        return self.thesaurus

    def _load_thesaurus(self) -> Thesaurus:
        """The shipped table plus HR's file (whatever of it parses); a problem becomes one notice, never an error."""
        self._thesaurus_stamp = self._file_stamp()
        found = read_custom(self._settings.path(THESAURUS_FILE), redact_text)
        self.thesaurus_comments = found.comments
        if found.problem:
            used = f"其余 {len(found.entries)} 条照常使用" if found.entries else "其中的词条都没有使用"
            self.thesaurus_notice = (f"{THESAURUS_FILE}（自定义词表）{found.problem}：{used}，提问不受影响；"
                                     f"原文件保持不动。请{_fix(found.problem)}")
            self.store_notices.append(self.thesaurus_notice)
        return Thesaurus(shipped_entries(), found.entries)

    def _custom_now(self) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
        """HR's entries and comment lines as the file holds them now (a save by another replica included), searched
        with from here on; this process's copy when the file cannot be read as text at all."""
        found: CustomFile = read_custom(self._settings.path(THESAURUS_FILE), redact_text)
        if found.problem and not found.encoding:  # unreadable now: what this process read last stays in force
            return dict(self.thesaurus.custom), self.thesaurus_comments
        if found.entries != self.thesaurus.custom or found.comments != self.thesaurus_comments:
            self._use_custom(found.entries, found.comments)
        return found.entries, found.comments

    def _use_custom(self, entries: dict[str, tuple[str, ...]], comments: tuple[str, ...]) -> None:
        self.thesaurus_comments = comments
        self.thesaurus = Thesaurus(shipped_entries(), entries)
        self.retriever.thesaurus = self.thesaurus

    def custom_thesaurus(self, *, actor: Principal | None = None) -> str:
        """HR's own thesaurus entries, as the text the settings page edits (the file as it is now)."""
        self._acting(actor, "settings")
        return custom_text(*self._custom_now())

    def save_custom_thesaurus(self, text: str, *, actor: Principal | None = None, drawn: str | None = None) -> int:
        """Validate, mask and store HR's entries (a bad line is refused with its number); returns how many.

        `drawn`: the text the editor was drawn with (`custom_thesaurus`); when the file holds something else now,
        nothing is saved (`ThesaurusChanged`), so an entry added meanwhile is never silently written over."""
        actor = self._acting(actor, "settings")
        try:
            _within_size(str(text))  # before masking: an oversized paste is refused at once
            masked = masked_lines(text)
            entries = parse_entries(masked, "自定义词表")
            with _saving(self._settings.data_dir):
                now = custom_text(*self._custom_now())
                if drawn is not None and now != drawn:
                    heads = changed_heads(drawn, now)
                    named = f"（{'、'.join(heads[:10])}{' 等' if len(heads) > 10 else ''}）" if heads else ""
                    raise ThesaurusChanged(
                        f"本页打开后，词表已在别处被修改{named}（可能是另一位同事，或“知识缺口”页的“添加同义词”），"
                        "为免覆盖那次修改，这次没有保存", now)
                before = dict(self.thesaurus.custom)  # as `_custom_now` just read the file
                # a save that removes entries keeps the old file aside (review 395 #1: an emptied editor deleted all)
                self._store_custom_thesaurus(entries, hr_comments(masked), keep_old=bool(before.keys() - entries.keys()))
        except Exception as exc:
            self._audit(actor, "thesaurus.change", "自定义词表", "failed", str(exc))
            raise
        if dropped := invisible_count(str(text)):  # said beside the save's count (the settings page shows it)
            self.thesaurus_notice = "；".join(filter(None, [self.thesaurus_notice, f"保存时{DROPPED.format(dropped)}"]))
        self._audit(actor, "thesaurus.change", "自定义词表", "ok", f"{len(entries)} 条；{entry_changes(before, entries)}")
        return len(entries)

    def thesaurus_removals(self, text: str, *, drawn: str | None = None, actor: Principal | None = None) -> list[str]:
        """The colloquial words a save of `text` would remove from the entries the editor was drawn with (`drawn`;
        else the file as it is now): the page asks before such a save (review 395 #1). An entry added elsewhere since
        is the save's own refusal (`ThesaurusChanged`); [] for a text that would be refused anyway."""
        self._acting(actor, "settings")
        try:
            _within_size(str(text))
            entries = parse_entries(masked_lines(text), "自定义词表")
            before = parse_lines(drawn)[0] if drawn is not None else self._custom_now()[0]
        except RagError:
            return []
        return [head for head in before if head not in entries]

    def add_thesaurus_entry(self, word: str, terms: str | Sequence[str], *, actor: Principal | None = None) -> str:
        """HR's one step from a knowledge gap: `word` (口语词) also searches for `terms` (制度用语).

        Kept with HR's own entries as the file holds them now (the shipped terms of a known word are kept too);
        masked, and validated like the editor's lines, the whole file included (its size); one audit row.
        Returns one Chinese line saying what was added.
        """
        actor = self._acting(actor, "thesaurus")
        text = terms if isinstance(terms, str) else " ".join(str(t) for t in terms)
        try:
            _within_size(str(word) + text)  # before masking: an oversized term is refused at once
            if has_control(str(word) + text):  # a start would leave such a line out: refused here, as by the editor
                raise SettingsError("同义词里有看不见的控制字符（常见于从 Word、Excel 或网页复制），请删去这些字符后再添加")
            if has_surrogate(str(word) + text):
                raise SettingsError("同义词里有无法识别的字符（可能是编码错误），请删去乱码后再添加")
            # mask the whole text before splitting it, as the editor masks a whole line: split first,
            # a number typed in groups (138 1234 5678) is pieces no masking rule recognises
            # characters that show nothing are dropped, as from every line of the editor and every question
            head, masked = redact_text(INVISIBLE.sub("", str(word)).strip()), redact_text(INVISIBLE.sub("", text))
            wanted = masked.replace("、", " ").replace("，", " ").replace(",", " ").split()
            if not head or not wanted or any(c.isspace() for c in head) or head.startswith("#"):
                raise SettingsError("同义词需要一个口语词（不含空格）和至少一个制度用语")
            with _saving(self._settings.data_dir):
                custom, comments = self._custom_now()  # another person's or replica's entries stay
                known = custom[head] if head in custom else shipped_entries().get(head, ())
                merged = tuple(dict.fromkeys([*known, *wanted]))
                entry = parse_entries(f"{head}\t{' '.join(merged)}", "同义词")
                if list(entry) != [head]:
                    raise SettingsError("同义词需要一个口语词（不含空格）和至少一个制度用语")
                entries = {**custom, **entry}
                parse_entries(custom_text(entries, comments), "自定义词表")  # the file stays within its size
                kept = self._store_custom_thesaurus(entries, comments)
        except Exception as exc:  # every failure has its row, as the editor's has
            self._audit(actor, "thesaurus.change", "添加同义词", "failed", str(exc))
            raise
        self._audit(actor, "thesaurus.change", "添加同义词", "ok", f"{head} → {' '.join(merged)}")
        line = f"已添加同义词：搜索“{head}”时也会找“{'、'.join(merged)}”。"
        if dropped := invisible_count(str(word) + text):
            line += f"已{DROPPED.format(dropped)}。"
        return line + (f"原词表文件已原样另存为 {kept}。" if kept else "")

    def _store_custom_thesaurus(self, entries: dict[str, tuple[str, ...]], comments: tuple[str, ...],
                                keep_old: bool = False) -> str:
        """Write HR's entries and comment lines atomically and search with them at once; returns the name the
        old file was kept under when it was not what this writes back ("" when it was, or there was none).

        The new file is written whole first, the old one copied (never moved) aside, then the new one put in its
        place: a write that fails (a full disk, no permission) leaves the old file as it was, and says so."""
        path = self._settings.path(THESAURUS_FILE)
        tmp, kept = path.with_name(THESAURUS_TMP), None
        try:
            tmp.write_bytes(custom_text(entries, comments).encode("utf-8"))
            if path.exists() and not read_custom(path).clean:  # a hand edit: its only copy, never pruned
                kept = path.with_name(f"thesaurus.original-{aside_stamp()}.tsv")
                shutil.copyfile(path, kept)
            elif path.exists() and keep_old:  # entries removed: the last few such copies (review 396 #7)
                kept = path.with_name(f"{REMOVAL_COPY}{aside_stamp()}.tsv")
                shutil.copyfile(path, kept)
                for old in sorted(path.parent.glob(f"{REMOVAL_COPY}*.tsv"))[:-REMOVAL_COPIES_KEPT]:
                    with suppress(OSError):
                        old.unlink()
            os.replace(tmp, path)
        except OSError as exc:
            for leftover in (tmp, kept):
                if leftover is not None:
                    with suppress(OSError):
                        leftover.unlink(missing_ok=True)
            raise _write_failed(exc) from exc
        self._use_custom(entries, comments)
        if self.thesaurus_notice in self.store_notices:
            self.store_notices.remove(self.thesaurus_notice)
        self.thesaurus_notice = f"原来的 {THESAURUS_FILE} 已原样另存为 {kept.name}，没有丢失" if kept else ""
        return kept.name if kept else ""
