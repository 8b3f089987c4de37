"""An error line of the command line may echo what was typed; it is masked like the audit row of the same call
(review 214: 错误：没有文档 张伟13812345678)."""

from __future__ import annotations

import pytest

from rag_core import cli
from rag_core.cli.output import say


def test_an_error_line_is_masked_and_an_output_line_is_left_as_it_is(capsys):
    say("错误：没有文档 张伟13812345678", err=True)
    say("第 1 条 13812345678")  # what a command prints on purpose is masked where it comes from
    out = capsys.readouterr()
    assert out.err.strip() == "错误：没有文档 张伟[手机号]" and "13812345678" in out.out


@pytest.mark.slow  # the command line opens the store with the real model
def test_a_refusal_that_echoes_a_typed_id_masks_the_personal_data(tmp_path, capsys):
    data = str(tmp_path / "store")
    assert cli.main(["--data-dir", data, "docs", "delete", "张伟13812345678"]) == 1
    assert cli.main(["--data-dir", data, "memory", "delete", "13812345678"]) == 1
    err = capsys.readouterr().err
    assert "13812345678" not in err and err.count("[手机号]") == 2, err
