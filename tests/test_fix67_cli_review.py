"""Review 349's CLI and 检索测试 defects (fake embedder, real stores; `main([...])` in process, the page in AppTest).
Each test is one of the review's reproductions (/tmp/rev_cli/repro_0N.py) and failed before the fix:

- #1: `ingest --doc-id 13812345678` was kept as doc id [手机号]: a second file under another phone number became a new
  version of the first, unrelated document, with no warning.
- #2: 运行评测 with an unreadable uploaded set named the server's copy under eval_uploads/, not the uploaded file.
- #3: `ask`/`search`/`eval` on a data dir with no document (a mistyped --data-dir) answered 制度里没有写这一条, exit 0.
- #4: `faq add` with a 依据 naming no document said nothing; the 标准答复 page warns that it will never be paused.
- #5: `eval FILE` printed an English table (category, recall@1, literal) where the page says 类别, 第 1 条就对, 原文提问.
- #6: a --data-dir that is a file, or a path through one, was refused as 读写失败（错误码 17/20）.
- #7: an eval row's "answer_should_refuse": "false" (a string) was read as True.
- #8: `ingest .` was refused with a line starting with a bare colon (Path(".").name is "").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from app_support import point_the_app_at
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LEAVE = "# 年假制度\n\n第一条 员工每年享受带薪年假5天。\n"
SHUTTLE = "# 班车制度\n\n第一条 公司每天早上八点从地铁站发一班通勤车。\n"
LITERAL = {"question": "年假有几天？", "category": "literal", "expected": ["年假5天"]}


@pytest.fixture()
def store(monkeypatch, tmp_path: Path) -> Path:
    """The CLI opens the fake-embedder facade on whatever --data-dir names (no model loads); cwd is tmp_path."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    return tmp_path / "store"


def run(capsys, store: Path, *args: str):
    return invoke(capsys, "--data-dir", str(store), *args)


def ingested(capsys, store: Path, tmp_path: Path, name: str = "leave.md", text: str = LEAVE) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    result = run(capsys, store, "ingest", str(tmp_path / name))
    assert result.exit_code == 0, result.stderr


def eval_set(tmp_path: Path, *rows: dict) -> Path:
    path = tmp_path / "set.jsonl"
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def test_doc_id_with_a_phone_number_is_refused_masked_and_nothing_written(capsys, store, tmp_path):
    """#1: two phone-number ids masked alike were one document; the typed id is refused, echoed masked."""
    (tmp_path / "a.md").write_text("# 海豚补贴制度\n\n第一条 海豚补贴每月 77 元。\n", encoding="utf-8")
    result = run(capsys, store, "ingest", str(tmp_path / "a.md"), "--doc-id", "13812345678")
    assert result.exit_code == 1, result.stdout
    assert "文档ID" in result.stderr and "[手机号]" in result.stderr, result.stderr
    assert "13812345678" not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert fake_assistant(store).list_documents() == []


def test_bad_uploaded_eval_set_is_named_by_its_upload_name(tmp_path, monkeypatch):
    """#2: the refusal named <data dir>/eval_uploads/<random>-我的题集.jsonl; the person uploaded 我的题集.jsonl."""
    from streamlit.testing.v1 import AppTest

    import ui.state

    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(SHUTTLE.encode(), "班车制度.md").ok
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()
    at.switch_page("pages/retrieval_test.py").run()
    upload = ("张三13812345678的题集.jsonl", b"\xff\xfe not utf-8", "application/octet-stream")
    at.file_uploader(key="rt_eval_upload").set_value(upload).run()
    next(b for b in at.button if b.label == "运行评测").click().run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(str(e.value) for e in at.error).replace("\\", "")
    assert "评测失败：张三[手机号]的题集.jsonl: 不是 UTF-8 文本" in shown, shown
    assert "eval_uploads" not in shown and str(tmp_path) not in shown and "13812345678" not in shown


def test_query_commands_on_a_data_dir_with_no_document_say_so_and_exit_1(capsys, store, tmp_path):
    """#3: a mistyped --data-dir is a new, empty store: every answer was 制度里没有写这一条 with exit 0."""
    questions = eval_set(tmp_path, LITERAL)
    for command in (["ask", "年假有几天？"], ["search", "年假有几天？"], ["eval", str(questions), "--mode", "bm25"]):
        result = run(capsys, store, *command)
        assert result.exit_code == 1, (command, result.stdout)
        assert "错误：数据目录" in result.stderr and "里还没有任何制度文件" in result.stderr, (command, result.stderr)


def test_faq_add_with_an_unanchored_clause_gives_the_pages_advice(capsys, store, tmp_path):
    """#4: the 标准答复 page warns that such an answer is never held for review; `faq add` said nothing."""
    ingested(capsys, store, tmp_path, "shuttle.md", SHUTTLE)
    advice = "注意：依据「不存在的规定」没有对应到任何文档或条款"
    result = run(capsys, store, "faq", "add", "食堂几点开饭？", "--answer", "中午十二点", "--clause", "不存在的规定")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(advice) and "不会自动暂停" in result.stderr, result.stderr
    assert advice not in result.stdout
    said = run(capsys, store, "faq", "add", "食堂在几楼？", "--answer", "二楼", "--clause", "不存在的规定", "--json").json()
    assert said["advice"].startswith(advice)


def test_eval_table_is_in_the_pages_chinese_words(capsys, store, tmp_path):
    """#5: `eval FILE` printed category / recall@1 / mrr / literal; the 检索测试 page says 类别 / 第 1 条就对 / 原文提问."""
    ingested(capsys, store, tmp_path)
    result = run(capsys, store, "eval", str(eval_set(tmp_path, LITERAL)), "--mode", "bm25")
    assert result.exit_code == 0, result.stderr
    assert "| 类别 |" in result.stdout and "第 1 条就对" in result.stdout and "| 原文提问 |" in result.stdout
    for english in ("category", "literal", "recall@1", "mrr", "zero_hit_rate"):
        assert english not in result.stdout, result.stdout


def test_data_dir_that_is_a_file_is_said_in_chinese(capsys, store, tmp_path):
    """#6: a file as --data-dir, or a path through one, was refused as 读写失败（错误码 17/20）."""
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    for data_dir in ("notes.txt", "notes.txt/store"):
        result = invoke(capsys, "--data-dir", data_dir, "docs", "list")
        assert result.exit_code == 1, (data_dir, result.stdout)
        err = result.stderr.strip()
        assert err.startswith("错误：数据目录 notes.txt") and "文件" in err, err
        assert "错误码" not in err and "Traceback" not in err, err
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "hello"


def test_answer_should_refuse_as_a_string_is_refused_with_its_line(capsys, store, tmp_path):
    """#7: "false" in quotes was bool("false") = True: the row counted as a refusal trap, without a word."""
    ingested(capsys, store, tmp_path)
    near = {"question": "实习生有年假吗？", "category": "near_miss", "expected": [], "answer_should_refuse": "false"}
    questions = eval_set(tmp_path, LITERAL, near)
    result = run(capsys, store, "eval", str(questions), "--mode", "bm25")
    assert result.exit_code == 1, result.stdout
    assert f"{questions}:2: answer_should_refuse 应为 true 或 false" in result.stderr, result.stderr


def test_ingest_dot_refusal_names_the_path(capsys, store, tmp_path):
    """#8: `ingest .` was refused as ": 不是普通文件…", naming nothing (Path(".").name is "")."""
    result = run(capsys, store, "ingest", ".")
    assert result.exit_code == 1, result.stdout
    err = result.stderr.strip()
    assert err.startswith(".: ") and "不是普通文件" in err, err
