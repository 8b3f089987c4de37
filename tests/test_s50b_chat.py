"""The 问答 page with a damaged conversation store: the answers this session gave stay (fake embedder, AppTest)."""

from __future__ import annotations

import gc
from pathlib import Path

from app_support import open_chat
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LOCAL = Principal(user="local", role="admin")
QUESTION = "出差住宿标准是多少？"




def garble(path: Path) -> None:
    """Overwrite the SQLite header and first pages with noise, as a bad disk would."""
    for side in path.parent.glob(path.name + "-*"):
        side.unlink()
    data = bytearray(path.read_bytes())
    for i in range(min(len(data), 4096)):
        data[i] = (data[i] * 7 + 13) % 256
    path.write_bytes(bytes(data))


def with_damaged_conversations(tmp_path: Path):
    data = tmp_path / "store"
    a = fake_assistant_with_samples(data)
    a.ask(QUESTION, actor=LOCAL, conversation="c1")
    a.memory.close()
    del a
    gc.collect()
    garble(data / "conversations.sqlite3")
    return fake_assistant(data)


def test_an_unsaved_answer_stays_on_the_page_after_a_rerun(tmp_path, monkeypatch) -> None:
    """A damaged conversation store: the answer was shown once, then the next rerun (opening 技术细节, any
    click) redrew the page from the store and it was gone."""
    a = with_damaged_conversations(tmp_path)
    expected = a.ask(QUESTION, actor=LOCAL, conversation="c9").answer.splitlines()[0]
    at = open_chat(a, tmp_path, monkeypatch)
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception, [e.value for e in at.exception]
    assert expected in " ".join(m.value for m in at.markdown)
    at.run()  # what opening an expander or any click does
    assert not at.exception, [e.value for e in at.exception]
    assert expected in " ".join(m.value for m in at.markdown), "the unsaved answer was lost by a rerun"
    assert any("不会保存" in w.value for w in at.warning)
    assert any("没有保存" in c.value for c in at.caption)  # the turn itself says it was not kept
    at.chat_input[0].set_value("年假有几天？").run()  # a second unsaved answer: both stay, each with its own keys
    assert not at.exception, [e.value for e in at.exception]
    at.run()
    asked = [m.value for m in at.markdown]
    assert QUESTION in asked and "年假有几天？" in asked
    assert sum("没有保存" in c.value for c in at.caption) == 2
