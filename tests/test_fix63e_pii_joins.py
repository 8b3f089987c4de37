"""Review own3 D6: the last round let a · or * join digits only as a mobile's 3-4-4 dots or balanced emphasis and a
spaced @ only after 邮箱/邮件/e-mail, so an ID, a card or a phone after its own word, and an e-mail after 联系方式 or
联系人 with a name between, stayed raw. A · or * joins after a word for that kind of number (within ~15 characters,
no other value between) or when the joined digits pass an ID's or a card's checksum; a spaced @ also after
联系方式/联系人/mail/( with maybe a name between. Dimensions and amounts stay apart."""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact_text

MASKED = [
    ("身份证：110101·19900307·4514", "身份证：[身份证号]"),
    ("身份证号 110101*19900307*4514", "身份证号 [身份证号]"),
    ("110101·19900307·4514", "[身份证号]"),  # the check digit alone says it is one
    ("银行卡：6222·0212·3456·7890·123", "银行卡：[银行卡号]"),
    ("卡号6222*0212*3456*7890", "卡号[银行卡号]"),
    ("手机：138*0013*8000", "手机：[手机号]"),
    ("紧急联系人电话：139·1500·2000", "紧急联系人电话：[手机号]"),
    ("联系方式：zhangsan @ corp.com", "联系方式：[邮箱]"),
    ("联系人：李四 lisi @ hr.example.cn", "联系人：李四 [邮箱]"),
    ("邮箱：张三 zhangsan @ corp.com", "邮箱：张三 [邮箱]"),
    ("张三 (zhangsan @ corp.com) 负责", "张三 ([邮箱]) 负责"),
    ("mail：zhangsan @ corp.com", "mail：[邮箱]"),
    ("有问题请联系 zhangsan @ corp.com", "有问题请联系 [邮箱]"),
    ("13800·138000", "[手机号]"),  # a mobile's digits however the dots group them
]
KEPT = [
    "办公桌规格 180*2000*1200", "标准为 139·1500·2000 元", "1380·0138·000年", "尺寸 150*1500*1200mm", "共 3*4 = 12 人", "第3·5条",
    "请登录 OA @ oa.company.com 提交申请", "zhangsan @ corp.com",
]


@pytest.mark.parametrize(("text", "masked"), MASKED)
def test_a_number_or_an_address_after_its_word_is_joined_and_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert redact_text(masked) == masked


@pytest.mark.parametrize("text", KEPT)
def test_dimensions_amounts_and_a_login_stay(text: str) -> None:
    assert redact_text(text) == text


def test_a_masked_phone_before_is_no_word_for_the_dimensions_after() -> None:
    assert redact_text("联系电话：0571-88888888，办公桌规格 180*2000*1200") == "联系电话：[座机号]，办公桌规格 180*2000*1200"
