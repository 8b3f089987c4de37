"""Review 53i: a standard answer an older version kept with a phone its masker missed (Chinese digits) is listed
and served masked by today's masker."""

from __future__ import annotations

from fakes import fake_assistant_with_samples

RAW = "一三八一二三四五六七八"
QUESTION = "年假怎么申请？"


def test_fix53i_an_old_standard_answer_is_listed_and_served_masked(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "s")
    # the store's own writer, past the facade's masking: as stop 41's masker left the entry
    a.standard_store.add(QUESTION, f"找人事专员，手机：{RAW}", author="hr", created_at="2026-01-01T00:00:00+00:00",
                         clauses=[f"第三条 联系手机：{RAW}"], variants=[f"年假找谁（手机：{RAW}）"])
    entry = a.standard_answers()[0]
    for text in (entry.answer, *entry.clauses, *entry.variants):
        assert RAW not in text and "[手机号]" in text
    trace = a.ask(QUESTION)
    assert trace.standard_answer, trace.answerer
    assert RAW not in trace.answer and "[手机号]" in trace.answer
