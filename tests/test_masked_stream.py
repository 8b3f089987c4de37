"""A streamed model answer is shown masked while it comes, not only once it is stored.

`MaskedStream` holds pieces back until they end between two Chinese characters that are no numerals,
and passes on the masked text up to there. Whatever the split of the model's text into pieces, what was
shown at any moment is a prefix of the masked whole, and at the end it is the masked whole.
"""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_pii_variants import FORMS, survives

from rag_core.answer.masked_stream import LOOKAHEAD, MIN_STEP, MaskedStream, settled_end
from rag_core.text.pii import redact_text

CLAUSE = "根据制度，一线城市住宿每晚上限600元[资料1]。"
# every form the masking knows, inside an answer a model might write (a number copied from a clause or a memory)
ANSWERS = [f"{CLAUSE}如有疑问请联系{text}，工作日九点到十八点都可以。{CLAUSE}" for _, text, _ in FORMS]


def shown_over_time(text: str, cuts: list[int]) -> tuple[list[str], str]:
    """What the screen held after each piece, and at the end, for `text` streamed in pieces cut at `cuts`."""
    screen: list[str] = []
    stream = MaskedStream(screen.append)
    bounds = [0, *sorted({c % (len(text) + 1) for c in cuts}), len(text)]
    moments = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        stream(text[start:end])
        moments.append("".join(screen))
    stream.flush()
    return moments, "".join(screen)


@settings(max_examples=examples(60), deadline=None)
@given(index=st.integers(0, len(ANSWERS) - 1), cuts=st.lists(st.integers(0, 400), max_size=60))
def test_what_is_shown_is_always_a_prefix_of_the_masked_answer(index: int, cuts: list[int]) -> None:
    text, raw = ANSWERS[index], FORMS[index][2]
    masked = redact_text(text)
    assert not survives(raw, masked)
    moments, final = shown_over_time(text, cuts)
    assert all(masked.startswith(moment) for moment in moments)
    assert final == masked


def test_a_phone_number_in_pieces_never_shows_unmasked() -> None:
    text = f"{CLAUSE}联系人电话13812345678，身份证110101199003074514，请在三日内回复。" * 3
    moments, final = shown_over_time(text, list(range(0, len(text), 3)))
    assert not any("1381234" in m or "11010119900307" in m for m in moments)
    assert final == redact_text(text)
    assert moments[len(moments) // 2]  # text was shown while it streamed, not only at the end


def test_masking_needs_what_came_before_and_gets_it() -> None:
    # the landline is masked only after its context word: a piece boundary between them must not lose it
    text = f"{CLAUSE}值班联系电话：\n62345678。{CLAUSE}"
    assert "62345678" not in redact_text(text) and "62345678" in text
    for cut in range(len(text)):
        moments, final = shown_over_time(text, [cut])
        assert not any("62345678" in m for m in moments) and final == redact_text(text)


def test_settled_points_lie_between_two_quiet_characters() -> None:
    after = "，" * LOOKAHEAD  # a point is settled only once this much text came after it
    assert settled_end("电话号码是" + after) == 4
    assert settled_end("电话号码是") == 0
    assert settled_end("电话13812345678" + after) == 1
    assert settled_end("请拨一三八一二三四" + after) == 1  # numerals are not quiet: 拨|一 is no settled point
    assert settled_end("找王经理幺三八" + after) == 3  # 幺 is 1 read aloud
    assert settled_end("abc 123" + after) == 0


def test_no_point_inside_or_before_an_address_written_in_chinese_is_settled() -> None:
    after = "，" * LOOKAHEAD
    assert settled_end("发邮件给王小明@公司.中国" + after) == 0  # not in the domain, nor before the @
    assert settled_end("请联系人事部。发邮件给王小明@公司.中国" + after) == 5  # 事|部, before the full stop


@pytest.mark.parametrize("reply", ["年假为五天[资料1]。如有疑问请发邮件给王小明@公司.中国，谢谢您的来电咨询。",
                                   "年假为五天[资料1]。有事可找王经理一三八二三四五六七幺幺。谢谢您的来电咨询。"])
@pytest.mark.parametrize("step", [1, 2, 3, 5])
def test_addresses_in_chinese_and_phones_with_yao_never_show_unmasked(reply: str, step: int) -> None:
    moments, final = shown_over_time(reply, list(range(0, len(reply), step)))
    assert final == redact_text(reply) and all(final.startswith(m) for m in moments)


def test_a_long_answer_is_masked_a_few_dozen_times_not_once_per_piece(monkeypatch) -> None:
    import rag_core.answer.masked_stream as module

    calls: list[int] = []
    real = module.redact_text
    monkeypatch.setattr(module, "redact_text", lambda text: calls.append(len(text)) or real(text))
    stream = MaskedStream(lambda piece: None)
    text = CLAUSE * 300  # about 8,000 characters, in 2,000 pieces
    for start in range(0, len(text), 4):
        stream(text[start:start + 4])
    stream.flush()
    assert len(calls) < 60 and len(text) // MIN_STEP > 200
    assert stream.shown == redact_text(text)
