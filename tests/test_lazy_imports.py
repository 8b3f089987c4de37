"""What the offline default never uses is never imported: the `openai` package costs a warm restart 0.4-0.6 s."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # spawns a process


def test_the_engine_and_the_cli_do_not_import_openai_until_a_client_is_made() -> None:
    code = ("import sys, rag_core.assistant, rag_core.cli; from rag_core import Settings; "
            "from rag_core.answer.llm import OpenAICompatibleClient, make_llm; "
            "assert make_llm(Settings(llm_api_key='')) is None; assert 'openai' not in sys.modules; "
            "OpenAICompatibleClient(api_key='k', model='m', base_url='http://127.0.0.1:9/v1'); "
            "assert 'openai' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
