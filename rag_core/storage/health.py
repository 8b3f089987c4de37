"""Which store file is damaged, what the user sees, and what to do — one Chinese line each.

Two kinds of file live in the data dir. The catalog (`catalog.sqlite3`) and the memories (`memory.sqlite3`) hold
data nobody can recompute: damage is reported, never repaired by guessing. The embedding cache, the sentence index
and Chroma are caches of the catalog: a damaged one is moved aside and rebuilt on start. A catalog that is missing
while Chroma still holds this project's collections is a *lost* catalog, not an empty library, and is refused with
that reason; so is a catalog cut shorter than SQLite's header (SQLite would open it as a new, empty one) when anything
shows the library existed; without such a sign it is a first start that stopped half-way (a full disk): a new install.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from pathlib import Path

from ..errors import StoreDamaged
from .disk_space import full_line, low_space
from .empty_stores import HEADER, RESTORE_HINT, cut_state, empty_check, kept_aside, set_aside_empty, truncated
from .library_evidence import left_over, rows_left
from .open_lock import alone, in_use
from .set_aside import set_aside as _set_aside
from .sqlite_access import (
    CORRUPT_INSIDE,
    NOT_A_FILE,
    access_reason,
    connect_ro,
    damage_reason,
    interrupted,
    problem_of,
    roll_back_interrupted,
)
from .store_check import StoreCheck, exposed, not_a_directory, private_if_new, unwritable
from .vector_probe import checked_segments, probe_vectors, segment_files
from .version_check import WRITING, live_chunks, version_problems, writer_quiet

CATALOG = "catalog.sqlite3"
MEMORY = "memory.sqlite3"
EMBEDDING_CACHE = "embedding_cache.sqlite3"
SENTENCES = "sentences.sqlite3"
CHROMA_DIR = "chroma"
CHROMA_DB = "chroma/chroma.sqlite3"
SECOND_CACHE = "second_embedding_cache.sqlite3"  # the second ranking model's vectors (settings.second_embedding_model)
SECOND_SENTENCES = "second_sentences.sqlite3"
CACHES = (EMBEDDING_CACHE, SENTENCES, SECOND_CACHE, SECOND_SENTENCES)  # rebuilt from the catalog when damaged
COLLECTION_PREFIX = "policy_chunks_"
CHECKED = ".open_checks.json"  # files found healthy at a start, by size and mtime (see _Checked)
SETTLED_NS = 2_000_000_000  # a file written less than this long ago is checked in full at every start
CHROMA_IN_USE = ("向量索引已损坏，但另一个进程（运行中的应用或命令行）正打开着数据目录，所以没有移走它，文件都没有改动。"
                 "请先停止应用和其他命令再启动：向量索引只是缓存，会自动移开并从文档目录重建")
CATALOG_FIX = f"请{RESTORE_HINT}；没有备份时移走它并删除 {CHROMA_DIR}/，再重新导入"
CATALOG_REFUSED = f"文档目录无法读取。请{RESTORE_HINT}；没有备份时把它移走，同时删除 {CHROMA_DIR}/ 目录，再重新导入制度文件"
CACHE_IN_USE = ("它只是缓存，但另一个进程（运行中的应用或命令行）正打开着数据目录，所以没有移走它，文件都没有改动。"
                "请先停止应用和其他命令再启动：它会自动移开并从文档目录重建，不丢数据")


def sqlite_problem(path: Path, *, thorough: bool = True) -> str | None:
    """None when `path` opens as a healthy SQLite database, else the reason (in Chinese). A file that cannot be
    reached (read-only or foreign directory, data dir replaced) gets a reason `access_reason` recognises: callers say
    so and fix permissions, never move or delete the file."""
    try:
        con = connect_ro(path)
    except sqlite3.Error as exc:
        return problem_of(exc, Path(path).parent, Path(path))
    try:
        if thorough:
            rows = con.execute("PRAGMA quick_check(3)").fetchall()
            if rows != [("ok",)]:  # SQLite's rows ("On tree page 7 cell 12 …") go to the log only
                return f"数据库文件已损坏（{damage_reason('; '.join(str(r[0]) for r in rows), CORRUPT_INSIDE)}）"
    except sqlite3.Error as exc:
        return problem_of(exc, Path(path).parent, Path(path))
    finally:
        con.close()
    return None


def _damage_check(file: str, problem: str, fix: str) -> StoreCheck:
    """`doctor`'s row for a file with a problem: unreadable (fix permissions) or damaged (`fix`)."""
    if reason := access_reason(problem):
        return StoreCheck(file, "interrupted" if interrupted(problem) else "unreadable", *reason)
    return StoreCheck(file, "damaged", problem, fix)


def chroma_collections(data_dir: Path) -> dict[str, int]:
    """This project's Chroma collections and their record counts, read from chroma.sqlite3 directly."""
    path = Path(data_dir) / CHROMA_DB
    if not path.exists() or sqlite_problem(path, thorough=False):
        return {}
    try:
        with closing(connect_ro(path)) as con:
            rows = con.execute(
                "SELECT c.name, (SELECT count(*) FROM embeddings e JOIN segments s ON e.segment_id = s.id "
                "WHERE s.collection = c.id) FROM collections c WHERE c.name LIKE ?", (COLLECTION_PREFIX + "%",)
            ).fetchall()
    except sqlite3.Error:
        return {}
    return {name: int(count) for name, count in rows}


def _catalog_chunks(path: Path) -> int | None:
    if not path.exists():
        return None
    try:
        with closing(connect_ro(path)) as con:
            return int(con.execute("SELECT count(*) FROM chunks").fetchone()[0])
    except sqlite3.Error:
        return None


class _Checked:
    """Files a start found healthy, by size and modification time (and an empty WAL), in CHECKED.

    `PRAGMA quick_check` reads every page: 1–2 s per start for the ~450 MB of a 10k-chunk store. A file that has not
    changed since it passed is only opened (the cheap check); any write to it — and every kind of damage the tests
    make — changes its stamp, so it is read in full again. `doctor` always reads everything."""

    def __init__(self, data_dir: Path):
        self.path = data_dir / CHECKED
        try:
            stamps = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            stamps = {}
        # valid JSON of another shape ([], null, "x": a hand edit, a foreign file) stopped every start
        self.stamps: dict[str, list[int]] = stamps if isinstance(stamps, dict) else {}
        self.changed = False

    @staticmethod
    def stamp(path: Path) -> list[int]:
        """Size and mtime of the file; its WAL's size (each connection's close resets the WAL's own mtime)."""
        wal = path.with_name(path.name + "-wal")
        st = path.stat()
        return [st.st_size, st.st_mtime_ns, wal.stat().st_size if wal.exists() else 0]

    def problem(self, data_dir: Path, name: str) -> str | None:
        path = data_dir / name
        try:
            before = self.stamp(path)
        except OSError:
            return sqlite_problem(path)
        if self.stamps.get(name) == before and not before[2]:  # unchanged, and nothing waiting in its WAL
            return sqlite_problem(path, thorough=False)
        problem = sqlite_problem(path)
        try:
            unchanged = problem is None and self.stamp(path) == before  # not written during the check
        except OSError:
            unchanged = False
        # mtimes are coarse (a kernel tick): a write in the same tick as the last one may keep the mtime,
        # so only a file last written some seconds ago is trusted to show its next write
        if unchanged and time.time_ns() - before[1] > SETTLED_NS and before[0] >= HEADER:
            self.stamps[name] = before
        elif before[0] >= HEADER:  # a cut file vouches for nothing; its whole one's stamp stays (`library_existed`)
            self.stamps.pop(name, None)
        self.changed = True
        return problem

    def segments_notice(self, data_dir: Path) -> str | None:
        """Chroma's HNSW segments fail to load (`vector_probe`): set aside, and the line that says so. Probed only
        when their bytes changed, and probed and set aside only while this start holds the data dir alone
        (`open_lock.alone`): a probe during another process's compaction crashed on a healthy index, and chroma/ was
        moved away under a process that opened it during the probe."""
        with alone(data_dir) as held:
            if not held:
                return None
            before = dict(self.stamps)
            problem = checked_segments(data_dir / CHROMA_DIR, self.stamps, probe_vectors)
            self.changed = self.changed or self.stamps != before
            return _chroma_aside(data_dir, problem) if problem else None

    def save(self) -> None:
        if not self.changed:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(self.stamps), encoding="utf-8")
            tmp.replace(self.path)
        except OSError:  # a read-only data dir: every start checks in full, as before
            pass


def open_checks(data_dir: Path, *, embedded_chroma: bool = True) -> list[str]:
    """Run before the stores open: refuse a damaged or lost catalog, move damaged caches aside.

    Returns one Chinese line per cache that was set aside (shown once, then rebuilt); raises `StoreDamaged` for a
    damaged or lost catalog. Files unchanged since a start found them healthy are not read in full again (`_Checked`)."""
    data_dir = Path(data_dir)
    private_if_new(data_dir)
    if wrong := unwritable(data_dir):  # a read-only mount, a snapshot: nothing is damaged
        raise StoreDamaged(f"数据目录 {data_dir} {wrong.detail}：{wrong.fix}。数据没有改动")
    checked = _Checked(data_dir)
    try:
        return _open_checks(data_dir, embedded_chroma, checked)
    finally:
        checked.save()


def _open_checks(data_dir: Path, embedded_chroma: bool, checked: _Checked) -> list[str]:
    catalog = data_dir / CATALOG
    notices: list[str] = []
    earlier = checked.stamps.get(CATALOG)  # read before this start's check stamps the catalog as it is now
    for name in (CATALOG, MEMORY, *CACHES, *([CHROMA_DB] if embedded_chroma else [])):
        roll_back_interrupted(data_dir / name)  # a crash's journal, as opening would: the checks see that store
    if catalog.exists() and (problem := checked.problem(data_dir, CATALOG)):
        if access_reason(problem):  # a healthy file this process may not reach: nothing to move or delete
            raise StoreDamaged(f"{CATALOG} {problem}")
        raise StoreDamaged(f"{CATALOG} {problem}：{CATALOG_REFUSED}")
    if embedded_chroma and not _catalog_chunks(catalog) and not left_over(catalog):
        # missing, emptied (truncated to 0 bytes) or without chunks while Chroma still holds vectors
        orphans = chroma_collections(data_dir)
        if sum(orphans.values()):
            state = "是空的" if catalog.exists() else "不见了"
            raise StoreDamaged(
                f"{CATALOG} {state}，但 {CHROMA_DIR}/ 里还有 {len(orphans)} 个文档集合（{sum(orphans.values())} 条向量）："
                f"文档库并不是空的，目录丢了。请{RESTORE_HINT}；确定要从空库重新开始，就删除 {CHROMA_DIR}/ 目录"
            )
    if truncated(catalog):  # SQLite would open it as a new, empty library: every answer 制度里没有写这一条
        notices += _cut_catalog(catalog, earlier)
    notices += set_aside_empty(data_dir, (CATALOG, *CACHES))  # a truncated store is not opened as a new one
    if (problem := memory_problem(data_dir / MEMORY)) is not None:
        notices.append(problem)  # not a cache: reported, never moved; the memory actions refuse with the same line
    for name in CACHES:
        path = data_dir / name
        if path.exists() and (problem := checked.problem(data_dir, name)):
            if (reached := access_reason(problem)) and reached[0] != NOT_A_FILE:  # a cache's folder: moved aside too
                notices.append(f"{name} {problem}")
                continue
            notices += _cache_aside(data_dir, name, problem)
    chroma_db = data_dir / CHROMA_DB
    if embedded_chroma and chroma_db.exists() and (problem := checked.problem(data_dir, CHROMA_DB)):
        if (reached := access_reason(problem)) and reached[0] != NOT_A_FILE:  # a folder in its place: chroma/ set aside
            notices.append(f"{CHROMA_DB} {problem}")
            return notices
        with alone(data_dir) as held:  # never moved away under another process that has it open
            if not held:
                raise StoreDamaged(f"{CHROMA_DB} {problem}：{CHROMA_IN_USE}")
            moved = _set_aside(data_dir / CHROMA_DIR)
        notices.append(f"{CHROMA_DB} {(reached or (problem,))[0]}：向量索引只是缓存，已移到 {moved.name} 并从文档目录重建")
    elif embedded_chroma and (notice := checked.segments_notice(data_dir)):
        notices.append(notice)
    return notices


def _cut_catalog(catalog: Path, earlier: object) -> list[str]:
    """A catalog shorter than SQLite's header: refused when the library existed (opened, a new schema hid the cut),
    else a first start stopped before the header (a full disk): set aside, a new install. Another start's: waited for."""
    for _ in range(10 if in_use(catalog.parent) else 0):
        time.sleep(0.1)
        if not truncated(catalog):
            return []
    if not truncated(catalog):
        return []
    size = catalog.stat().st_size
    if library_existed(catalog.parent, earlier):
        raise StoreDamaged(f"{CATALOG} {cut_state(size)}：{CATALOG_REFUSED}")
    with alone(catalog.parent) as held:
        if held:
            moved = _set_aside(catalog, "unfinished")
            return [f"{CATALOG} 是空的（{size} 字节），但这个数据目录还没有存过文档（上次首次启动没有完成，例如磁盘满了）："
                    f"已把它移到 {moved.name}，新建了一个空的文档目录"]
    raise StoreDamaged(f"{CATALOG} {cut_state(size)}：另一个进程正打开着数据目录，文件没有改动。请先停止应用和其他命令再启动")


def library_existed(data_dir: Path, earlier: object = None) -> bool:
    """An earlier start found the catalog whole (`earlier`: its CHECKED stamp), Chroma holds collections, a set-aside
    catalog is whole, or the audit, history, caches or memories have rows (`library_evidence`; unreadable: yes)."""
    return bool(isinstance(earlier, list) and earlier and isinstance(earlier[0], int) and earlier[0] >= HEADER
                or chroma_collections(data_dir) or any(not truncated(p) for p in kept_aside(data_dir, CATALOG))
                or rows_left(data_dir))


def _cache_aside(data_dir: Path, name: str, problem: str) -> list[str]:
    """Move a damaged cache aside, only while this start holds the data dir alone (`open_lock.alone`). Two starts
    that both found it damaged both moved it: the second took away the cache the first had just rebuilt and opened.
    Looked at again first: another start may have moved and rebuilt it meanwhile (then nothing to say); still
    damaged while another process has the data dir open, the start is refused."""
    path = data_dir / name
    with alone(data_dir) as held:
        if not path.exists() or not sqlite_problem(path):
            return []
        if held:
            moved = _set_aside(path)
            return [f"{name} {(access_reason(problem) or (problem,))[0]}：它只是缓存，已移到 {moved.name} 并从文档目录重建，不丢数据"]
    raise StoreDamaged(f"{name} {problem}：{CACHE_IN_USE}")


def set_aside_chroma(data_dir: Path, reason: str) -> str:
    """Chroma failed to open although its database looked healthy: move it aside, say so. Only while this process
    holds the data dir alone (`open_lock.alone`; the caller lets go of its own hold): moved under another process
    that has it open, that process would go on writing into the set-aside copy. StoreDamaged otherwise, the files
    left as they are."""
    with alone(Path(data_dir)) as held:
        if held:
            return _chroma_aside(Path(data_dir), reason)
    raise StoreDamaged(f"{CHROMA_DIR}/ 无法打开（{reason[:120]}）：{CHROMA_IN_USE}")


def _chroma_aside(data_dir: Path, reason: str) -> str:
    """Move chroma/ aside, unless the disk is full: then it failed for want of room, and a rebuild would too."""
    if low_space(Path(data_dir)):
        raise StoreDamaged(full_line(f"{CHROMA_DIR}/"))
    moved = _set_aside(Path(data_dir) / CHROMA_DIR)
    return f"{CHROMA_DIR}/ 无法打开（{reason[:120]}）：向量索引只是缓存，已移到 {moved.name} 并从文档目录重建"


def memory_problem(path: Path) -> str | None:
    """The one line for a damaged memory store, or None."""
    problem = sqlite_problem(path) if Path(path).exists() else None
    if not problem:
        return None
    if access_reason(problem):
        return f"{MEMORY} {problem}"
    return f"{MEMORY} {problem}：记忆无法读取。请{RESTORE_HINT}；没有备份时把它移走（所有人的记忆会清空）"


def doctor(data_dir: Path, *, embedded_chroma: bool = True, timezone: str | None = None) -> list[StoreCheck]:
    """Every file in the data dir checked, with what is wrong and the fix; nothing is changed. `timezone`: the office's
    (`Settings.timezone`), whose days effective dates are (None: the default setting)."""
    data_dir = Path(data_dir)
    checks: list[StoreCheck] = []
    if not data_dir.exists():
        return [StoreCheck(str(data_dir), "missing", "数据目录不存在", f"首次启动会新建；要找回数据请{RESTORE_HINT}")]
    if wrong := not_a_directory(data_dir):
        return [wrong]
    checks += [check for check in (exposed(data_dir), unwritable(data_dir)) if check]  # the start's own refusal
    catalog = data_dir / CATALOG
    chroma = chroma_collections(data_dir) if embedded_chroma else {}
    if catalog.exists() and (problem := sqlite_problem(catalog)):
        checks.append(_damage_check(CATALOG, problem, CATALOG_FIX))
    elif not _catalog_chunks(catalog) and sum(chroma.values()) and not left_over(catalog):
        state = "是空的" if catalog.exists() else "不见了"
        checks.append(StoreCheck(CATALOG, "lost", f"{state}，但 {CHROMA_DIR}/ 里还有 {sum(chroma.values())} 条向量",
                                 f"请{RESTORE_HINT}；确定从空库开始就删除 {CHROMA_DIR}/"))
    elif truncated(catalog) and library_existed(data_dir, _Checked(data_dir).stamps.get(CATALOG)):  # start refuses
        checks.append(StoreCheck(CATALOG, "damaged", f"{cut_state(catalog.stat().st_size)}，文档目录读不到了", CATALOG_FIX))
    elif not catalog.exists() or truncated(catalog):  # cut before a first start wrote its header: set aside, new
        checks.append(StoreCheck(CATALOG, "missing", "还没有文档目录", "首次启动时新建"))
    else:
        with writer_quiet(data_dir) as quiet:  # an upload's half-way state is no problem
            checks.append(StoreCheck(CATALOG, "ok", f"{_catalog_chunks(catalog)} 块{'' if quiet else WRITING}"))
            checks.extend(version_problems(catalog, timezone) if quiet else [])
    memory = data_dir / MEMORY
    if not memory.exists():
        checks.append(StoreCheck(MEMORY, "missing", "还没有记忆", "第一次记忆时新建"))
    elif truncated(memory):
        checks.append(empty_check(MEMORY, memory.stat().st_size))
    elif problem := sqlite_problem(memory):
        checks.append(_damage_check(MEMORY, problem, f"请{RESTORE_HINT}；没有备份时移走它（记忆会清空）"))
    else:
        checks.append(StoreCheck(MEMORY, "ok"))
    for name in CACHES:
        path = data_dir / name
        if not path.exists():
            checks.append(StoreCheck(name, "missing", "缓存不存在", "启动时自动重建"))
        elif truncated(path):  # SQLite would read it as a new, empty cache
            checks.append(StoreCheck(name, "damaged", cut_state(path.stat().st_size), "它只是缓存：启动时会自动重建"))
        elif problem := sqlite_problem(path):
            checks.append(_damage_check(name, problem, "它只是缓存：启动应用或任一命令时会自动移开并重建"))
        else:
            checks.append(StoreCheck(name, "ok"))
    if embedded_chroma:
        checks.append(_chroma_check(data_dir, catalog, chroma))
    from .account_files import AUDIT, FIXES, lost_accounts_check

    known = {CATALOG, MEMORY, *CACHES}
    if lost := lost_accounts_check(data_dir):  # no account although the audit trail shows accounts were used
        checks.append(lost)
        known |= {lost.file, *([AUDIT] if (data_dir / AUDIT).is_dir() else [])}  # a folder: the lost row's fix alone
    for path in sorted(data_dir.glob("*.sqlite3")):
        if path.name not in known and truncated(path):
            checks.append(empty_check(path.name, path.stat().st_size))
        elif path.name not in known:  # stores other parts of the app keep (accounts, audit, conversations …)
            problem = sqlite_problem(path)
            fix = FIXES.get(path.name, f"请{RESTORE_HINT}")
            checks.append(_damage_check(path.name, problem, fix) if problem else StoreCheck(path.name, "ok"))
    return checks


def _chroma_check(data_dir: Path, catalog: Path, collections: dict[str, int]) -> StoreCheck:
    chroma_db = data_dir / CHROMA_DB
    if not chroma_db.exists():
        return StoreCheck(CHROMA_DIR + "/", "missing", "向量索引不存在", "启动时从文档目录自动重建")
    if problem := sqlite_problem(chroma_db):
        return _damage_check(CHROMA_DB, problem, "它只是缓存：启动时会自动移开并从文档目录重建")
    live, found = False, None
    if segment_files(data_dir / CHROMA_DIR):
        with alone(data_dir) as held:  # files another process may be writing: a probe would say nothing of damage
            live, found = not held, probe_vectors(data_dir / CHROMA_DIR) if held else None
    if found and found.problem:
        return StoreCheck(CHROMA_DIR + "/", "damaged", found.problem, "它只是缓存：启动时会自动移开并从文档目录重建")
    with writer_quiet(data_dir) as quiet:  # counted while no upload is half-way (its chunks before its vectors)
        chunks = live_chunks(catalog) if quiet and catalog.exists() and not truncated(catalog) else None
        vectors = sum((chroma_collections(data_dir) if quiet else collections).values())
    if chunks is not None and vectors != chunks:
        return StoreCheck(CHROMA_DIR + "/", "inconsistent", f"{vectors} 条向量，文档目录有 {chunks} 块",
                          "启动时自动按文档目录重建")
    note = WRITING if not quiet else "（应用正在运行，向量索引文件留到下次启动时检查）" if live else ""
    if found and found.note:  # could not tell: neither damaged nor known to load
        note = f"（向量索引文件这次没能检查：{found.note}；下次启动时会再检查）"
    return StoreCheck(CHROMA_DIR + "/", "ok", f"{vectors} 条向量{note}")
