"""The number of hits asked for is checked against the settings' limit, in the facade and so in the CLI.

`--top-k -1` printed 命中 0 块 and exited 0, 99999999999 was accepted, and 0 silently meant the default.
Fake embedder, real Chroma, SQLite and jieba; the CLI runs in-process on the fake facade.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.errors import RagError
from rag_core.settings import LIMITS
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"


@pytest.mark.parametrize("top_k", [-1, 0, LIMITS["top_k"][1] + 1, 99999999999, 2.5, True])
def test_the_facade_refuses_a_top_k_outside_the_limits(tmp_path, top_k):
    assistant = fake_assistant(tmp_path / "store")
    with pytest.raises(RagError, match="top_k") as refused:
        assistant.search("年假有几天", top_k=top_k, actor=ADMIN)
    assert f"{LIMITS['top_k'][0]:g} 到 {LIMITS['top_k'][1]:g}" in str(refused.value)


def test_a_top_k_inside_the_limits_is_used(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(POLICY.encode(), "休假.md", actor=ADMIN).ok
    assert assistant.search("年假有几天", top_k=1, actor=ADMIN).hit_count <= 1
    assert assistant.search("年假有几天", top_k=int(LIMITS["top_k"][1]), actor=ADMIN) is not None


@pytest.mark.parametrize("top_k", ["-1", "0", "99999999999"])
def test_the_cli_refuses_it_in_one_chinese_line_and_exits_non_zero(tmp_path, capsys, monkeypatch, top_k):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    result = invoke(capsys, "--data-dir", str(tmp_path / "store"), "search", "年假有几天", "--top-k", top_k)
    assert result.exit_code != 0 and result.stdout == ""
    assert result.stderr.startswith("错误：") and result.stderr.count("\n") == 1 and "top_k" in result.stderr
