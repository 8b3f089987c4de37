"""Progress where HR waits (issue 32): first start, the eval, re-indexing each say what is happening and how far.

The bar logic (ui/progress.py) with a recording bar; the eval's callback on the fake-embedder
facade; the pages through AppTest with the bar recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal
from ui.inert import escape_md
from ui.progress import FileSteps, question_steps

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
ADMIN = Principal("local", "admin")


class Bar:
    """Records what a st.progress bar was told."""

    def __init__(self) -> None:
        self.calls: list[tuple[float, str]] = []

    def progress(self, value: float, text: str = "") -> None:
        self.calls.append((value, text))

    def empty(self) -> None:
        pass


def per_file_steps(step, files: int) -> None:
    """What the engine reports while ingesting `files` files: each file's own stages, each rising."""
    for _ in range(files):
        for stage, fraction in (("解析与切块", 0.05), ("解析与切块", 0.2), ("向量化", 0.4), ("写入索引", 0.9), ("完成", 1.0)):
            step(stage, fraction)


def test_one_bar_spans_all_files_and_names_the_one_at_work() -> None:
    bar = Bar()
    per_file_steps(FileSteps(bar, 3, "正在索引", ["甲.md", "乙.md", "丙.md"]), 3)
    values = [v for v, _ in bar.calls]
    assert values == sorted(values) and values[-1] == 1.0 and values[0] < 1 / 3
    assert any("第 2 / 3 份：乙\\.md" in text and "向量化" in text for _, text in bar.calls)
    assert bar.calls[-1][1].startswith("正在索引（第 3 / 3 份：丙\\.md）")  # escaped for the markdown label


def test_a_file_refused_at_its_first_step_still_moves_the_bar_on() -> None:
    bar = Bar()
    step = FileSteps(bar, 3, "正在索引")
    step("解析与切块", 0.05)  # refused here
    step("解析与切块", 0.05)  # the next file opens the same way
    step("向量化", 0.2 + 0.4)  # 0.6000000000000001
    step("逐句向量化", 0.6)  # the same file: no new file for a rounding step
    assert "第 2 / 3 份" in bar.calls[-1][1] and bar.calls[-1][0] == pytest.approx((1 + 0.6) / 3)


def test_the_eval_bar_counts_questions() -> None:
    bar = Bar()
    step = question_steps(bar)
    for done in range(4):
        step(done, 3)
    assert [v for v, _ in bar.calls] == [0, 1 / 3, 2 / 3, 1]
    assert bar.calls[0][1] == "正在评测：第 1 / 3 题" and "3 题已完成" in bar.calls[-1][1]


def small_eval(folder: Path, n: int = 3) -> Path:
    rows = [{"question": q, "category": "literal", "expected": ["年假"]} for q in ("年假几天", "病假工资", "加班费")[:n]]
    path = folder / "小题集.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return path


def test_the_engine_reports_each_question_of_the_eval(tmp_path: Path) -> None:
    assistant = fake_assistant(tmp_path / "store")
    seen: list[tuple[int, int]] = []
    assistant.run_eval(small_eval(tmp_path), progress=lambda done, total: seen.append((done, total)), actor=ADMIN)
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]


# -- the pages -----------------------------------------------------------------------------
@pytest.fixture()
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str]]:
    """Every value and text drawn on a bar made by ui.progress (the pages import it on every run)."""
    import ui.progress

    calls: list[tuple[float, str]] = []

    class Recording(FileSteps):
        def __call__(self, stage: str, fraction: float) -> None:
            super().__call__(stage, fraction)
            calls.append(self.bar_calls[-1])

        def __init__(self, bar: Any, *args: Any, **kwargs: Any) -> None:
            spy = Bar()
            self.bar_calls = spy.calls
            super().__init__(spy, *args, **kwargs)

    def recording_questions(bar: Any, what: str = "正在评测"):
        spy = Bar()
        inner = question_steps(spy, what)

        def step(done: int, total: int) -> None:
            inner(done, total)
            calls.append(spy.calls[-1])

        return step

    monkeypatch.setattr(ui.progress, "FileSteps", Recording)
    monkeypatch.setattr(ui.progress, "question_steps", recording_questions)
    import ui.state

    monkeypatch.setattr(ui.state, "FileSteps", Recording)
    return calls


def test_first_start_indexes_the_samples_with_a_bar_once(tmp_path, monkeypatch, recorded) -> None:
    import ui.state

    point_the_app_at(tmp_path / "fresh", monkeypatch)
    monkeypatch.setattr(ui.state, "Assistant", lambda settings: fake_assistant(settings.data_dir))
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    names = ui.state.sample_names()
    assert recorded and recorded[-1][0] == 1.0
    assert any(f"第 {len(names)} / {len(names)} 份" in text for _, text in recorded)
    texts = "\n".join(text for _, text in recorded)
    for k, name in enumerate(names, start=1):  # each file named as it is worked on, in order
        assert f"第 {k} / {len(names)} 份：{escape_md(name)}）" in texts, name
    drawn = len(recorded)
    at.run()  # a later run indexes nothing and draws no bar
    assert len(recorded) == drawn


def test_the_eval_on_the_retrieval_page_shows_its_progress(tmp_path, monkeypatch, recorded) -> None:
    import ui.state

    assistant = fake_assistant(tmp_path / "store")
    small_eval(Path(assistant.settings.data_dir))
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    at.switch_page("pages/retrieval_test.py").run()
    at.text_input(key="rt_eval_path").set_value("小题集.jsonl")
    next(b for b in at.button if b.label == "运行评测").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["retrieval_eval_result"]
    assert [text for _, text in recorded][:2] == ["正在逐题检索并回答：第 1 / 3 题", "正在逐题检索并回答：第 2 / 3 题"]
    assert recorded[-1][0] == 1


def test_the_engines_own_file_count_wins() -> None:
    """ensure_samples says which file begins (on_progress); the bar follows it, not its own guess."""
    bar = Bar()
    steps = FileSteps(bar, 2, "正在索引", ["甲.md", "乙.md"])
    steps.file(0, 3, "一.md")
    steps("解析与切块", 0.05)
    steps.file(1, 3, "二.md")
    steps("解析与切块", 0.05)
    steps("完成", 1.0)
    steps.file(2, 3, "三.md")
    steps("解析与切块", 0.05)
    assert "第 3 / 3 份：三\\.md" in bar.calls[-1][1] and bar.calls[-1][0] == pytest.approx((2 + 0.05) / 3)
    steps.file(3, 3, "")
    steps("完成", 1.0)
    assert bar.calls[-1][0] == 1.0


def test_hr_runs_the_eval_in_team_mode(tmp_path, monkeypatch) -> None:
    """The eval file is opened as the person logged in (without actor= team mode said 请先登录)."""
    from app_support import log_in

    import ui.state

    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("wang", "admin", "correct horse")
    assistant.add_user("li", "hr", "correct horse", actor=Principal("wang", "admin"))
    small_eval(Path(assistant.settings.data_dir))
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = log_in(APP, "li", "correct horse")
    at.switch_page("pages/retrieval_test.py").run()
    at.text_input(key="rt_eval_path").set_value("小题集.jsonl")
    next(b for b in at.button if b.label == "运行评测").click().run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert at.session_state["retrieval_eval_result"][2]["metrics"]


def test_reindexing_after_a_settings_change_shows_file_k_of_n(tmp_path, monkeypatch, recorded) -> None:
    import ui.state

    assistant = fake_assistant(tmp_path / "store")
    for name, body in (("甲.md", "第一条 年假五天。"), ("乙.md", "第一条 病假工资八成。"), ("丙.md", "第一条 加班费双倍。")):
        assistant.ingest_bytes(f"# {name}\n\n{body}\n".encode(), name)
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    at.switch_page("pages/settings.py").run()
    next(n for n in at.number_input if n.label == "每段字数").set_value(assistant.settings.chunk_size + 40)
    next(b for b in at.button if b.label == "应用").click().run()
    next(b for b in at.button if b.label == "确认并重新索引").click().run()
    assert not at.exception, [e.value for e in at.exception]
    texts = [text for _, text in recorded]
    for k in (1, 2, 3):
        assert any(text.startswith(f"正在按新设置重新索引（第 {k} / 3 份）") for text in texts), texts
    assert recorded[-1][0] == 1.0


def test_a_long_upload_says_how_fast_it_goes_and_how_long_is_left(tmp_path) -> None:
    """Issue 31 A: the bar counts chunks and sentences, and gives the rate and the time left once measured."""
    from rag_core.search.indexer import throughput_label

    assert throughput_label("向量化", 0, 400, 0.0, "段") == "向量化 0/400 段"
    assert throughput_label("向量化", 100, 400, 10.0, "段") == "向量化 100/400 段 · 每秒 10.0 段 · 本步约剩 30 秒"
    assert throughput_label("逐句向量化", 100, 1300, 10.0, "句").endswith("本步约剩 2 分钟")  # this step's time only, and it says so
    assert throughput_label("向量化", 400, 400, 40.0, "段") == "向量化 400/400 段"
    assistant = fake_assistant(tmp_path / "store")
    labels: list[str] = []
    text = "\n\n".join(f"第{i}条 员工每年可享受带薪年假{i}天。年假须提前申请并经主管批准。" for i in range(1, 40))
    assert assistant.ingest_bytes(text.encode(), "年假.txt", progress=lambda stage, fraction: labels.append(stage)).ok
    assert any(label.startswith("向量化 ") and " 段" in label for label in labels), labels
    assert any(label.startswith("逐句向量化 ") and " 句" in label for label in labels), labels
