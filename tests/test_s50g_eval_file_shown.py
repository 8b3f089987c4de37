"""运行评测 names the question set that actually ran (review s50g 1).

The page kept the text box's value with the outcome, so a set uploaded on the page was captioned
评测文件：tests/data/eval.jsonl, the default it never read. The uploaded name is shown masked, as every
page shows an uploaded name; a question in the per-question table is shown masked too.
"""

from __future__ import annotations

from pathlib import Path

from app_support import point_the_app_at
from fakes import fake_assistant

APP = str(Path(__file__).resolve().parents[1] / "app.py")
POLICY = "# 班车制度\n\n第一条 公司每天早上八点从地铁站发一班通勤车。\n"
QUESTION = '{"question": "公司有班车吗？我的手机13812345678", "category": "literal", "expected": ["通勤车"]}\n'


def eval_ran_on_the_page(tmp_path, monkeypatch, upload: tuple[str, bytes] | None, box: str = ""):
    """An AppTest of 检索测试 on a fake-embedder facade, 运行评测 clicked (with `upload` chosen, if any)."""
    from streamlit.testing.v1 import AppTest

    import ui.state

    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(POLICY.encode(), "班车制度.md").ok
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()
    at.switch_page("pages/retrieval_test.py").run()
    if box:
        at.text_input(key="rt_eval_path").set_value(box)
    if upload is not None:
        at.file_uploader(key="rt_eval_upload").set_value((upload[0], upload[1], "application/octet-stream")).run()
    next(b for b in at.button if b.label == "运行评测").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def captions(at) -> str:
    return "\n".join(str(c.value) for c in at.caption).replace("\\", "")


def test_an_uploaded_set_is_named_by_its_own_masked_name(tmp_path, monkeypatch):
    at = eval_ran_on_the_page(tmp_path, monkeypatch, ("张三13812345678的题集.jsonl", QUESTION.encode()))
    shown = captions(at)
    assert "评测文件：张三[手机号]的题集.jsonl" in shown
    assert "tests/data/eval.jsonl" not in shown and "13812345678" not in shown
    table = at.dataframe[-1].value
    assert "13812345678" not in " ".join(map(str, table["问题"])) and "[手机号]" in " ".join(map(str, table["问题"]))


def test_a_set_named_in_the_box_is_named_by_the_path_that_ran(tmp_path, monkeypatch):
    """A relative name is looked up in the data dir, then the bundled samples: the caption says which."""
    store = tmp_path / "store"
    store.mkdir(parents=True)
    (store / "my_set.jsonl").write_text(QUESTION, encoding="utf-8")
    at = eval_ran_on_the_page(tmp_path, monkeypatch, None, box="my_set.jsonl")
    assert f"评测文件：{(store / 'my_set.jsonl').resolve()}" in captions(at)
