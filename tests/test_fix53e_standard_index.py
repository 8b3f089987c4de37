"""A Chroma error while matching standard answers leaves the question answered from the policies, says so once in
Chinese, and the wordings' collection is rebuilt before the next question (review 53 #1): a `faq add` beside a
running app had made every later question in it raise Chroma's English "Nothing found on disk" until a restart."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.insights.standard_search import UNREADABLE
from rag_core.types import Principal

REPO = Path(__file__).resolve().parents[1]
ADMIN = Principal("boss", "admin")
BUS = "# 班车管理办法\n\n## 第三条 通勤\n\n公司不提供班车，通勤补贴每月三百元。\n".encode()
ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。\n".encode()
QUESTION = "公司有班车吗？"
ANSWER = "有，每天早8点从地铁站发车。"


class FailingQueries:
    """The wordings' collection as this process saw it after another wrote to it: counts, but queries fail."""

    def __init__(self, real) -> None:
        self._real = real

    def __getattr__(self, name: str):
        return getattr(self._real, name)

    def query(self, **_: object):
        raise RuntimeError("Error executing plan: Internal error: Error creating hnsw segment reader: "
                           "Nothing found on disk")


def _ask(assistant, question: str = QUESTION):
    return assistant.ask(question, user="", remember=False, actor=ADMIN)


def test_a_failing_wordings_collection_answers_from_the_policies_and_is_rebuilt(tmp_path: Path) -> None:
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(BUS, "bus.md", actor=ADMIN).ok
    assistant.add_standard_answer(QUESTION, ANSWER, actor=ADMIN)
    assert _ask(assistant).answerer == "标准答复"
    store = assistant.standard_store
    store._collection = FailingQueries(store._live())

    failed = _ask(assistant)  # raised Chroma's English error before the fix
    assert failed.answerer != "标准答复" and failed.answer
    assert failed.search.warnings.count(UNREADABLE) == 1
    assert assistant.store_notices.count(UNREADABLE) == 1

    again = _ask(assistant)  # reopened and rebuilt from the table: served again, nothing more said
    assert again.answerer == "标准答复" and again.answer == ANSWER
    assert UNREADABLE not in again.search.warnings


# the "app" is this test's process; the other process adds a standard answer as `faq add` did (fake embedder)
ADDER = f"""
import sys
sys.path[:0] = [{str(REPO / "tests")!r}, {str(REPO)!r}]
from fakes import fake_assistant
fake_assistant(sys.argv[1]).add_standard_answer({QUESTION!r}, {ANSWER!r})
"""


@pytest.mark.slow  # spawns a process
def test_a_standard_answer_added_by_another_process_never_breaks_the_running_app(tmp_path: Path) -> None:
    store = tmp_path / "store"
    app = fake_assistant(store)
    assert app.ingest_bytes(ANNUAL, "annual.md", actor=ADMIN).ok
    assert app.ingest_bytes(BUS, "bus.md", actor=ADMIN).ok
    assert _ask(app, "年假几天").answer
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    subprocess.run([sys.executable, "-c", ADDER, str(store)], check=True, env=env, cwd=tmp_path)

    first = _ask(app)  # raised InternalError "Nothing found on disk" before the fix, and so did every later one
    assert first.answer and UNREADABLE in first.search.warnings
    assert _ask(app, "年假几天").answer
    served = _ask(app)
    assert served.answerer == "标准答复" and served.answer == ANSWER


class FailingWrites(FailingQueries):
    """The collection as this process saw it after another wrote to it: writes fail too."""

    def upsert(self, **_: object):
        raise RuntimeError("Error executing plan: Internal error: Error creating hnsw segment reader: "
                           "Nothing found on disk")


def test_adding_a_standard_answer_on_a_collection_changed_elsewhere_rebuilds_it_and_adds(tmp_path: Path) -> None:
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(BUS, "bus.md", actor=ADMIN).ok
    store = assistant.standard_store
    store._collection = FailingWrites(store._live())
    assistant.add_standard_answer(QUESTION, ANSWER, actor=ADMIN)  # raised Chroma's English error before
    assert _ask(assistant).answer == ANSWER
