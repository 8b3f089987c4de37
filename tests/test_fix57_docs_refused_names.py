"""Personal data in a refused file name is masked in the report, the estimate, the error and `shown_name`.

A name with nothing left after the path ('13812345678/') was refused with the raw name (IngestError carried it as
typed), and 'zhangsan@corp.com' kept '.com' as a file type, so the address stayed unmasked. Fake embedder.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.documents.parsing import safe_filename
from rag_core.documents.redaction import redact_filename
from rag_core.errors import IngestError

HR = Principal("hr_li", "hr")
RAW = ("13812345678", "110101199003074514", "zhangsan@corp.com", "lisi@corp.com")
NAMES = ["13812345678/", "张三 13812345678/..", "110101199003074514\\", "zhangsan@corp.com/.",
         "zhangsan@corp.com", "李四 lisi@corp.com", "1381234\x005678/"]


@pytest.mark.parametrize("name", NAMES)
def test_a_refused_name_is_shown_masked(tmp_path, name):
    a = fake_assistant(tmp_path / "s")
    report = a.ingest_bytes(b"# x\n\nhello", name, actor=HR)
    estimate = a.estimate_ingest(b"# x\n\nhello", name, actor=HR)
    assert report.status == "refused" and estimate.error
    shown = [report.filename, report.error, estimate.filename, estimate.error, a.shown_name(name)]
    assert not [text for text in shown for raw in RAW if raw in text], shown
    assert not [text for text in shown if "5678" in text], shown  # the number split by a control character too


def test_safe_filename_masks_its_refusals_without_a_mask_given():
    with pytest.raises(IngestError) as caught:
        safe_filename("13812345678/")
    assert "13812345678" not in caught.value.filename and "13812345678" not in str(caught.value)


def test_only_a_supported_extension_is_kept_apart():
    assert redact_filename("zhangsan@corp.com")[0] == "[邮箱]"
    assert redact_filename("张三@corp.md")[0] == "张三@corp.md"  # .md is the file type, not a domain
    assert redact_filename("张三_13812345678.PDF")[0] == "张三_[手机号].PDF"
    assert redact_filename("员工手册.doc")[0] == "员工手册.doc"  # nothing personal: an unsupported type still shows
