"""A settings.json the app cannot read is moved aside by a save or a clear, as the start's notice promises (rev51d).

The start says the file is unreadable and promises "在设置页重新保存，原文件会先原样另存为 settings.original-<时间>.json".
A save read the old file to copy it, so over another user's 0600 file it failed with "磁盘已满或没有写权限" although the
data dir is writable, and a clear raised a bare English PermissionError. An unreadable file is now moved aside whole
(a rename needs only the folder's write permission); a clear that cannot move or delete the file is a Chinese
SettingsError. Real SQLite and Chroma, the fake embedder; the permission is simulated by the file's inode, and once
for real (root drops to nobody) in a subprocess.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.errors import SettingsError
from rag_core.settings import SAVED_FILE

ORIGINAL = b'{"top_k": 7}'
ROOT = Path(__file__).resolve().parent.parent


def store_with(tmp_path: Path, data: bytes = ORIGINAL) -> Path:
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_bytes(data)
    return store


def unreadable(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This very file (its inode, wherever it is moved) refuses to be read, as another user's 0600 file does."""
    inode, read, opened = path.stat().st_ino, Path.read_bytes, Path.open

    def refusing(self: Path) -> bytes:
        if self.exists() and self.stat().st_ino == inode:
            raise PermissionError(13, "Permission denied", str(self))
        return read(self)

    def refusing_open(self: Path, mode: str = "r", *args, **kwargs):  # the start reads it bounded, through open
        if "r" in mode and self.exists() and self.stat().st_ino == inode:
            raise PermissionError(13, "Permission denied", str(self))
        return opened(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", refusing)
    monkeypatch.setattr(Path, "open", refusing_open)


def kept_copies(store: Path) -> list[Path]:
    return sorted(store.glob("settings.original-*.json"))


def test_a_save_over_an_unreadable_settings_json_moves_it_aside_and_saves(tmp_path, monkeypatch):
    store = store_with(tmp_path)
    unreadable(store / SAVED_FILE, monkeypatch)
    assistant = fake_assistant(store)
    assert any("原文件会先原样另存为" in notice for notice in assistant.store_notices), assistant.store_notices
    assistant.update_settings(top_k=6)
    monkeypatch.undo()
    [kept] = kept_copies(store)
    assert kept.read_bytes() == ORIGINAL and kept.name in assistant.settings_notice, assistant.settings_notice
    assert json.loads((store / SAVED_FILE).read_bytes()) == {"top_k": 6}
    assert fake_assistant(store).settings.top_k == 6


def test_a_failed_save_over_an_unreadable_file_puts_it_back(tmp_path, monkeypatch):
    """Moved aside, then the new file cannot be put in place: the old file goes back, nothing is left behind."""
    store = store_with(tmp_path)
    unreadable(store / SAVED_FILE, monkeypatch)
    assistant = fake_assistant(store)
    replace = os.replace

    def no_new_file(src, dst):
        if str(src).endswith(".tmp"):
            raise OSError(28, "No space left on device")
        return replace(src, dst)

    monkeypatch.setattr(os, "replace", no_new_file)
    with pytest.raises(SettingsError, match="设置没有保存"):
        assistant.update_settings(top_k=6)
    monkeypatch.undo()
    assert (store / SAVED_FILE).read_bytes() == ORIGINAL and not kept_copies(store)


def test_clearing_an_unreadable_settings_json_moves_it_aside(tmp_path, monkeypatch):
    """Readable at the start (so the page offers the clear), unreadable by the time of the clear."""
    store = store_with(tmp_path)
    assistant = fake_assistant(store)
    assert assistant.saved_settings == {"top_k": 7}
    unreadable(store / SAVED_FILE, monkeypatch)
    assistant.forget_saved_settings()
    monkeypatch.undo()
    [kept] = kept_copies(store)
    assert kept.read_bytes() == ORIGINAL and kept.name in assistant.settings_notice, assistant.settings_notice
    assert not (store / SAVED_FILE).exists() and assistant.saved_settings == {}


def test_a_clear_that_cannot_remove_the_file_is_a_chinese_settings_error(tmp_path, monkeypatch):
    store = store_with(tmp_path)
    assistant = fake_assistant(store)
    unlink = Path.unlink

    def refusing(self: Path, missing_ok: bool = False) -> None:
        if self.name == SAVED_FILE:
            raise PermissionError(13, "Permission denied", str(self))
        return unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refusing)
    with pytest.raises(SettingsError) as refused:
        assistant.forget_saved_settings()
    message = str(refused.value)
    assert "没有清除" in message and "写权限" in message and "Errno" not in message, message
    assert (store / SAVED_FILE).read_bytes() == ORIGINAL and assistant.saved_settings == {"top_k": 7}


SAVE_OVER_UNREADABLE = r'''
import sys
import tempfile
from pathlib import Path
from rag_core.settings import Settings
from rag_core.storage.saved_settings import save_changes, with_saved_changes
d = Path(sys.argv[1]); base = Settings(data_dir=d)
s, notice, _ = with_saved_changes(base)
assert "原文件会先原样另存为" in notice, notice
print(save_changes(s.with_changes(top_k=6), {"top_k"}, base))
'''


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="needs root and setpriv to run as nobody")
def test_a_save_as_another_user_over_a_root_only_file_keeps_it_aside():
    outer = Path(tempfile.mkdtemp(prefix="settings-fix51b-"))  # pytest's tmp_path is root's 0700: nobody cannot enter
    try:
        over_a_root_only_file(outer)
    finally:
        shutil.rmtree(outer, ignore_errors=True)


def over_a_root_only_file(outer: Path) -> None:
    outer.chmod(0o755)
    store = outer / "store"
    store.mkdir()
    os.chown(store, 65534, 65534)
    (store / SAVED_FILE).write_bytes(ORIGINAL)  # root's, mode 0600: nobody cannot read it
    (store / SAVED_FILE).chmod(0o600)
    run = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c",
                          SAVE_OVER_UNREADABLE, str(store)], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-400:]
    [kept] = kept_copies(store)
    assert kept.name == run.stdout.strip() and kept.read_bytes() == ORIGINAL
    assert json.loads((store / SAVED_FILE).read_bytes()) == {"top_k": 6}
