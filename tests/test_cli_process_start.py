"""`python -m rag_core` opens the assistant with the garbage collector off and freezes what opening built (modules,
models, dictionaries: they live as long as the process), then turns it back on: a warm restart at 10k went from
1.90 s to 1.68 s (bench/warm_restart.py, 8 rounds each). A caller of `main` that goes on running (the tests, a
script) keeps its collector as it was: freezing would keep its garbage for good."""

from __future__ import annotations

import pytest

from rag_core import cli
from rag_core.errors import RagError


class RecordingGc:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def disable(self) -> None:
        self.calls.append("disable")

    def enable(self) -> None:
        self.calls.append("enable")

    def freeze(self) -> None:
        self.calls.append("freeze")


@pytest.fixture()
def gc_calls(monkeypatch) -> RecordingGc:
    recording = RecordingGc()
    monkeypatch.setattr(cli, "gc", recording)
    return recording


def _opening(monkeypatch, seen: list[str], gc_calls: RecordingGc, fails: bool = False) -> None:
    def open_assistant(_args):
        seen.append(",".join(gc_calls.calls))  # what the collector was told before the store opened
        if fails:
            raise RagError("打不开")
        raise SystemExit(0)  # opened: the command itself is not the point here

    monkeypatch.setattr(cli, "open_assistant", open_assistant)


def test_the_process_start_opens_with_the_collector_off_and_freezes_after(monkeypatch, gc_calls, tmp_path):
    seen: list[str] = []
    _opening(monkeypatch, seen, gc_calls)
    with pytest.raises(SystemExit):
        cli.main(["--data-dir", str(tmp_path), "ask", "年假有几天"], process_start=True)
    assert seen == ["disable"] and gc_calls.calls == ["disable", "freeze", "enable"]


def test_a_failed_open_turns_the_collector_back_on(monkeypatch, gc_calls, tmp_path):
    seen: list[str] = []
    _opening(monkeypatch, seen, gc_calls, fails=True)
    assert cli.main(["--data-dir", str(tmp_path), "ask", "年假有几天"], process_start=True) == 1
    assert gc_calls.calls == ["disable", "freeze", "enable"]


def test_another_caller_keeps_its_collector(monkeypatch, gc_calls, tmp_path):
    seen: list[str] = []
    _opening(monkeypatch, seen, gc_calls)
    with pytest.raises(SystemExit):
        cli.main(["--data-dir", str(tmp_path), "ask", "年假有几天"])
    assert gc_calls.calls == []


def test_the_module_entry_point_is_the_process_start():
    from pathlib import Path

    entry = Path(cli.__file__).resolve().parent.parent / "__main__.py"
    assert "main(process_start=True)" in entry.read_text(encoding="utf-8")
