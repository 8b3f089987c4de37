"""The damage matrix of docs/deploy.md, one test per row: file × damage → what the user sees.

A store that holds data nobody can recompute (catalog, memories) is refused with
one Chinese line naming the file and the way out; a cache (embedding cache,
sentence index, Chroma) is set aside and rebuilt from the catalog; a lost catalog
never shows as an empty library. `doctor` names every problem without changing
anything. Real Chroma and SQLite in a temp dir, the fake embedder.
"""

from __future__ import annotations

import gc
import json
import sqlite3
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

from rag_core.errors import MemoryStoreError, StoreDamaged

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"


@pytest.fixture(autouse=True)
def fast_cli(monkeypatch):
    """CLI commands open the fake-embedder facade (the e5 model is for the integration tests)."""
    import rag_core.cli

    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir))


@pytest.fixture(scope="module")
def built_store(tmp_path_factory) -> Path:
    """A data dir with one document and one memory, closed again: built once, copied for each test."""
    data = tmp_path_factory.mktemp("damaged") / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.remember("u1", "用户在研发部工作")
    assistant.memory.close()
    del assistant
    gc.collect()
    return data


@pytest.fixture()
def store(built_store: Path, tmp_path: Path) -> Path:
    """A fresh copy of the built store: each test damages its own (a copy costs ~20 ms, a build ~0.8 s)."""
    import shutil

    return Path(shutil.copytree(built_store, tmp_path / "store"))


def truncate(path: Path, size: int | None = None) -> None:
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2 if size is None else size)


def garble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(min(len(data), 4096)):
        data[i] = (data[i] * 7 + 13) % 256
    path.write_bytes(bytes(data))


def reopen(data: Path):
    return fake_assistant(data)


def works(assistant) -> None:
    """The library is intact: the document listed, found by search, the memory there."""
    assert [d.doc_id for d in assistant.list_documents()] == ["leave"]
    assert assistant.search("年假有几天").hits
    assert [m.content for m in assistant.list_memories("u1")] == ["用户在研发部工作"]


# ---------------------------------------------------------------- catalog: data, refused


def test_truncated_catalog_is_refused_with_one_line_naming_it(store: Path) -> None:
    truncate(store / "catalog.sqlite3")
    with pytest.raises(StoreDamaged) as info:
        reopen(store)
    message = str(info.value)
    assert message.startswith("catalog.sqlite3") and "已损坏" in message and "restore" in message
    assert "\n" not in message


@pytest.mark.parametrize("damage", ["deleted", "emptied"])
def test_lost_catalog_is_never_an_empty_library(store: Path, damage: str) -> None:
    if damage == "deleted":
        (store / "catalog.sqlite3").unlink()
    else:
        truncate(store / "catalog.sqlite3", 0)
    for side in ("catalog.sqlite3-wal", "catalog.sqlite3-shm"):
        (store / side).unlink(missing_ok=True)
    with pytest.raises(StoreDamaged) as info:
        reopen(store)
    assert "catalog.sqlite3" in str(info.value) and "chroma/" in str(info.value)


def test_cli_shows_one_line_for_a_damaged_catalog(store: Path, capsys) -> None:
    truncate(store / "catalog.sqlite3")
    result = invoke(capsys, "--data-dir", str(store), "docs", "list")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("错误：catalog.sqlite3")


# ---------------------------------------------------------------- caches: rebuilt


def test_truncated_chroma_database_is_rebuilt_from_the_catalog(store: Path) -> None:
    truncate(store / "chroma" / "chroma.sqlite3")
    assistant = reopen(store)
    assert len(assistant.store_notices) == 1 and assistant.store_notices[0].startswith("chroma/chroma.sqlite3")
    works(assistant)
    assert assistant.vectors.count() == assistant.catalog.chunk_count()


@pytest.mark.parametrize("name", ["embedding_cache.sqlite3", "sentences.sqlite3"])
def test_garbled_cache_is_set_aside_and_rebuilt(store: Path, name: str) -> None:
    garble(store / name)
    assistant = reopen(store)
    assert len(assistant.store_notices) == 1 and assistant.store_notices[0].startswith(name)
    works(assistant)
    assert list(store.glob(f"{name}.damaged-*"))


# ---------------------------------------------------------------- memories: data, refused per action


def test_garbled_memory_store_names_itself_and_documents_still_work(store: Path) -> None:
    garble(store / "memory.sqlite3")
    assistant = reopen(store)
    assert any(note.startswith("memory.sqlite3") for note in assistant.store_notices)
    assert [d.doc_id for d in assistant.list_documents()] == ["leave"]
    with pytest.raises(MemoryStoreError) as info:
        assistant.list_memories("u1")
    assert str(info.value).startswith("memory.sqlite3") and "restore" in str(info.value)


# ---------------------------------------------------------------- doctor


@pytest.mark.parametrize(
    ("damage", "file", "status"),
    [
        (lambda d: truncate(d / "catalog.sqlite3"), "catalog.sqlite3", "damaged"),
        (lambda d: (d / "catalog.sqlite3").unlink(), "catalog.sqlite3", "lost"),
        (lambda d: garble(d / "memory.sqlite3"), "memory.sqlite3", "damaged"),
        (lambda d: garble(d / "embedding_cache.sqlite3"), "embedding_cache.sqlite3", "damaged"),
        (lambda d: truncate(d / "chroma" / "chroma.sqlite3"), "chroma/chroma.sqlite3", "damaged"),
    ],
    ids=["catalog-truncated", "catalog-deleted", "memory-garbled", "cache-garbled", "chroma-truncated"],
)
def test_doctor_names_the_damaged_file_and_the_fix(store: Path, capsys, damage, file: str, status: str) -> None:
    damage(store)
    result = invoke(capsys, "--data-dir", str(store), "doctor", "--json")
    assert result.exit_code == 1
    bad = [c for c in json.loads(result.stdout)["checks"] if not c["ok"]]
    assert [(c["file"], c["status"]) for c in bad] == [(file, status)]
    assert bad[0]["fix"]


def test_doctor_on_a_healthy_store_exits_0(store: Path, capsys) -> None:
    result = invoke(capsys, "--data-dir", str(store), "doctor")
    assert result.exit_code == 0, result.stdout
    assert "catalog.sqlite3" in result.stdout and "有问题" not in result.stdout


def test_doctor_changes_nothing(store: Path, capsys) -> None:
    truncate(store / "chroma" / "chroma.sqlite3")
    def files() -> list[tuple[str, bytes]]:  # SQLite's -wal/-shm side files may appear on a read-only open
        return sorted((p.name, p.read_bytes()) for p in store.rglob("*") if p.is_file() and not p.name.endswith(("-wal", "-shm")))

    before = files()
    invoke(capsys, "--data-dir", str(store), "doctor")
    assert files() == before


def test_sqlite_problem_sees_a_torn_page(tmp_path: Path) -> None:
    """quick_check, not only the header: a page overwritten mid-file is found."""
    from rag_core.storage.health import sqlite_problem

    db = tmp_path / "x.sqlite3"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t (a TEXT)")
    con.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
    con.commit()
    con.close()
    assert sqlite_problem(db) is None
    data = bytearray(db.read_bytes())
    data[4096 * 3 : 4096 * 3 + 200] = b"\xff" * 200
    db.write_bytes(bytes(data))
    assert sqlite_problem(db)


# ---------------------------------------------------------------- a feature's own store: that feature off, asking on

FEATURE_STORES = ["insights.sqlite3", "standard_answers.sqlite3", "conversations.sqlite3"]


@pytest.fixture()
def busy_store(store: Path) -> Path:
    """The store with a conversation, a logged question and a standard answer: every feature file exists."""
    assistant = reopen(store)
    assert assistant.ask("年假有几天", conversation="c1").hit_count
    assistant.add_standard_answer("公司有班车吗？", "没有班车。")
    assistant.memory.close()
    del assistant
    gc.collect()
    for name in FEATURE_STORES:
        assert (store / name).exists(), name
        for side in (f"{name}-wal", f"{name}-shm"):
            (store / side).unlink(missing_ok=True)
    return store


@pytest.mark.parametrize("damage", [garble, truncate], ids=["garbled", "truncated"])
@pytest.mark.parametrize("name", FEATURE_STORES)
def test_a_damaged_feature_store_never_stops_an_answer(busy_store: Path, name: str, damage) -> None:
    damage(busy_store / name)
    assistant = reopen(busy_store)
    trace = assistant.ask("年假有几天", conversation="c1")
    assert trace.hit_count and trace.answer and trace.sources
    said = [w for w in trace.search.warnings if w.startswith(name)]
    if name == "conversations.sqlite3" or said:  # SQLite may read a truncated file's first pages still
        assert len(said) == 1 and "提问不受影响" in said[0] and "doctor" in said[0] and "\n" not in said[0]
    second = assistant.ask("年假有几天？", conversation="c1")  # the next answer too: nothing cached a failure
    assert second.hit_count


@pytest.mark.parametrize("name", FEATURE_STORES)
def test_the_cli_answers_past_a_garbled_feature_store(busy_store: Path, capsys, name: str) -> None:
    garble(busy_store / name)
    result = invoke(capsys, "--data-dir", str(busy_store), "ask", "年假有几天", "--conversation", "c1")
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr and "年假" in result.stdout


@pytest.mark.parametrize(("name", "command"), [("insights.sqlite3", ["gaps"]), ("standard_answers.sqlite3", ["faq", "list"]),
                                               ("conversations.sqlite3", ["ask", "年假", "--conversation", "c1", "--json"])])
def test_the_feature_itself_says_one_line(busy_store: Path, capsys, name: str, command: list[str]) -> None:
    garble(busy_store / name)
    result = invoke(capsys, "--data-dir", str(busy_store), *command)
    if command[0] == "ask":  # asking goes on; the line is in the answer's warnings
        assert result.exit_code == 0 and name in result.stdout
        return
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"错误：{name}") and "doctor" in lines[0]


@pytest.mark.parametrize("name", FEATURE_STORES)
def test_doctor_names_a_damaged_feature_store(busy_store: Path, capsys, name: str) -> None:
    garble(busy_store / name)
    result = invoke(capsys, "--data-dir", str(busy_store), "doctor", "--json")
    assert result.exit_code == 1
    assert [c["file"] for c in json.loads(result.stdout)["checks"] if not c["ok"]] == [name]
