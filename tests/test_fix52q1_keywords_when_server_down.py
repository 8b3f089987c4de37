"""With the Chroma server (CHROMA_HOST) down or back empty, questions are answered by keywords and say so once.

Review 52q #1: with the server stopped every question failed with httpx's English ConnectError although the
keyword index could answer, and a server that came back empty failed with NotFoundError until a restart.
Each test starts its own `chroma run` on loopback (slow tier).
"""

from __future__ import annotations

import pytest

from rag_core.search.chroma_server import KEYWORDS_ONLY, VECTORS_LOST
from tests.test_fix52q1_server_support import running_chroma, team


@pytest.fixture()
def chroma(tmp_path):
    yield from running_chroma(tmp_path)


def test_with_the_server_down_a_question_is_answered_by_keywords_and_says_so_once(tmp_path, chroma):
    assistant = team(tmp_path, chroma)
    before = assistant.search("年假几天")
    assert before.hits and KEYWORDS_ONLY not in before.warnings
    chroma.stop()

    result = assistant.search("年假几天")
    assert result.warnings.count(KEYWORDS_ONLY) == 1
    assert result.hits and result.hits[0].chunk.doc_id == "nianjia"
    assert result.hits[0].scores.bm25 > 0 and result.answerable > 0
    # a keyword candidate's cosine is still its own, from the local sentence index (float16 rows), not made up
    assert result.hits[0].scores.cosine == pytest.approx(before.hits[0].scores.cosine, abs=1e-3)
    assert assistant.search("宿舍有空调吗").warnings.count(KEYWORDS_ONLY) <= 1

    chroma.start()  # back with its data: used again without a restart
    again = assistant.search("年假几天")
    assert KEYWORDS_ONLY not in again.warnings and again.hits[0].scores.cosine_rank is not None


def test_a_server_that_came_back_empty_is_reopened_at_the_next_call(tmp_path, chroma):
    assistant = team(tmp_path, chroma)
    chroma.stop()
    chroma.start(tmp_path / "empty-server")  # restarted on an empty directory: the old collections are gone

    lost = {KEYWORDS_ONLY, VECTORS_LOST}  # retrieval says KEYWORDS_ONLY for any VectorServerDown today
    first = assistant.search("年假几天")
    assert first.hits and len(lost & set(first.warnings)) == 1
    second = assistant.search("年假几天")  # opened again on the server as it is now, which lost the vectors:
    assert second.hits and len(lost & set(second.warnings)) == 1  # still said (test_fix59_server_vectors_lost)
    assert assistant.delete_document("nianjia") > 0  # writes go to the new collections, no NotFoundError




def test_chat_answers_from_keywords_with_a_standard_answer_on_file_while_the_server_is_down(tmp_path, chroma):
    """The standard answers' wordings live on the server too: down, they are skipped (no standard answer), never
    an English ConnectError in place of the answer; back, the standard answer is served again."""
    assistant = team(tmp_path, chroma)
    assistant.add_standard_answer("宿舍有空调吗？", "宿舍每间都有空调。")
    assert assistant.ask("宿舍有空调吗？", remember=False).answerer == "标准答复"
    chroma.stop()
    down = assistant.ask("年假几天", remember=False)
    assert down.answerer != "标准答复" and down.search.hits and KEYWORDS_ONLY in down.search.warnings
    chroma.start()
    assert assistant.ask("宿舍有空调吗？", remember=False).answerer == "标准答复"


def test_standard_answers_are_added_and_deleted_after_an_outage_and_refused_in_chinese_during_it(tmp_path, chroma):
    """After an outage the wordings' collection is opened again by a write too (it was left None: AttributeError
    until someone asked); during one, a write is one Chinese line (VectorServerDown), never httpx's words."""
    from rag_core.errors import VectorServerDown

    assistant = team(tmp_path, chroma)
    kept = assistant.add_standard_answer("宿舍有空调吗？", "宿舍每间都有空调。")
    chroma.stop()
    assert assistant.ask("宿舍有空调吗？", remember=False).answerer != "标准答复"  # the collection is dropped here
    with pytest.raises(VectorServerDown):
        assistant.add_standard_answer("食堂几点开门？", "早上七点。")
    chroma.start()
    assistant.add_standard_answer("班车几点发车？", "早上八点。")
    assistant.delete_standard_answer(kept.id)
    assert assistant.ask("班车几点发车？", remember=False).answerer == "标准答复"
