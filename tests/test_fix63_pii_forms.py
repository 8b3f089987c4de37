"""Review 63 (rev-pii D5-D7): forms the masker missed, and masks that destroyed policy content.

D5: a Luhn-invalid 19-digit card after 开户行：农业银行 / 工资发放至 stayed raw (no bank word before it).
D6: 工号 E12345678 and 表单编号 G20261231 became [护照号]; 社保热线 0571-12333 (a public 12xxx line) [座机号];
    请发至人事部@公司.中国 (a department's mailbox) 请发至人[邮箱].
D7: **138**0013 8000 (markdown bold between digits), 138·0013·8000, zhangsan @ corp.com, 回乡证/台胞证 H12345678 and
    mathematical bold digits 𝟏𝟑𝟖… stayed raw."""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact_text

MASKED = [
    ("开户行：农业银行 6228 4804 0256 4890 017", "开户行：农业银行 [银行卡号]"),
    ("工资发放至 6228 4804 0256 4890 017", "工资发放至 [银行卡号]"),
    ("开户银行：6228480402564890017", "开户银行：[银行卡号]"),
    ("手机：**138**0013 8000", "手机：**[手机号]"),
    ("手机：138**0013**8000", "手机：[手机号]"),
    ("手机 138·0013·8000", "手机 [手机号]"),
    ("手机 138__0013__8000", "手机 [手机号]"),
    ("邮箱 zhangsan @ corp.com", "邮箱 [邮箱]"),
    ("回乡证 H12345678", "回乡证 [通行证号]"),
    ("台胞证号码：12345678", "台胞证号码：[通行证号]"),
    ("手机 𝟏𝟑𝟖𝟎𝟎𝟏𝟑𝟖𝟎𝟎𝟎", "手机 [手机号]"),
    ("手机 ١٣٨٠٠١٣٨٠٠٠", "手机 [手机号]"),
    ("护照号 E12345678", "护照号 [护照号]"),  # a passport word still masks what a label otherwise keeps
    ("E12345678", "[护照号]"),
    ("联系人张三@corp.cn", "联系人[邮箱]"),
    ("联系人张三@公司.中国", "联系人[邮箱]"),
    ("座机 0571-87654321", "座机 [座机号]"),
]
KEPT = [
    "工号 E12345678", "表单编号 G20261231", "编号：C12345678",
    "可拨打当地社保热线 0571-12333 咨询", "请拨打 010-12345 市民热线",
    "请发至人事部@公司.中国", "简历请投递至人力资源部@公司.中国",
    "农业银行 2024年第3号公告", "工资发放至每月15日",
    "开户行：农业银行 6228 4804 0256",  # 12 digits: no card
    "年假 5 天 @ 总部", "共 3*4 = 12 人", "第3·5条",
]


@pytest.mark.parametrize(("text", "masked"), MASKED)
def test_the_form_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert redact_text(masked) == masked


@pytest.mark.parametrize("text", KEPT)
def test_policy_content_stays(text: str) -> None:
    assert redact_text(text) == text
