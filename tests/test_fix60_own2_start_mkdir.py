"""A data dir that cannot be created is said in Chinese at start, as a full disk is (review 251 D2): the app showed
助手启动失败：[Errno 13] Permission denied. Root ignores permissions, so the refusal is raised by a stand-in mkdir."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.errors import StoreUnavailable


def test_a_data_dir_that_cannot_be_made_is_one_chinese_line(tmp_path, monkeypatch):
    target = tmp_path / "locked" / "data"
    real = Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self == target:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    with pytest.raises(StoreUnavailable, match="没有读写权限") as refused:
        fake_assistant(target)
    assert "Errno" not in str(refused.value) and "Permission" not in str(refused.value), refused.value
