"""In-process command-line runs for the tests (what click's CliRunner does for click apps).

`invoke` calls `rag_core.cli.main` in this process and returns its exit code with
the output captured by pytest's `capsys`. Usage errors still raise argparse's
`SystemExit(2)`; tests expect it with `pytest.raises(SystemExit)`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from rag_core.cli import main


@dataclass(frozen=True)
class Result:
    """What one `main([...])` call left: its exit code and its output, decoded."""

    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        """stdout parsed as JSON, after checking the command succeeded."""
        assert self.exit_code == 0, self.stderr
        return json.loads(self.stdout)


def invoke(capsys: pytest.CaptureFixture[str], *argv: str) -> Result:
    """Run `main(argv)` and capture what it printed (output printed before the call is dropped)."""
    capsys.readouterr()
    exit_code = main(list(argv))
    out, err = capsys.readouterr()
    return Result(exit_code, out, err)
