"""The prompt budget's lower bound leaves room for a clause: the guard rules alone take about 440 tokens, so a budget
of 200 (the old bound) made every answer 制度里没有写这一条 with a model configured or not."""

from __future__ import annotations

import pytest
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core import Principal, SettingsError
from rag_core.answer.prompt import RULES, estimate_tokens
from rag_core.settings import LIMITS

LOCAL = Principal(user="local", role="admin")


def test_the_smallest_budget_the_settings_allow_still_answers(tmp_path) -> None:
    low = int(LIMITS["token_budget"][0])
    assert low > estimate_tokens(RULES) + 200
    assistant = fake_assistant_with_samples(tmp_path / "s")
    assistant.update_settings(token_budget=low, actor=LOCAL)
    trace = assistant.ask("年假有几天？", remember=False, actor=LOCAL)
    assert trace.sources and not trace.answer.startswith("制度里没有写这一条"), trace.answer


def test_a_budget_below_the_rules_is_refused(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "s")
    with pytest.raises(SettingsError):
        assistant.update_settings(token_budget=300, actor=LOCAL)
