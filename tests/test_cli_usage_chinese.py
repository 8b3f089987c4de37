"""An argument type's own Chinese refusal (audit --limit, --since) is said without argparse's English
"argument --limit:" in front of it."""

from __future__ import annotations

import pytest

import rag_core.cli
from rag_core.cli import main


@pytest.mark.parametrize("argv", [["audit", "--limit", "0"], ["audit", "--since", "2020-13-45"]])
def test_an_argument_types_refusal_is_one_chinese_line(argv, monkeypatch, capsys) -> None:
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: pytest.fail("opened the store"))
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"错误：参数 {argv[1]}：") and "argument" not in err, err
