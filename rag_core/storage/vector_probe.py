"""Does Chroma's on-disk vector index load? Asked in a child process.

A garbled HNSW file (`chroma/<segment>/data_level0.bin`) is read by Chroma's native code, which
crashes the whole process (a segfault) the first time it loads the segment: no `except` clause
catches that, so the app died on its first question, or at start in `count()`. A child process that
opens every collection and asks one nearest neighbour tells a healthy index from a crash, and the
index (a cache of the catalog) can then be set aside and rebuilt before this process touches it.

Only stores big enough for Chroma to have written an HNSW segment are probed (a few hundred chunks
live in Chroma's SQLite queue alone), and a start probes only when those files' bytes changed since the
last probe found them healthy (`checked_segments`, stamps kept by `health._Checked`): about 0.9 s once after
the index grows; otherwise a CRC-32 of them (0.52 ms per MB measured from the page cache; about 17 MB at 10k chunks).
Their times are not trusted (stop 65): a file damaged where it sits, or copied with its times kept, crashed every
start although its size and time had not changed.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REWRITTEN_ON_LOAD = frozenset({"length.bin"})  # other bytes after a process loads an unchanged index
SEGMENT_BYTES = "chroma/segment-bytes"  # the stamp's key in health's CHECKED file
HNSW_DATA = "data_level0.bin"  # the file that holds the vectors and the graph: present once a segment is persisted
PROBE_SECONDS = 300  # a slow disk may take long to load a big index; past this, nothing is concluded
LOADS, DAMAGED, UNKNOWN = "loads", "damaged", "unknown"  # a probe's outcomes
_LOADED = "LOADED"  # the child prints it once every collection loaded and answered
_PROBE = """
import sys
import chromadb
from chromadb.config import Settings

client = chromadb.PersistentClient(path=sys.argv[1], settings=Settings(anonymized_telemetry=False))
for listed in client.list_collections():
    collection = client.get_collection(getattr(listed, "name", listed))
    if collection.count():
        first = collection.get(limit=1, include=["embeddings"])["embeddings"]
        collection.query(query_embeddings=[list(first[0])], n_results=1)
"""
_PROBE += f"print({_LOADED!r}, flush=True)\n"  # reached only when nothing above crashed or raised


@dataclass(frozen=True)
class Probe:
    """What the probe found: the index loads, is damaged (`problem` says why) or it could not tell (`note`).

    Three outcomes, not "a reason or None": "could not tell" read as "loads" stamped a garbled index as
    checked, so it was never probed again and every later start crashed on it."""

    outcome: str
    problem: str = ""  # DAMAGED: why the index does not load, in Chinese
    note: str = ""  # UNKNOWN: why nothing could be told, in Chinese (never a reason to set anything aside)

    @property
    def loads(self) -> bool:
        return self.outcome == LOADS


def segment_files(chroma_dir: Path) -> list[Path]:
    """The files of the HNSW segments Chroma loads from disk, in a stable order; [] when none holds a vector.

    Chroma keeps new vectors in its SQLite log and saves a segment once a thousand records piled up. Until a
    segment's first save it has no id map (`index_metadata.pickle`) and no saved position in the log, and every
    open rebuilds it from the log, writing its files anew with other random graph levels: its bytes are never
    read, damage to them does nothing, and counting them made the probe run again at about a third of warm
    starts on a 10k store whose `hr` partition held 620 records (docs/benchmarks.md, "Stop 52"). Nor does a
    segment whose header says it holds no element. A store with neither (the samples, every test store) is
    not probed."""
    chroma_dir = Path(chroma_dir)
    saved = _saved_segments(chroma_dir)
    segments = [data.parent for data in chroma_dir.glob(f"*/{HNSW_DATA}")]
    loaded = sorted(s for s in segments if _may_hold_vectors(s) and _loaded_from_disk(s, saved))
    return sorted(p for segment in loaded for p in segment.iterdir() if p.is_file())


_ID_MAP = "index_metadata.pickle"  # written at a segment's first save, with the graph


def _saved_segments(chroma_dir: Path) -> set[str] | None:
    """The segments Chroma recorded a saved log position for, read from its database; None when unreadable."""
    import sqlite3

    try:
        con = sqlite3.connect(f"file:{chroma_dir / 'chroma.sqlite3'}?mode=ro", uri=True)
        try:
            return {str(row[0]) for row in con.execute("SELECT segment_id FROM max_seq_id")}
        finally:
            con.close()
    except sqlite3.Error:
        return None


def _loaded_from_disk(segment: Path, saved: set[str] | None) -> bool:
    """Chroma loads the segment's files (it has an id map, or a saved log position whose id map went missing —
    then the open fails, which the probe must see); a segment never saved is rebuilt from the log instead."""
    return (segment / _ID_MAP).exists() or saved is None or segment.name in saved


# hnswlib's header.bin as Chroma writes it: version, offsetLevel0, max_elements, cur_element_count, …
_HEADER = struct.Struct("<i3Q")


def _may_hold_vectors(segment: Path) -> bool:
    """The segment's header says it holds an element, or cannot be read as a header at all (then it may)."""
    try:
        with (segment / "header.bin").open("rb") as file:
            version, _offset, capacity, count = _HEADER.unpack(file.read(_HEADER.size))
    except (OSError, struct.error):
        return True
    return version != 1 or count != 0 or capacity == 0


def segments_stamp(chroma_dir: Path) -> list[int]:
    """Size and CRC-32 of every segment file: changes with their bytes, not with a rewrite of the same bytes.

    `length.bin` is written with other bytes by a process that merely loads the index: only its size counts
    (damage to it alone does no harm)."""
    stamp: list[int] = []
    for path in segment_files(chroma_dir):
        stamp.append(path.stat().st_size)
        if path.name not in REWRITTEN_ON_LOAD:
            crc = 0
            with path.open("rb") as file:
                while block := file.read(1 << 20):
                    crc = zlib.crc32(block, crc)
            stamp.append(crc)
    return stamp


def checked_segments(chroma_dir: Path, stamps: dict[str, list[int]],
                     probe: Callable[[Path], Probe]) -> str | None:
    """Why the segments do not load, probing only when their bytes changed since they passed; updates `stamps`.

    The same bytes (unchanged, or rewritten by Chroma with other times): no probe. Their times alone vouch for
    nothing: damage in place keeps them (review 335: a segfault at every start). The stamps are taken after a
    probe, since the probe's own load writes the files again; stamped before it, every start saw a change and
    probed (0.7 s per CLI command). Only a probe whose child loaded everything stamps: one that could not tell
    (timed out, killed mid-load) leaves them unstamped, probed next start."""
    try:
        if not segment_files(chroma_dir) or stamps.get(SEGMENT_BYTES) == segments_stamp(chroma_dir):
            return None
    except OSError:
        return None  # a file vanished while listed: the open that follows says what is wrong
    found = probe(chroma_dir)
    stamps.pop(SEGMENT_BYTES, None)
    if found.loads:
        try:
            stamps[SEGMENT_BYTES] = segments_stamp(chroma_dir)
        except OSError:
            pass
    return found.problem or None


def probe_vectors(chroma_dir: Path) -> Probe:
    """Whether the index loads, asked of a child process; UNKNOWN when the child could not tell.

    A probe that runs out of time or cannot start concludes nothing: setting a healthy index aside on a slow
    machine would cost a full re-embedding for no reason, and calling it healthy hid a garbled one for good.
    Nor does one on a directory this process cannot write (a read-only mount): Chroma cannot open it there
    at all, which says nothing of the files. The index loads only when the child got to its last line."""
    if not os.access(chroma_dir, os.W_OK):  # Chroma opens its database for writing: a read-only copy fails whole
        return Probe(UNKNOWN, note="向量索引目录无法写入，没有检查")
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    try:
        done = subprocess.run([sys.executable, "-c", _PROBE, str(chroma_dir)], capture_output=True, text=True,
                              timeout=PROBE_SECONDS, env=env, check=False)
    except subprocess.TimeoutExpired:
        return Probe(UNKNOWN, note=f"检查超过 {PROBE_SECONDS} 秒没有结束")
    except OSError as exc:
        return Probe(UNKNOWN, note=f"检查进程没能启动（{exc.strerror or exc}）")
    if done.returncode == 0:
        if _LOADED in done.stdout.splitlines():
            return Probe(LOADS)
        return Probe(UNKNOWN, note="检查进程没有读完全部索引就退出了")
    if done.returncode < 0:
        return Probe(DAMAGED, f"读取向量索引文件时进程崩溃（信号 {-done.returncode}），索引文件已损坏")
    last = next((line for line in reversed(done.stderr.splitlines()) if line.strip()), "")
    return Probe(DAMAGED, f"向量索引文件无法读取（{last.strip()[:120] or f'退出码 {done.returncode}'}）")
