"""The keyword index snapshot: a start loads it only when it matches the catalog, and is never misled by it.

Each guarantee is compared against the index rebuilt from the catalog's tokens: the same
postings, lengths, tokens and BM25 scores, in the same order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_core.documents.catalog import Catalog
from rag_core.search import keyword_snapshot
from rag_core.search.keyword_index import KeywordIndex
from rag_core.search.keyword_snapshot import FILE
from rag_core.search.vector_store import VectorScope
from rag_core.search.visibility import Visible
from rag_core.types import Chunk, DocumentInfo

EVERYTHING = Visible(active=(), keys=frozenset(), everything=True, scope=VectorScope())
TEXTS = {
    "leave": [["年假", "天数", "工龄", "年假"], ["病假", "工资", "医疗期"], ["年假", "折算"]],
    "travel": [["出差", "住宿", "标准"], ["出租车", "网约车", "报销", "出差"]],
}


def _add(catalog: Catalog, doc_id: str, token_lists: list[list[str]], version: int = 1) -> None:
    chunks = [Chunk(chunk_id=f"{doc_id}@v{version}#{i}", doc_id=doc_id, version=version, index=i, text=" ".join(t),
                    source=f"{doc_id}.md", title=doc_id, section="") for i, t in enumerate(token_lists)]
    info = DocumentInfo(doc_id=doc_id, title=doc_id, source=f"{doc_id}.md", version=version, audience=("all",),
                        chunk_count=len(chunks), ingested_at="2026-01-01T00:00:00",
                        content_hash=f"{doc_id}-{version}-{len(chunks)}")
    catalog.insert_version(info, chunks, token_lists)
    catalog.switch_current(doc_id, version, supersedes=True)


def _catalog(data_dir: Path, texts: dict[str, list[list[str]]] = TEXTS) -> Catalog:
    catalog = Catalog(data_dir / "catalog.sqlite3")
    for doc_id, token_lists in texts.items():
        _add(catalog, doc_id, token_lists)
    return catalog


def _state(index: KeywordIndex) -> tuple:
    """Everything a search reads, with the orders it iterates in."""
    inner = index._index
    return (
        [(term, list(plist.items())) for term, plist in inner.postings.items()],
        list(inner.lengths.items()), inner.total_len, list(index._tokens.items()), index._by_key,
        index.score(["年假", "出差", "报销"], EVERYTHING),
    )


def _rebuilt(catalog: Catalog) -> tuple:
    fresh = KeywordIndex(catalog)
    fresh.reload()  # from the catalog's tokens, no snapshot
    return _state(fresh)


@pytest.fixture
def rows_read(monkeypatch) -> list[int]:
    """How often an index read the catalog's tokens (a rebuild)."""
    reads: list[int] = []
    original = Catalog.token_rows

    def spied(self):
        reads.append(1)
        return original(self)

    monkeypatch.setattr(Catalog, "token_rows", spied)
    return reads


def test_a_restart_loads_the_snapshot_and_searches_as_after_a_rebuild(tmp_path, rows_read):
    catalog = _catalog(tmp_path)
    first = KeywordIndex(catalog)
    assert rows_read == [1] and (tmp_path / FILE).is_file()
    second = KeywordIndex(Catalog(tmp_path / "catalog.sqlite3"))
    assert rows_read == [1]  # loaded, not rebuilt
    assert _state(second) == _state(first) == _rebuilt(catalog)


def test_a_changed_catalog_is_rebuilt_and_the_snapshot_renewed(tmp_path, rows_read):
    catalog = _catalog(tmp_path)
    KeywordIndex(catalog)
    _add(catalog, "pay", [["工资", "发放", "日期"]])
    after = KeywordIndex(catalog)
    assert "pay@v1#0" in after._tokens and len(rows_read) == 2
    again = KeywordIndex(catalog)
    assert len(rows_read) == 2 and _state(again) == _state(after) == _rebuilt(catalog)


def test_another_catalog_at_the_same_generation_does_not_take_the_snapshot(tmp_path, rows_read):
    """A catalog put back from elsewhere with as many writes behind it: the live versions differ."""
    one, other = tmp_path / "one", tmp_path / "other"
    one.mkdir(), other.mkdir()
    a = _catalog(one)
    b = _catalog(other, {"leave": TEXTS["leave"], "bonus": [["奖金", "发放"], ["年终奖", "考核"]]})
    assert a.generation() == b.generation()
    KeywordIndex(a)
    (other / FILE).write_bytes((one / FILE).read_bytes())
    index = KeywordIndex(b)
    assert "bonus@v1#0" in index._tokens and "travel@v1#0" not in index._tokens
    assert _state(index) == _rebuilt(b)


def _damaged(data: bytes) -> list[bytes]:
    body_starts = data.index(b"\n", len(keyword_snapshot.MAGIC)) + 1 + 32
    same_length = "年假".encode(), "年休".encode()  # marshal still reads it: only the checksum notices
    assert same_length[0] in data[body_starts:]
    return [
        data[:body_starts] + data[body_starts:].replace(*same_length),
        data[: len(data) // 2],
        data[:body_starts] + b"\x00" * (len(data) - body_starts),
        b"",
        b"not a snapshot",
    ]


def test_a_damaged_snapshot_is_never_trusted_only_rebuilt(tmp_path, rows_read):
    catalog = _catalog(tmp_path)
    KeywordIndex(catalog)
    good = (tmp_path / FILE).read_bytes()
    expected = _rebuilt(catalog)
    for i, bad in enumerate(_damaged(good)):
        (tmp_path / FILE).write_bytes(bad)
        index = KeywordIndex(Catalog(tmp_path / "catalog.sqlite3"))  # no error reaches the caller
        assert _state(index) == expected, i
        assert keyword_snapshot.load(tmp_path / FILE, keyword_snapshot.catalog_key(catalog)) is not None, i  # renewed


def test_a_snapshot_that_cannot_be_written_leaves_nothing_behind(tmp_path):
    catalog = _catalog(tmp_path)
    index = KeywordIndex(catalog)
    snap = keyword_snapshot.Snapshot(index._index.postings, index._index.lengths, index._index.total_len,
                                     index._tokens)
    missing = tmp_path / "gone" / FILE
    assert keyword_snapshot.save(missing, keyword_snapshot.catalog_key(catalog), snap) is False
    assert not missing.parent.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(FILE)) == [FILE]
