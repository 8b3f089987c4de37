"""doctor against a real `chroma run` (review 52q3 #2): reachable with this store's collections is 正常; a server
restarted on an empty directory lacks them; a stopped one makes `python -m rag_core doctor` exit 1. Slow: it starts
`chroma run` and the CLI in child processes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_fix52q1_server_support import ROOT, running_chroma, team


@pytest.fixture
def chroma(tmp_path):
    yield from running_chroma(tmp_path)


def _server_line(checks):
    return next(c for c in checks if c.file.startswith("Chroma 服务器"))


def test_doctor_finds_the_collections_then_their_loss_then_the_server_down(tmp_path, chroma):
    assistant = team(tmp_path, chroma)
    line = _server_line(assistant.doctor())
    assert line.ok and "可以连接" in line.detail and "条向量" in line.detail, line.line()
    chroma.stop()
    chroma.start(tmp_path / "empty-server")  # same port, no collections
    line = _server_line(assistant.doctor())
    assert not line.ok and "没有这个数据目录的向量集合" in line.detail, line.line()
    chroma.stop()
    env = {**os.environ, "CHROMA_HOST": "127.0.0.1", "CHROMA_PORT": str(chroma.port),
           "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
           "PYTHONPATH": str(ROOT)}  # the working tree's rag_core; cwd is tmp_path, so no .env is read
    done = subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(tmp_path / "store"), "doctor"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"有问题 Chroma 服务器 127.0.0.1:{chroma.port}：连不上" in done.stdout, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
