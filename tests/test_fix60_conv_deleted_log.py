"""Review 60 (rev-conv #3): a question answered while its conversation was deleted stayed in HR's question log for
good (logged with no conversation, so no delete could take it out). It is not logged; and a delete landing after the
turn was stored, before its row was written, takes the row out too."""

from __future__ import annotations

from fakes import fake_assistant_with_samples

from rag_core.facade.conversations import DELETED_MEANWHILE
from rag_core.types import Principal

ME = Principal("u")


def _logged(a, word):
    return [r for r in a.insight_log.question_rows() if word in (r.get("question") or "")]


def test_a_question_answered_while_its_conversation_is_deleted_is_not_logged(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask("年假有几天？", user="u", conversation="c1", actor=ME)
    search = a._search_turn

    def delete_meanwhile(*args, **kwargs):
        a.delete_conversation("c1", actor=ME)
        return search(*args, **kwargs)

    a._search_turn = delete_meanwhile
    trace = a.ask("病假工资怎么算？", user="u", conversation="c1", actor=ME)
    assert trace.answer and DELETED_MEANWHILE in trace.search.warnings
    assert not _logged(a, "病假") and not _logged(a, "年假")


def test_a_delete_between_storing_the_turn_and_logging_it_takes_the_row_out(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask("年假有几天？", user="u", conversation="c1", actor=ME)
    log = a._log_asked

    def delete_then_log(trace, *args, **kwargs):
        a.delete_conversation("c1", actor=ME)
        return log(trace, *args, **kwargs)

    a._log_asked = delete_then_log
    trace = a.ask("病假工资怎么算？", user="u", conversation="c1", actor=ME)
    assert trace.answer and trace.conversation == "c1"
    assert not _logged(a, "病假")


def test_a_question_in_a_conversation_that_stays_is_logged(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask("病假工资怎么算？", user="u", conversation="c1", actor=ME)
    assert len(_logged(a, "病假")) == 1
