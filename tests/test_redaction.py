"""Tests for PII masking: examples per category plus generated documents.

Check digits in the generators are computed here independently of the module
(ID weights as 2^(17-i) mod 11, Luhn as a check-digit computation), so a wrong
table or off-by-one in the module makes these tests fail rather than agree.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

import pytest
from budget import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rag_core.documents.redaction import REDACTION_CATEGORIES, RedactionResult, id_card_valid, luhn_valid, redact
from rag_core.text.digit_runs import ZH_DIGIT_CHARS
from rag_core.text.pii import CONTEXT_WORDS

ID_EXAMPLE = "11010519491231002X"  # the GB 11643-1999 worked example
CARD_EXAMPLE = "4111111111111111"  # the well-known Luhn-valid test card


# ---------------------------------------------------------------- test-side check digits


def id_check_char(body17: str) -> str:
    """MOD 11-2 check char, weights derived as 2^(17-i) mod 11 instead of a table."""
    total = sum(int(c) * pow(2, 17 - i, 11) for i, c in enumerate(body17))
    return "10X98765432"[total % 11]


def luhn_check_digit(body: str) -> str:
    """Digit that makes body+digit Luhn-valid (doubling starts at the rightmost body digit)."""
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def make_id(region: str, born: date, seq: str) -> str:
    body = f"{region}{born:%Y%m%d}{seq}"
    return body + id_check_char(body)


def counts(**nonzero: int) -> dict[str, int]:
    return {key: nonzero.get(key, 0) for key in REDACTION_CATEGORIES}


# ---------------------------------------------------------------- strategies

ids = st.builds(
    make_id,
    st.text(alphabet="0123456789", min_size=5, max_size=5).map(lambda s: "1234567"[int(s[0]) % 7] + s[:5]),
    st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31)),
    st.text(alphabet="0123456789", min_size=3, max_size=3),
)


@st.composite
def cards(draw: st.DrawFn) -> str:
    length = draw(st.integers(16, 19))
    body = draw(st.sampled_from("3456")) + draw(
        st.text(alphabet="0123456789", min_size=length - 2, max_size=length - 2)
    )
    number = body + luhn_check_digit(body)
    # An 18-digit card that is also a valid ID is (rightly) masked as an ID.
    if id_card_valid(number):
        number = number[:-2] + str((int(number[-2]) + 1) % 10) + number[-1]
        number = number[:-1] + luhn_check_digit(number[:-1])
    return number


@st.composite
def formatted_ids(draw: st.DrawFn) -> str:
    number = draw(ids)
    if draw(st.booleans()):
        number = number[:-1] + number[-1].lower()
    if draw(st.booleans()):
        number = f"{number[:6]} {number[6:14]} {number[14:]}"
    return number


@st.composite
def formatted_cards(draw: st.DrawFn) -> str:
    number = draw(cards())
    sep = draw(st.sampled_from(["", " ", "-"]))
    return sep.join(number[i : i + 4] for i in range(0, len(number), 4))


@st.composite
def mobiles(draw: st.DrawFn) -> str:
    number = "1" + draw(st.sampled_from("3456789")) + draw(st.text(alphabet="0123456789", min_size=9, max_size=9))
    sep = draw(st.sampled_from(["", " ", "-"]))
    prefix = draw(st.sampled_from(["", "+86", "+86 ", "+86-", "0086", "0086 "]))
    return prefix + sep.join([number[:3], number[3:7], number[7:]])


@st.composite
def landlines(draw: st.DrawFn) -> str:
    area = "0" + draw(st.sampled_from("123456789")) + draw(st.text(alphabet="0123456789", min_size=1, max_size=2))
    local = draw(st.text(alphabet="0123456789", min_size=7, max_size=8))
    sep = draw(st.sampled_from(["", "-"]))
    ext = draw(st.sampled_from(["", "转801", "-12"]))
    return area + sep + local + ext


emails = st.builds(
    lambda local, domain, tld: f"{local}@{domain}.{tld}",
    st.text(alphabet="abcxyz0123456789._-+", min_size=1, max_size=12),
    st.text(alphabet="abcdefg0123456789", min_size=1, max_size=8),
    st.sampled_from(["com", "cn", "com.cn", "org"]),
)

PII = dict(email=emails, id_card=formatted_ids(), bank_card=formatted_cards(), mobile=mobiles(), landline=landlines())
SAFE_TOKENS = "600 元|1,200.50元|2026-01-01|2026年1月1日|2026|第12条|3.5%|5天|2025-2026年度|10:30|12345678".split("|")
# CJK filler never contains digits, '@', an extension marker (转/分机) or a context word
# (护照, 电话 …: a number right after one is masked on purpose).
cjk = st.text(
    alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5, exclude_characters="转分"),
    min_size=1,
    max_size=6,
).filter(lambda text: not CONTEXT_WORDS.search(text))
segments = st.one_of(
    st.sampled_from(sorted(PII)).flatmap(lambda key: st.tuples(st.just(key), PII[key])),
    st.sampled_from(SAFE_TOKENS).map(lambda token: (None, token)),
)
# Adversarial material: values glued together and to digit/ASCII noise without separators.
noise = st.text(alphabet="0123456789 -+@.Xx()转#abc元年第条，中", max_size=8)
fuzz_text = st.lists(st.one_of(noise, *PII.values()), max_size=8).map("".join)

VALID_ID_RUN = re.compile(r"(?<!\d)\d{17}[\dXx](?!\d)")
DIGIT_RUN = re.compile(r"\d+")


def leftover_secrets(text: str) -> list[str]:
    """Valid IDs and Luhn-valid 16-19 digit runs still present in redacted text (outside the 32+
    character hex ids the app makes, which are held aside by design)."""
    text = re.sub(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[a-f])[0-9a-f]{32,}(?![0-9A-Za-z])", " ", text)
    found = [m.group(0) for m in VALID_ID_RUN.finditer(text) if id_card_valid(m.group(0))]
    found += [m.group(0) for m in DIGIT_RUN.finditer(text) if 16 <= len(m.group(0)) <= 19 and luhn_valid(m.group(0))]
    return found


# ---------------------------------------------------------------- generator sanity


@given(ids)
def test_id_generator_is_accepted_and_any_mutation_rejected(number: str) -> None:
    assert id_card_valid(number)
    assert id_card_valid(number[:-1] + number[-1].lower())
    for wrong in "0123456789X":
        if wrong != number[-1]:
            assert not id_card_valid(number[:-1] + wrong)
    # MOD 11-2 detects every single-digit substitution in the body.
    body = number[:-1]
    for i in (0, 5, 9, 16):
        mutated = body[:i] + str((int(body[i]) + 1) % 10) + body[i + 1 :] + number[-1]
        assert not id_card_valid(mutated)


@given(cards(), st.data())
def test_card_generator_is_luhn_valid_and_single_digit_mutation_breaks_it(number: str, data: st.DataObject) -> None:
    assert luhn_valid(number)
    i = data.draw(st.integers(0, len(number) - 1))
    delta = data.draw(st.integers(1, 9))
    assert not luhn_valid(number[:i] + str((int(number[i]) + delta) % 10) + number[i + 1 :])


def test_validators_on_known_values() -> None:
    assert id_card_valid(ID_EXAMPLE) and id_card_valid(ID_EXAMPLE.lower())
    assert not id_card_valid("110105194912310021")  # check digit should be X
    assert not id_card_valid(ID_EXAMPLE[:-1])  # 17 chars
    assert not id_card_valid("11010519491331" + "0021")  # month 13
    assert not id_card_valid("11010518491231002X")  # year out of range
    assert luhn_valid(CARD_EXAMPLE) and luhn_valid("79927398713")
    assert not luhn_valid("4111111111111112")
    assert not luhn_valid("") and not luhn_valid("4111 1111 1111 1111")


# ---------------------------------------------------------------- examples per category


def test_categories_and_result_shape() -> None:
    assert REDACTION_CATEGORIES == {
        "email": "[邮箱]",
        "id_card": "[身份证号]",
        "bank_card": "[银行卡号]",
        "mobile": "[手机号]",
        "landline": "[座机号]",
        "passport": "[护照号]",
        "travel_permit": "[通行证号]",
        "wechat": "[微信号]",
        "qq": "[QQ号]",
    }
    result = redact("无敏感信息")
    assert result == RedactionResult(text="无敏感信息", counts=counts())
    assert result.total == 0
    assert RedactionResult(text="", counts=counts(email=2, mobile=1)).total == 3


@pytest.mark.parametrize(
    ("raw", "category"),
    [
        ("13812345678", "mobile"),
        ("138 1234 5678", "mobile"),
        ("138-1234-5678", "mobile"),
        ("+86 13812345678", "mobile"),
        ("+86-138-1234-5678", "mobile"),
        ("008613812345678", "mobile"),
        ("１３８１２３４５６７８", "mobile"),  # full-width digits
        ("010-12345678", "landline"),
        ("0755-1234567", "landline"),
        ("02112345678", "landline"),
        ("010-12345678转801", "landline"),
        ("(010)12345678", "landline"),
        (ID_EXAMPLE, "id_card"),
        (ID_EXAMPLE.lower(), "id_card"),
        ("110105 19491231 002X", "id_card"),
        (CARD_EXAMPLE, "bank_card"),
        ("4111 1111 1111 1111", "bank_card"),
        ("4111-1111-1111-1111", "bank_card"),
        ("6011000990139424", "bank_card"),
        ("4111111111111111110", "bank_card"),  # 19 digits, Luhn-valid
        ("hr.team@example.com.cn", "email"),
        ("zhang_san@corp.cn", "email"),
    ],
)
def test_each_category_is_masked_and_counted(raw: str, category: str) -> None:
    result = redact(f"请联系{raw}办理。")
    assert result.text == f"请联系{REDACTION_CATEGORIES[category]}办理。"
    assert result.counts == counts(**{category: 1})
    assert result.total == 1


def test_several_values_are_counted_per_category() -> None:
    text = "张三 13812345678，李四 13987654321，座机 010-12345678，邮箱 a@b.cn。"
    result = redact(text)
    assert result.text == "张三 [手机号]，李四 [手机号]，座机 [座机号]，邮箱 [邮箱]。"
    assert result.counts == counts(mobile=2, landline=1, email=1)


def test_email_inside_chinese_text() -> None:
    result = redact("简历请发送至zhang.san+hr@corp-mail.example.com，邮件标题注明岗位")
    assert result.text == "简历请发送至[邮箱]，邮件标题注明岗位"


def test_a_domain_label_is_ascii_or_chinese_never_both() -> None:
    """Found by the generated-document property: "com一.aa" was read as one domain, leaving "@0.com" behind."""
    assert redact("一0@0.com一.aa@0.com一").text == "一[邮箱]一[邮箱]一"
    assert redact("邮箱：张三@公司.中国").text == "邮箱：[邮箱]"


def test_id_with_invalid_check_digit_is_not_masked_without_context() -> None:
    wrong = "110105194912310021"
    assert not luhn_valid(wrong)  # so no other rule has a reason to take it
    result = redact(f"编号{wrong}")
    assert result.text == f"编号{wrong}"
    assert result.total == 0


def test_id_with_invalid_check_digit_is_masked_after_a_context_word() -> None:
    """A typo in a real file still identifies a person: 身份证号 raises it over the threshold."""
    wrong = "110105194912310021"
    assert redact(f"身份证号{wrong}").text == "身份证号[身份证号]"
    assert redact(f"证件号码：{wrong}").text == "证件号码：[身份证号]"


def test_id_with_impossible_birth_date_is_not_masked() -> None:
    body = "11010519490230002"  # 30 February
    number = body + id_check_char(body)
    assert not luhn_valid(number)
    assert redact(number).text == number


def test_luhn_invalid_16_digits_is_not_masked_without_context() -> None:
    result = redact("编号4111111111111112、4111 1111 1111 1112")
    assert result.text == "编号4111111111111112、4111 1111 1111 1112"
    assert result.total == 0


def test_luhn_invalid_number_after_card_word_is_masked() -> None:
    assert redact("卡号4111111111111112").text == "卡号[银行卡号]"


def test_valid_id_is_not_also_a_bank_card_or_mobile() -> None:
    # Find an ID that is also Luhn-valid, the case where double-masking could happen.
    number = next(n for n in (make_id("440305", date(1990, 6, 15), f"{s:03d}") for s in range(1000)) if luhn_valid(n))
    result = redact(f"员工{number}入职")
    assert result.text == "员工[身份证号]入职"
    assert result.counts == counts(id_card=1)
    # With id_card disabled the number stays as is instead of becoming a "bank card".
    kept = redact(f"员工{number}入职", disabled={"id_card"})
    assert kept.text == f"员工{number}入职"
    assert kept.total == 0


def test_amounts_dates_years_and_articles_are_untouched() -> None:
    text = (
        "根据第12条，自2026-01-01起，交通补贴600 元/月，年终奖按1,200.50元计算；"
        "2025年度考核、2026年1月1日生效，工号12345678，比例3.5%，时间10:30。"
    )
    assert redact(text) == RedactionResult(text=text, counts=counts())


def test_digit_runs_inside_longer_runs_are_not_matched() -> None:
    text = "订单号2138123456789、流水号41111111111111111111、编号0010123456789"
    assert redact(text).text == text


def test_valid_values_at_the_edge_of_a_longer_run_are_not_matched() -> None:
    # A valid ID at the end of a 19-digit run (run itself not Luhn-valid, so not a card).
    number = make_id("440305", date(1990, 6, 15), "123")
    assert number[-1].isdigit()
    run = next(p + number for p in "123456789" if not luhn_valid(p + number))
    # A Luhn-valid 19-digit prefix of a 20-digit run.
    body = CARD_EXAMPLE + "12"
    card_run = body + luhn_check_digit(body) + "7"
    assert luhn_valid(card_run[:19]) and not luhn_valid(card_run)
    text = f"编号{run}，流水{card_run}"
    assert redact(text) == RedactionResult(text=text, counts=counts())


@given(
    st.text(alphabet="0123456789", max_size=6),
    st.one_of(cards(), ids.filter(lambda n: n[-1] != "X"), mobiles().map(lambda m: re.sub(r"\D", "", m)[-11:])),
    st.text(alphabet="0123456789", max_size=6),
)
def test_digit_runs_of_20_or_more_are_never_masked(prefix: str, value: str, suffix: str) -> None:
    run = prefix + value + suffix
    assume(len(run) >= 20)  # longer than any pattern's digit run, so never PII by itself
    assert redact(f"单号{run}。").text == f"单号{run}。"


def test_grouped_card_with_unrelated_tail_group() -> None:
    # 18 grouped digits are not Luhn-valid as a whole, but the first 16 are.
    assert not luhn_valid("411111111111111112")
    assert redact("卡号 4111 1111 1111 1111 12").text == "卡号 [银行卡号] 12"


def test_disabled_category_is_untouched_while_others_are_masked() -> None:
    text = "手机13812345678，邮箱a@b.cn，身份证" + ID_EXAMPLE
    result = redact(text, disabled={"mobile"})
    assert result.text == "手机13812345678，邮箱[邮箱]，身份证[身份证号]"
    assert result.counts == counts(email=1, id_card=1)
    everything_off = redact(text, disabled=frozenset(REDACTION_CATEGORIES))
    assert everything_off.text == text and everything_off.total == 0


def test_disabled_email_is_not_reread_as_phone() -> None:
    text = "发送至13812345678@qq.com或致电13812345678"
    result = redact(text, disabled={"email"})
    assert result.text == "发送至13812345678@qq.com或致电[手机号]"
    assert result.counts == counts(mobile=1)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # Masking the card exposes the ID's right boundary; both must go in one call.
        (ID_EXAMPLE + CARD_EXAMPLE, "[身份证号][银行卡号]"),
        ("13000000000+8613000000000", "[手机号][手机号]"),
        ("１１０１０５１９４９１２３１００２Ｘ", "[身份证号]"),
        ("ｈｒ＠ｅｘａｍｐｌｅ．ｃｏｍ", "[邮箱]"),
    ],
)
def test_adjacent_and_full_width_values(raw: str, expected: str) -> None:
    assert redact(raw).text == expected


def test_an_address_after_a_long_run_of_text_is_masked() -> None:
    """The local part was at most 80 characters from the start of its run: after 90 characters that may
    belong to a local part (Chinese included) an address was missed (found by the generated-document
    property: 2025-2026年度一一一一一一000@0.com inside a longer document)."""
    assert redact("一" * 90 + "000@0.com。").text == "一" * 90 + "[邮箱]。"


def test_unknown_disabled_category_is_rejected() -> None:
    with pytest.raises(ValueError, match="phone"):
        redact("x", disabled={"phone"})


# ---------------------------------------------------------------- properties


@settings(max_examples=examples(300))
@given(fillers=st.lists(cjk, min_size=1, max_size=8), pieces=st.lists(segments, max_size=7))
def test_generated_document_is_masked_exactly(fillers: list[str], pieces: list[tuple[str | None, str]]) -> None:
    raw_parts, expected_parts = [fillers[0]], [fillers[0]]
    for i, (category, value) in enumerate(pieces):
        filler = fillers[(i + 1) % len(fillers)]
        raw_parts += [value, filler]
        expected_parts += [REDACTION_CATEGORIES[category] if category else value, filler]
    result = redact("".join(raw_parts))
    assert result.text == "".join(expected_parts)
    assert result.counts == counts(**Counter(category for category, _ in pieces if category))
    assert leftover_secrets(re.sub(r"[ -]", "", result.text)) == []


@settings(max_examples=examples(300))
@given(fuzz_text)
def test_redact_is_idempotent(text: str) -> None:
    once = redact(text)
    twice = redact(once.text)
    assert twice.text == once.text
    assert twice.total == 0


@settings(max_examples=examples(300))
@given(fuzz_text)
def test_no_valid_card_or_id_run_survives(text: str) -> None:
    assert leftover_secrets(redact(text).text) == []


@given(st.text(alphabet=st.characters(exclude_categories=("Nd",), exclude_characters="@＠" + ZH_DIGIT_CHARS)))
def test_text_without_digits_or_at_sign_is_unchanged(text: str) -> None:
    """Digits written as Chinese characters (零一七三九二五八八四) are digits too: a number read out is masked (stop 50)."""
    assert redact(text) == RedactionResult(text=text, counts=counts())


@given(st.lists(segments, max_size=5), st.sampled_from(sorted(REDACTION_CATEGORIES)))
def test_disabled_category_values_survive(pieces: list[tuple[str | None, str]], off: str) -> None:
    text = "，".join(value for _, value in pieces)
    result = redact(text, disabled={off})
    assert result.counts[off] == 0
    for category, value in pieces:
        if category == off:
            assert value in result.text
