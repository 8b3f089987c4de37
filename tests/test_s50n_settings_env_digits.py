"""A variable that does not parse is refused in one short Chinese line, its value cut (s50n review).

RAG_TOP_K set to 1 followed by 5,000 zeros gave a 5,165-character SettingsError quoting the whole value and ending
in Python's English "…value has 5001 digits; use sys.set_int_max_str_digits()…".
"""

from __future__ import annotations

import pytest

from rag_core.errors import SettingsError
from rag_core.settings import Settings


def refusal(monkeypatch: pytest.MonkeyPatch, name: str, raw: str) -> str:
    monkeypatch.setenv(name, raw)
    with pytest.raises(SettingsError) as info:
        Settings.from_env(env_file=None)
    return str(info.value)


def test_a_huge_integer_is_refused_short_and_in_chinese(monkeypatch):
    line = refusal(monkeypatch, "RAG_TOP_K", "1" + "0" * 5000)
    assert len(line) < 120 and "RAG_TOP_K" in line and "数字位数过多" in line, line
    assert "digits" not in line and "sys." not in line and "1" + "0" * 19 + "…" in line, line


@pytest.mark.parametrize(("name", "raw", "reason"), [("RAG_TOP_K", "五", "整数"), ("RAG_MAX_FILE_MB", "x" * 300, "数字")])
def test_a_word_is_refused_in_chinese(monkeypatch, name, raw, reason):
    line = refusal(monkeypatch, name, raw)
    assert name in line and reason in line and "invalid" not in line and "could not" not in line, line
    assert len(line) < 120, line
