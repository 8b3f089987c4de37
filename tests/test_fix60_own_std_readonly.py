"""A standard-answers file the judgement of its stored answers cannot be written to (rev-own1 #4).

Answers an older version stored are judged by today's basis rule once per file (`insights.standard_checked`). When
the file was read-only (restored with the wrong owner, a read-only mount) the judgement was never recorded, so the
store stayed "due" at every start and served no answer at all: employees got the policy search instead of HR's
answer, with no notice and no hold, while the 标准答复 page listed every answer as active. Now the judgement holds
for the process (the narrower answers held in memory, the sound ones served) and a store notice says it was not
saved, and why."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess

import pytest
from fakes import fake_assistant
from test_fix60_std2_stored_basis import HR, HR_M, LEAVE_Q, QUESTION, SECRET, _old_store, _served

STANDARD = "standard_answers.sqlite3"


@pytest.fixture()
def read_only_standard(monkeypatch: pytest.MonkeyPatch):
    """The standard-answers file opened read-only (SQLite's own SQLITE_READONLY on every write), as a read-only
    mount opens it; every other file as usual."""
    real = sqlite3.connect

    def connect(database, *args, **kwargs):
        if isinstance(database, str) and database.endswith(STANDARD) and "mode=" not in database:
            return real(f"file:{database}?mode=ro", *args, uri=True, **kwargs)
        return real(database, *args, **kwargs)

    return lambda: monkeypatch.setattr(sqlite3, "connect", connect)


def _unsaved(a) -> list[str]:
    return [n for n in a.store_notices if "无法保存" in n and STANDARD in n]


def test_fix60_own_a_read_only_old_store_serves_its_sound_answers_and_says_the_judgement_was_not_saved(
        tmp_path, read_only_standard):
    store, bad, good = _old_store(tmp_path, "quoted")
    read_only_standard()
    for _ in range(2):  # at every start: judged again, for that process
        again = fake_assistant(store)
        assert "五天" in _served(again, LEAVE_Q)  # HR's answer, not the policy search
        assert SECRET not in _served(again, QUESTION)  # the narrower one is held, in memory
        holds = again.standard_answer_holds(actor=HR)
        assert bad.id not in holds and good.id not in holds  # held for a policy HR cannot read: not theirs to see
        assert "《经理奖金制度》只给管理者看" in again.standard_answer_holds(actor=HR_M)[bad.id]
        line = _unsaved(again)
        assert len(line) == 1 and "只读" in line[0], again.store_notices
    db = sqlite3.connect(f"file:{store / STANDARD}?mode=ro", uri=True)
    try:  # nothing was written: the file is as it was
        assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'standard_meta'").fetchall()
    finally:
        db.close()


def test_fix60_own_a_read_only_judged_store_says_nothing(tmp_path, read_only_standard):
    store, bad, _ = _old_store(tmp_path, "quoted")
    fake_assistant(store).standard_answers(actor=HR)  # judged and recorded while writable
    read_only_standard()
    later = fake_assistant(store)
    assert "五天" in _served(later, LEAVE_Q)
    assert bad.id in later.standard_answer_holds(actor=HR_M)
    assert not _unsaved(later)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chattr") is None, reason="needs chattr")
def test_fix60_own_an_immutable_old_store_serves_its_sound_answers(tmp_path):
    """The reviewer's case: the real file made immutable (root ignores a plain chmod)."""
    store, bad, _ = _old_store(tmp_path, "quoted")
    path = store / STANDARD
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("chattr +i not supported here")
    try:
        again = fake_assistant(store)
        assert "五天" in _served(again, LEAVE_Q)
        assert SECRET not in _served(again, QUESTION)
        assert bad.id in again.standard_answer_holds(actor=HR_M)
        assert _unsaved(again), again.store_notices
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
