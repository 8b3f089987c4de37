"""A damaged cache is moved aside only while this start has the data dir alone (review 55d #4b).

`_open_checks` moved a damaged embedding cache without the data dir's exclusive lock: two starts that both
found it damaged both moved it, the second taking away the cache the first had just rebuilt and opened. Now,
with another process on the data dir, nothing moves and the start is refused in Chinese; a cache that is
healthy again by then (the other start rebuilt it) is left alone and nothing is said. A second real process.
"""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest
from fakes import fake_assistant
from holding_process import HoldingProcess

from rag_core.errors import StoreDamaged
from rag_core.storage.health import open_checks

pytestmark = pytest.mark.slow  # another process holds the data dir

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
CACHE = "embedding_cache.sqlite3"


def _garble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(min(len(data), 4096)):
        data[i] = (data[i] * 7 + 13) % 256
    path.write_bytes(bytes(data))


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.release_data_dir()
    del assistant
    gc.collect()
    shutil.copy2(data / CACHE, tmp_path / "healthy-cache")
    return data


@pytest.fixture()
def other(store: Path):
    with HoldingProcess(store) as holder:
        yield holder


def test_fix55d_a_damaged_cache_is_not_moved_under_another_process(store: Path, other) -> None:
    _garble(store / CACHE)
    garbled = (store / CACHE).read_bytes()
    with pytest.raises(StoreDamaged) as refused:
        open_checks(store)
    assert CACHE in str(refused.value) and "另一个进程" in str(refused.value)
    assert "停止应用和其他命令再启动" in str(refused.value)
    assert (store / CACHE).read_bytes() == garbled and not list(store.glob(f"{CACHE}.damaged-*"))


def test_fix55d_a_cache_another_start_rebuilt_meanwhile_is_left_alone(store: Path, other, monkeypatch) -> None:
    _garble(store / CACHE)
    from rag_core.storage import health

    found = health.sqlite_problem

    def rebuilt_after_the_first_look(path: Path, *, thorough: bool = True) -> str | None:
        problem = found(path, thorough=thorough)
        if Path(path).name == CACHE and problem:  # the other start moves it aside and rebuilds it now
            shutil.copy2(store.parent / "healthy-cache", store / CACHE)
        return problem

    monkeypatch.setattr(health, "sqlite_problem", rebuilt_after_the_first_look)
    assert not any(CACHE in notice for notice in open_checks(store))
    assert not list(store.glob(f"{CACHE}.damaged-*"))


def test_fix55d_alone_the_damaged_cache_is_moved_and_said_as_before(store: Path) -> None:
    _garble(store / CACHE)
    notices = open_checks(store)
    assert any(CACHE in notice and "已移到" in notice for notice in notices)
    assert len(list(store.glob(f"{CACHE}.damaged-*"))) == 1
