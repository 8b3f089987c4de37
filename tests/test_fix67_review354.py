"""Review 354's defects in this stop's fixes (fake embedder, real stores; the CLI in process). Each failed before its
fix unless its docstring says it is a control:

- HTML description lists: a table, headings or a list inside a <dd> were flattened into one line (the table's QQ
  column lost its label and was stored unmasked; articles lost their headings); text in a <dl> outside its <dt>/<dd>
  was dropped; a second <dd> of one term was not read beside its label.
- An id an older store derived unmasked (热线_010_12345678) became a second document on the next upload.
- An answer whose text cites 《考勤制度》第五条 beside a 依据 naming something else was no longer held when that
  article changed or the policy was deleted.
- `search 你好 --json` on an empty library exited 1 while `search 你好` exited 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core import Principal
from rag_core.documents.html_format import html_lines
from rag_core.text.pii import redact_text

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")


def read(html: str) -> list[tuple[str, int | None]]:
    return [(line.text, line.level) for line in html_lines(html)[0] if line.text]


def test_a_table_inside_a_description_keeps_its_column_labels() -> None:
    lines = read("<dl><dt>值班联系人</dt><dd><table><tr><th>姓名</th><th>QQ号</th></tr>"
                 "<tr><td>张三</td><td>12345678</td></tr></table></dd></dl>")
    assert lines == [("值班联系人", None), ("姓名：张三，QQ号：12345678", None)]
    assert "12345678" not in redact_text("\n".join(text for text, _ in lines))


def test_headings_and_lists_inside_a_description_keep_their_lines() -> None:
    lines = read("<dl><dt>值班</dt><dd><h3>第一条 值班安排</h3><p>每天一人。</p><ul><li>甲</li><li>乙</li></ul></dd></dl>")
    assert lines == [("值班", None), ("第一条 值班安排", 3), ("每天一人。", None), ("甲", None), ("乙", None)]


def test_text_in_a_description_list_outside_its_terms_is_kept() -> None:
    assert read("<dl>联系方式如下<p>工作日可用</p><dt>QQ号</dt><dd>12345678</dd><dt>备注</dt></dl>") == [
        ("联系方式如下", None), ("工作日可用", None), ("QQ号：12345678", None), ("备注", None)]


def test_each_description_of_a_term_is_read_beside_it_and_masked() -> None:
    lines = read("<dl><dt>QQ号</dt><dd>12345678</dd><dd>87654321</dd></dl>")
    assert lines == [("QQ号：12345678", None), ("QQ号：87654321", None)]
    masked = redact_text("\n".join(text for text, _ in lines))
    assert "12345678" not in masked and "87654321" not in masked


def test_an_id_an_older_store_derived_unmasked_is_still_that_document(tmp_path: Path) -> None:
    """热线_010_12345678 as an older store derived it (here: the number left unmasked by the uploader's choice): the
    next upload, masked, is its next version, not a second document 热线_010_[座机号] beside it."""
    a = fake_assistant(tmp_path)
    text = "# 热线说明\n\n第一条 热线工作时间为工作日。\n".encode()
    first = a.ingest_bytes(text, "热线 010（12345678）.md", redact_disabled=["landline"], actor=HR)
    assert first.ok and first.doc_id == "热线_010_12345678"
    second = a.ingest_bytes(text + "第二条 周末不值班。\n".encode(), "热线 010（12345678）.md", actor=HR)
    assert second.ok and second.doc_id == first.doc_id and second.version == 2
    assert [d.doc_id for d in a.list_documents(actor=HR)] == [first.doc_id]


@pytest.mark.parametrize("basis", [["人事部2024年第3号通知"], ["《年假制度》第一条"]], ids=["notice", "other-policy"])
@pytest.mark.parametrize("how", ["changed", "deleted"])
def test_an_answer_citing_a_policy_article_in_its_text_is_held_with_it(tmp_path: Path, basis: list[str], how: str) -> None:
    old = "# 考勤制度\n\n第五条 迟到三十分钟以上的，按旷工半天处理。\n\n第六条 早退按迟到处理。\n".encode()
    a = fake_assistant(tmp_path)
    doc = a.ingest_bytes(old, "考勤制度.md", actor=HR)
    assert doc.ok and a.ingest_bytes("# 年假制度\n\n第一条 员工每年享有五天带薪年假。\n".encode(), "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer("上班迟到半小时会怎样", "按《考勤制度》第五条，迟到半小时以上算旷工半天。", clauses=basis,
                                  actor=HR)
    if how == "changed":
        assert a.ingest_bytes(old.replace("三十分钟".encode(), "六十分钟".encode()), "考勤制度.md", actor=HR).version == 2
    else:
        a.delete_document(doc.doc_id, actor=HR)
    assert entry.id in a.standard_answer_holds(actor=HR)


def test_an_answer_citing_another_article_is_not_held_by_this_one(tmp_path: Path) -> None:
    """Control: the text cites 第五条; a change to 第六条 alone leaves the answer served."""
    old = "# 考勤制度\n\n第五条 迟到三十分钟以上的，按旷工半天处理。\n\n第六条 早退按迟到处理。\n".encode()
    a = fake_assistant(tmp_path)
    assert a.ingest_bytes(old, "考勤制度.md", actor=HR).ok
    entry = a.add_standard_answer("上班迟到半小时会怎样", "按《考勤制度》第五条，迟到半小时以上算旷工半天。",
                                  clauses=["人事部2024年第3号通知"], actor=HR)
    assert a.ingest_bytes(old.replace("早退按迟到处理".encode(), "早退按旷工处理".encode()), "考勤制度.md",
                          actor=HR).version == 2
    assert entry.id not in a.standard_answer_holds(actor=HR)


def test_small_talk_searched_as_json_on_an_empty_library_exits_0(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    result = invoke(capsys, "--data-dir", str(tmp_path / "store"), "search", "你好", "--json")
    assert result.exit_code == 0, result.stderr
