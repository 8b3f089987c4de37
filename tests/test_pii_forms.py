"""The remaining forms of personal data (issue 33) never reach a store, whatever carries them in.

The values are `test_pii_variants.FORMS`: numbers with NBSP, tabs, dashes, U+2011, zero-width
spaces, " - ", "/" or dots inside, and numbers wrapped over two lines. Each surface is read back
through the facade (documents and their chunks, headings and file name; conversation turns, the gap
list and memories; titles; standard answers), and then every file under the data dir is scanned for
each value's digits in order with anything short between them, JSON escapes included.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fakes import fake_assistant
from test_pii_variants import FORMS, survives

from rag_core.types import Principal

HR = Principal("hr_li", "hr")
NUMBERS = [(category, text, raw) for category, text, raw in FORMS if "@" not in raw]
# Between two digits of a stored value: a few bytes that are not digits (a UTF-8 separator, a line
# break) or a JSON escape (\u00a0, \n) — never another digit.
_BETWEEN = rb"(?:\\u[0-9a-fA-F]{4}|\\[nrt]|[^0-9\\]){0,7}"


def leak_pattern(raw: str) -> re.Pattern[bytes]:
    digits = re.sub(r"[^0-9Xx]", "", raw)
    return re.compile(_BETWEEN.join(re.escape(d.encode()) for d in digits))


def leaks_in_data_dir(data_dir: Path) -> list[str]:
    """Every stored value found in any file under the data dir (databases, WAL, Chroma segments)."""
    patterns = [(raw, leak_pattern(raw)) for _, _, raw in NUMBERS]
    found = []
    for path in sorted(data_dir.rglob("*")):
        if path.is_file():
            blob = path.read_bytes()
            found += [f"{path.name}: {raw!r}" for raw, pattern in patterns if pattern.search(blob)]
    return found


def policy() -> str:
    """A policy whose heading, clauses and a table row carry every form."""
    clauses = "\n\n".join(f"第{i + 1}条 {text}，按本办法执行。" for i, (_, text, _) in enumerate(FORMS))
    return f"# 员工通讯录管理办法\n\n## 值班联系人 {FORMS[0][1]}\n\n{clauses}\n"


@pytest.fixture()
def assistant(tmp_path):
    # every question below the answer threshold: each one is a gap, so the gap list carries all of them
    return fake_assistant(tmp_path / "store", answer_threshold=0.99)


def test_a_document_stores_no_form_in_chunks_headings_or_its_name(assistant) -> None:
    name = "通讯录_138\u00a01234\u00a05678_110105–19491231–002X.md"
    report = assistant.ingest_bytes(policy().encode("utf-8"), name)
    assert report.ok, report.error
    (doc,) = assistant.list_documents()
    chunks = assistant.document_chunks(doc.doc_id)
    shown = "\n".join(
        f"{c.chunk_id} {c.doc_id} {c.source} {c.section} {c.title}\n{c.text}" for c in chunks
    ) + f"\n{doc.doc_id} {doc.source} {report.filename}"
    assert [raw for _, _, raw in FORMS if survives(raw, shown)] == []
    assert "[手机号]" in doc.source and "[身份证号]" in doc.source
    assert any("值班联系人 手机：[手机号]" in c.section for c in chunks)
    assistant.memory.close()
    assistant.catalog.close()
    assert leaks_in_data_dir(Path(assistant.settings.data_dir)) == []


def test_questions_store_no_form_in_turns_gaps_memories_or_feedback(assistant) -> None:
    # one conversation per question: a follow-up's rewrite would join two of them past the length cap
    traces = [assistant.ask(f"{text}，这种情况年假怎么算？", user="u1", conversation=f"c{i}") for i, (_, text, _) in
              enumerate(FORMS)]
    assistant.record_feedback(traces[0], -1, "u1", comment=f"不对，我的{FORMS[1][1]}")
    stored = [trace for i in range(len(FORMS)) for trace in assistant.open_conversation(f"c{i}")[1]]
    said = "\n".join(f"{t.question}\n{t.answer}\n{t.prompt}" for t in stored)
    gaps = assistant.knowledge_gaps(actor=HR)
    listed = "\n".join(f"{g.representative}\n" + "\n".join(g.questions) for g in gaps)
    memories = "\n".join(m.content for m in assistant.list_memories("u1"))
    assert len(stored) == len(FORMS) and gaps
    for surface in (said, listed, memories):
        assert [raw for _, _, raw in FORMS if survives(raw, surface)] == [], surface
    for closing in (assistant.memory, assistant.catalog):
        closing.close()
    assert leaks_in_data_dir(Path(assistant.settings.data_dir)) == []


# MemoryStore.add masks before it joins lines with a space: an address wrapped inside its domain is
# still one address when the masker reads it.
@pytest.mark.parametrize(("category", "text", "raw"), FORMS, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(FORMS)])
def test_a_remembered_statement_stores_no_form(assistant, category: str, text: str, raw: str) -> None:
    assistant.remember("u2", f"我的紧急联系方式：{text}")
    assert not survives(raw, " ".join(m.content for m in assistant.list_memories("u2")))


def test_standard_answers_store_no_form(assistant) -> None:
    assistant.add_standard_answer(
        f"{FORMS[0][1]}这个号码能登记为紧急联系人吗？", f"可以，例如{FORMS[20][1]}，再核对{FORMS[30][1]}。",
        variants=[text for _, text, _ in FORMS[1::4]], actor=HR,
    )
    (answer,) = assistant.standard_answers(actor=HR)
    stored = "\n".join([answer.question, answer.answer, *answer.variants])
    assert [raw for _, _, raw in FORMS if survives(raw, stored)] == []


def test_a_renamed_title_stores_no_form(assistant) -> None:
    assistant.ask("年假有几天？", user="u1", conversation="c1")
    leaked = []
    for _, text, raw in NUMBERS:
        assistant.rename_conversation("c1", f"关于{text}的对话")
        (conversation,) = assistant.list_conversations("u1")
        leaked += [raw] if survives(raw, conversation.title) else []
    assert leaked == []


def test_a_refused_files_extension_is_not_echoed_raw(assistant) -> None:
    report = assistant.ingest_bytes("第一条 年假5天。".encode(), "张三简历.13812345678")
    assert not report.ok
    assert "13812345678" not in report.error + report.filename, report.error


def test_a_refusal_for_a_bad_date_does_not_echo_the_raw_file_name(assistant) -> None:
    """The date check ran before the name was masked, so the refusal quoted 张三_13812345678.md (helper-45 14)."""
    report = assistant.ingest_bytes("# 制度\n\n第一条 内容。\n".encode(), "张三_13812345678.md", effective_date="2024-13-45")
    assert not report.ok and "生效日期" in report.error
    assert "13812345678" not in report.error + report.filename
