"""One map says why an OS call failed: the CLI's error lines and the facade's refusals agree."""

from __future__ import annotations

import errno

import pytest

from rag_core.cli.output import os_error_text
from rag_core.errors import os_reason


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EIO,
                                  errno.ENAMETOOLONG, errno.ELOOP])
def test_the_cli_says_each_known_failure_by_name_and_with_what_to_do(code):
    said = os_error_text(OSError(code, "English reason", "/a/导出.xlsx"))
    assert said.startswith("/a/导出.xlsx：" + os_reason(OSError(code, "x"))), said
    assert "错误码" not in said and "English" not in said and "请" in said, said


def test_an_unknown_code_is_named_by_its_number():
    assert os_reason(OSError(errno.EBUSY, "Device busy")) == f"读写失败（错误码 {errno.EBUSY}）"
