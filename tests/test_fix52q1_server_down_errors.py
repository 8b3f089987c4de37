"""With the Chroma server (CHROMA_HOST) down, opening, deleting and the CLI say one Chinese line.

Review 52q #2: the app's start showed the client's English ValueError, a delete httpx's ConnectError and
`users add` a traceback. Each test starts its own `chroma run` on loopback (slow tier).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rag_core.errors import VectorServerDown
from tests.fakes import fake_assistant
from tests.test_fix52q1_server_support import DOWN, ROOT, running_chroma, team


@pytest.fixture()
def chroma(tmp_path):
    yield from running_chroma(tmp_path)


def test_delete_with_the_server_down_is_one_chinese_line(tmp_path, chroma):
    assistant = team(tmp_path, chroma)
    chroma.stop()
    with pytest.raises(VectorServerDown) as refused:
        assistant.delete_document("nianjia")
    assert str(refused.value) == DOWN.format(port=chroma.port)


def test_opening_with_the_server_down_starts_and_says_it_in_one_chinese_line(tmp_path, chroma):
    """Stop 63 (review 301): a start with the server down completes and answers by keywords with the notice; it
    refused to start, so a host whose app came up before `chroma run` answered nothing at all."""
    chroma.stop()
    assistant = fake_assistant(tmp_path / "store", chroma_host="127.0.0.1", chroma_port=chroma.port)
    assert any(notice.startswith(DOWN.format(port=chroma.port)) for notice in assistant.store_notices)
    assistant.search("年假几天")  # no VectorServerDown: keywords only


def test_the_cli_with_the_server_down_prints_the_line_without_a_traceback(tmp_path, chroma):
    chroma.stop()
    env = {**os.environ, "CHROMA_HOST": "127.0.0.1", "CHROMA_PORT": str(chroma.port), "HF_HUB_OFFLINE": "1",
           "ANONYMIZED_TELEMETRY": "False"}
    done = subprocess.run(
        [sys.executable, "-m", "rag_core", "--data-dir", str(tmp_path / "store"), "users", "add", "boss",
         "--role", "admin"],
        cwd=ROOT, env=env, input="", capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert DOWN.format(port=chroma.port) in done.stderr
