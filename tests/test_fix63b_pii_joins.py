"""Review own1 D4, D5: the view joined too much. A spaced @ made an address of 请登录 OA @ oa.company.com and of
9:00-18:00 @ oa.company.com; a * or · between numbers made a mobile of 180*2000*1200 and 139·1500·2000 元. A spaced @
now joins only after an e-mail word (邮箱, Email, 发送至 …) and a local part of two characters or more; a * only as
balanced emphasis (138**0013**8000); a middle dot only in a mobile's 3-4-4 shape, not before a unit."""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact_text

KEPT = [
    "请登录 OA @ oa.company.com 提交申请", "工作日 9:00-18:00 @ oa.company.com", "zhangsan @ corp.com",
    "办公桌规格 180*2000*1200", "尺寸 150*1500*1200mm", "标准为 139·1500·2000 元", "共 3*4 = 12 人", "第3·5条",
]
MASKED = [
    ("邮箱 zhangsan @ corp.com", "邮箱 [邮箱]"),
    ("Email: zhangsan @ corp.com", "Email: [邮箱]"),
    ("简历请发送至 li.si @ example.com", "简历请发送至 [邮箱]"),
    ("手机：**138**0013 8000", "手机：**[手机号]"),
    ("手机：138**0013**8000", "手机：[手机号]"),
    ("手机 138·0013·8000", "手机 [手机号]"),
    ("138・0013・8000", "[手机号]"),
    ("手机 138*0013*8000", "手机 [手机号]"),  # review own3: a * joins after the number's own word
]


@pytest.mark.parametrize("text", KEPT)
def test_policy_content_stays(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize(("text", "masked"), MASKED)
def test_the_form_is_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert redact_text(masked) == masked
