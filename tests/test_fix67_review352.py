"""Review 352's defects in this stop's fixes (fake embedder, real stores; the documents page in AppTest with the
uploader stubbed, the CLI in process). Each test is one of the review's reproductions (/tmp/rev_r352/repro_0N.py)
and failed before the fix, unless its docstring says it is a control:

- #1: answers stored before `basis` counted the answer's own text were never judged again (BASIS_RULE not bumped):
  a 全体员工 answer copying a managers-only clause was still served to employees after the upgrade.
- #2: a 是新版本 import cut short (取消导入, the page left) wiped the batch's report and its other 是新版本 questions.
- #3: an unanswered 是新版本 question outlived the next batch, and its 确认导入 overwrote a report of the new batch.
- #4: the advice after adding a standard answer echoed the 依据 lines unmasked (pages and `faq add --json`).
- #5, #6 (regressions of review 348's fix): an answer whose text says 根据第五条 or 根据《考勤与休假管理制度》 beside
  a 依据 naming 《考勤与休假管理制度》第五条 was held by another policy's 第五条 or by any article of that policy.
- #7: the 版本历史 called a title-only new version 内容与上一版相同.
- #8: `ask` answered by a standard answer on a data dir with no policy file exited 1 with 错误.
- #9: an id derived from a file name (热线 010（12345678）.md -> 热线_010_12345678) carried an unmasked number, and
  the page's own 是新版本 for it was refused as personal data.
"""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import docx as pydocx
import pytest
import streamlit
from cli_support import invoke
from fakes import fake_assistant, fake_assistant_with_samples
from test_upload_fixes_support import facade, page, policy, submit, text_of  # noqa: F401 (fixture)

import rag_core.cli as cli
import ui.uploads
from rag_core import Principal
from rag_core.text.pii import redact_text

ROOT = Path(__file__).resolve().parents[1]
ADMIN, HR, EMP = Principal("wang", "admin"), Principal("li", "hr"), Principal("zhang", "employee")
HR_M = Principal("mei", "hr", ("managers",))
LATE = "迟到多久算旷工？"
ATTENDANCE_5 = ["《考勤与休假管理制度》第五条"]


def outcome(a, question: str) -> tuple[str, str]:
    """What an employee gets for `question`: the trace's outcome and answer."""
    trace = a.ask(question, user="", remember=False, actor=EMP)
    return trace.outcome, trace.answer or ""


# -- #1: answers stored under the previous rule are judged again -------------------------------------------------

def test_an_answer_stored_under_the_previous_basis_rule_is_judged_again(tmp_path):
    """#1 (repro_01): a 全体员工 answer whose 依据 is a bare 第一条 and whose text copies a managers-only clause, as
    the previous release stored it (written below the facade; the store's rule record set to rests_on-2). At the
    next start it is judged again: held, and employees are not served the managers' figure."""
    store = tmp_path / "store"
    a = fake_assistant_with_samples(store)
    managers = "# 管理人员通讯补贴规定\n\n第一条 部门经理每月享有通讯补贴八百元，随工资发放。\n\n第二条 补贴标准每年复核一次。\n"
    assert a.ingest_bytes(managers.encode(), "mgr_phone.md", audience=["managers"], actor=HR_M).ok
    entry = a.standard_store.add("经理的通讯补贴是多少？", "部门经理每月享有通讯补贴八百元，随工资发放。", author="mei",
                                 created_at="2026-11-01T00:00:00+00:00", clauses=["第一条"])  # no check: the old release
    db = sqlite3.connect(str(store / "standard_answers.sqlite3"))
    db.execute("INSERT OR REPLACE INTO standard_meta (key, value) VALUES ('basis_rule', 'rests_on-2')")
    db.commit()
    db.close()
    again = fake_assistant(store)
    said, answer = outcome(again, "经理的通讯补贴是多少？")
    assert not (said == "standard" and "八百元" in answer), (said, answer)
    assert entry.id in again.standard_answer_holds(actor=HR_M)


# -- #5, #6: the answer's text beside a 依据 counts for what it quotes only ----------------------------------------

def changed_sample(name: str, old: str, new: str) -> bytes:
    source = (ROOT / "data/samples" / name).read_text(encoding="utf-8")
    changed = source.replace(old, new, 1)
    assert changed != source
    return changed.encode()


OVERTIME_5 = ("02_overtime.md", "2个工作日内补交申请", "3个工作日内补交申请")  # 加班管理办法 第五条 事后补批
WEDDING_11 = ("01_attendance_leave.md", "法定婚假3天", "法定婚假5天")  # 考勤与休假管理制度 第十一条 婚假


@pytest.mark.parametrize(("answer", "change"), [
    ("根据第五条：迟到或早退超过30分钟的，按旷工半天处理。", OVERTIME_5),
    ("根据《考勤与休假管理制度》，迟到半小时以上就算旷工半天。", WEDDING_11),
], ids=["bare-article-other-policy", "named-policy-other-article"])
def test_an_answer_citing_its_basis_in_its_text_is_not_held_by_unrelated_changes(tmp_path, answer, change):
    """#5 (repro_02) and #6 (repro_03): the 依据 pins 《考勤与休假管理制度》第五条; the text's 根据第五条 is not read
    as any policy's 第五条 (加班管理办法's changes), nor its 根据《考勤与休假管理制度》 as the whole policy (婚假
    changes). The answer stays in use."""
    a = fake_assistant_with_samples(tmp_path / "store")
    entry = a.add_standard_answer(LATE, answer, clauses=ATTENDANCE_5, actor=HR)
    assert outcome(a, LATE)[0] == "standard"
    name, old, new = change
    report = a.ingest_bytes(changed_sample(name, old, new), name, actor=HR)
    assert report.ok and report.version == 2, report
    assert entry.id not in a.standard_answer_holds(actor=ADMIN), report.warnings
    assert outcome(a, LATE)[0] == "standard"


@pytest.mark.parametrize(("copied", "change"), [
    ("员工应在加班结束后2个工作日内补交申请，逾期不再受理。", OVERTIME_5),
    ("可以享受法定婚假3天，另加公司奖励婚假7天，共计10天。", WEDDING_11),
], ids=["copied-from-other-policy", "copied-other-article"])
def test_an_answer_whose_text_copies_a_clause_is_held_when_that_clause_changes(tmp_path, copied, change):
    """Control for #5/#6 (passes before the fix too): beside the same 依据, a text that copies another clause word
    for word still rests on it (`standard_versions.quoting`): that clause's change holds the answer."""
    a = fake_assistant_with_samples(tmp_path / "store")
    entry = a.add_standard_answer(LATE, f"迟到或早退超过30分钟的，按旷工半天处理。另：{copied}", clauses=ATTENDANCE_5,
                                  actor=HR)
    name, old, new = change
    assert a.ingest_bytes(changed_sample(name, old, new), name, actor=HR).ok
    assert entry.id in a.standard_answer_holds(actor=ADMIN)
    assert outcome(a, LATE)[0] != "standard"


# -- #4: the advice echoes 依据 lines masked ----------------------------------------------------------------------

PHONE = "13812345678"
LOOSE_BASIS = f"报销问题请联系财务张三{PHONE}"


def test_the_advice_after_adding_an_answer_echoes_its_basis_masked(tmp_path, monkeypatch, capsys):
    """#4 (repro_09): a 依据 line with a phone number is stored masked; the pages' notice (the facade's
    `standard_answer_advice`, called with the typed lines) and `faq add --json`'s advice echo it masked too."""
    a = fake_assistant(tmp_path / "page_store")
    entry = a.add_standard_answer("报销找谁？", "找财务部。", clauses=[LOOSE_BASIS], actor=HR)
    assert PHONE not in "".join(entry.clauses)
    advice = a.standard_answer_advice([LOOSE_BASIS], entry.answer, actor=HR)
    assert PHONE not in advice and redact_text(LOOSE_BASIS) in advice, advice
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    result = invoke(capsys, "--data-dir", str(tmp_path / "cli_store"), "faq", "add", "报销找谁？", "--answer",
                    "找财务部。", "--clause", LOOSE_BASIS, "--json")
    shown = result.json()
    assert shown.get("advice") and PHONE not in shown["advice"], shown
    assert PHONE not in result.stdout + result.stderr


# -- #8: ask answered by a standard answer on an empty library ----------------------------------------------------

def test_ask_answered_by_a_standard_answer_on_an_empty_library_exits_0(tmp_path, monkeypatch, capsys):
    """#8 (repro_07): `faq add` then `ask` the same question on a data dir with no policy file: the answer is
    printed and the command succeeds; 零命中 is no error here."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    store = str(tmp_path / "store")
    added = invoke(capsys, "--data-dir", store, "faq", "add", "公司有班车吗？", "--answer", "有，每天早上八点从地铁站发车。")
    assert added.exit_code == 0, added.stderr
    asked = invoke(capsys, "--data-dir", store, "ask", "公司有班车吗？")
    assert "八点从地铁站发车" in asked.stdout, asked
    assert asked.exit_code == 0 and "零命中" not in asked.stderr, asked


# -- #9: an id derived from a file name is masked -----------------------------------------------------------------

def test_an_id_derived_from_a_file_name_is_masked_and_takes_a_new_version(tmp_path):
    """#9 (repro_06): 热线 010（12345678）.md passes as a name, but its id joined the digits into a 座机号: the id is
    masked as it is derived, and the clash question's 是新版本 (the same file with that id given) imports v2."""
    a = fake_assistant(tmp_path / "store")
    body = "# 服务热线管理规定\n\n第一条 员工咨询薪资问题请拨打服务热线。\n\n第二条 热线工作时间为工作日九点至十八点。\n"
    first = a.ingest_bytes(body.encode(), "热线 010（12345678）.md", actor=HR)
    assert first.ok, first.error
    assert "12345678" not in first.doc_id and redact_text(first.doc_id) == first.doc_id, first.doc_id
    newer = (body + "第三条 节假日另行通知。\n").encode()
    clash = a.ingest_bytes(newer, "热线 010（12345678）.txt", actor=HR)
    assert not clash.ok and clash.conflict_doc_id == first.doc_id, clash
    again = a.ingest_bytes(newer, "热线 010（12345678）.txt", doc_id=clash.conflict_doc_id, actor=HR)  # 是新版本
    assert again.ok, again.error
    assert [(d.doc_id, d.version) for d in a.list_documents(actor=HR)] == [(first.doc_id, 2)]


# -- the documents page: #2, #3, #7 ---------------------------------------------------------------------------------

def reported(at) -> list[str]:
    """The files the 本次导入 table lists."""
    return [f for df in at.dataframe if "结果" in df.value.columns for f in df.value["文件"]]


def asked_new_version(at) -> list[str]:
    return [b.label for b in at.button if b.label.startswith("是新版本")]


def test_a_new_version_import_cut_short_keeps_the_batch_report(facade, monkeypatch):  # noqa: F811
    """#2 (repro_04): of three files, one imported and two refused as id clashes; 是新版本 on one, and its import is
    cut short (the run stops at the bar's first update, as 取消导入 or leaving the page makes it). The batch's
    report and the other file's 是新版本 question are still there."""
    assert facade.ingest_bytes(policy(2, "手册"), "员工手册 v2.md").ok
    assert facade.ingest_bytes(policy(2, "培训"), "培训办法 v1.md").ok
    at = submit(page(), [("年假制度.md", policy(2, "年假")), ("员工手册(v2).md", policy(2, "新手册")),
                         ("培训办法(v1).md", policy(2, "新培训"))])
    at.run()
    assert "年假制度.md" in reported(at), text_of(at)
    assert len(asked_new_version(at)) == 2, asked_new_version(at)
    real = ui.uploads.ingest_uploads

    def cut_short(*args, **kwargs):
        kwargs["progress"]("解析与切块", 0.05)
        streamlit.rerun()

    monkeypatch.setattr(ui.uploads, "ingest_uploads", cut_short)
    next(b for b in at.button if b.label.startswith("是新版本")).click().run()
    monkeypatch.setattr(ui.uploads, "ingest_uploads", real)
    assert not at.exception, [e.value for e in at.exception]
    assert "年假制度.md" in reported(at), text_of(at)
    assert any("培训办法" in label for label in asked_new_version(at)), asked_new_version(at)


def test_a_new_batch_drops_an_unanswered_new_version_question(facade):  # noqa: F811
    """#3 (repro_05): 是新版本 on 高管津贴.txt asks first (it widens the readers) and HR uploads another batch
    instead of answering. The old 确认导入 is gone, and the new batch's report is left as it is."""
    assert facade.ingest_bytes(policy(2, "津贴"), "高管津贴.md", audience=["hr"]).ok
    at = submit(page(), [("年假制度.md", policy(2, "年假")), ("高管津贴.txt", policy(3, "津贴"))])
    at.run()
    next(b for b in at.button if b.label.startswith("是新版本")).click().run()
    assert any(b.label == "确认导入" for b in at.button), text_of(at)
    submit(at, [("考勤制度.md", policy(2, "考勤")), ("报销制度.md", policy(2, "报销"))])
    assert reported(at) == ["考勤制度.md", "报销制度.md"], reported(at)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any(b.label == "确认导入" for b in at.button), text_of(at)
    assert reported(at) == ["考勤制度.md", "报销制度.md"], reported(at)
    assert [d.version for d in facade.list_documents() if d.doc_id == "高管津贴"] == [1]


def word(title: str) -> bytes:
    doc = pydocx.Document()
    doc.core_properties.title = title
    doc.add_paragraph("第一条 员工每年享有带薪年假五天，须提前三天申请。")
    doc.add_paragraph("第二条 未休年假按日工资补偿。")
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_the_version_history_names_a_title_only_change(facade):  # noqa: F811
    """#7 (repro_08): Word's 标题 corrected from 2023版 to 2024版, the text unchanged, makes v2; its history row says
    the title changed, not 内容与上一版相同."""
    assert facade.ingest_bytes(word("年假制度（2023版）"), "年假制度.docx", actor=HR).ok
    again = facade.ingest_bytes(word("年假制度（2024版）"), "年假制度.docx", actor=HR)
    assert again.ok and again.version == 2, again
    at = page()
    frames = [df.value for df in at.dataframe if "与上一版相比" in df.value.columns]
    assert frames, text_of(at)
    said = frames[0].set_index("版本").loc["v2（当前）", "与上一版相比"]
    assert "年假制度（2023版）" in said and "年假制度（2024版）" in said and "标题" in said, said
    assert "相同" not in said, said

