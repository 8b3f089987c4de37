"""A truncated store another process keeps from being set aside is left at 0 bytes, never opened as new
(review 55d #3).

With the data dir open elsewhere (the app, a CLI command) the start left the 0-byte file in place, said so
once, then opened it and wrote a fresh schema into it: after a restart no notice, doctor said ok, the
conversations were gone. Now that start is refused in Chinese and nothing is written; once it is alone the
file is moved aside as before. A second real process holds the data dir.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from fakes import fake_assistant
from holding_process import HoldingProcess

from rag_core.errors import StoreDamaged
from rag_core.storage.health import doctor

pytestmark = pytest.mark.slow  # another process holds the data dir


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assistant.remember("张三", "我在上海工作")
    assert assistant.conversations is not None  # the store made, with its header
    assistant.release_data_dir()
    del assistant
    gc.collect()
    return data


@pytest.mark.parametrize("name", ["conversations.sqlite3", "memory.sqlite3"])
def test_fix55d_a_truncated_store_held_by_another_process_stays_untouched(store: Path, name: str) -> None:
    (store / name).open("wb").close()
    with HoldingProcess(store):
        with pytest.raises(StoreDamaged) as refused:
            fake_assistant(store)
        line = str(refused.value)
        assert f"{name} 是空的（0 字节）" in line and "另一个进程" in line and "停止应用和其他命令再启动" in line
        assert (store / name).stat().st_size == 0  # nothing written into it
        assert not list(store.glob(f"{name}.damaged-*"))
        assert {c.file: c.status for c in doctor(store)}[name] == "damaged"  # still said, next time too
    alone = fake_assistant(store)  # alone now: kept aside and said, as before
    assert any(f"{name} 是空的（0 字节）" in notice and "已把它移到" in notice for notice in alone.store_notices)
    assert [p.stat().st_size for p in store.glob(f"{name}.damaged-*")] == [0]
    alone.release_data_dir()
