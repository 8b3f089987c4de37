"""The chunk-cap lower bounds count a table row at most one chunk: chunking never splits a row (`chunk_table`).

A 700-question FAQ (编号,问题,答复 with 800-character answers, 1.7 MB) makes 700 chunks, under the 2,000 cap, but
both bounds counted every character over chunk_size and refused it at "至少 2,303 块" (the pre-parse `text_bound`)
and 2,471 (`bounds.min_chunks` on the parsed sections). Each must stay at or below the real chunk count: checked on
every text file in the repository and on random documents mixing headings, captions, prose and long table rows.
"""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import pytest

from rag_core.documents.bounds import min_chunks
from rag_core.documents.chunking import chunk_document
from rag_core.documents.parsing import parse_bytes
from rag_core.documents.prepare import prepare
from rag_core.documents.text_bound import text_min_chunks
from rag_core.errors import IngestError
from rag_core.settings import Settings

WORDS = "员工 年假 病假 工资 加班 绩效 考勤 报销 差旅 审批 主管 人力资源部 公司 规定 按照 执行 申请 提交 材料".split()


def _para(rng: random.Random, n: int) -> str:
    out = ""
    while len(out) < n:
        out += "".join(rng.choice(WORDS) for _ in range(8)) + "。"
    return out[:n]


def _faq(kind: str, rows: int = 700, answer: int = 800) -> bytes:
    rng = random.Random(1)
    if kind == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf)
        writer.writerow(["编号", "问题", "答复"])
        for i in range(rows):
            writer.writerow([f"Q{i + 1:04d}", _para(rng, 30) + "？", _para(rng, answer)])
        return buf.getvalue().encode()
    body = "".join(f"| Q{i} | {_para(rng, 30)}？ | {_para(rng, answer)} |\n" for i in range(rows))
    return ("# 人事问答汇编\n\n| 编号 | 问题 | 答复 |\n|---|---|---|\n" + body).encode()


def _real(parsed, size: int) -> int:
    return len(chunk_document(parsed, size, Settings().chunk_overlap))


@pytest.mark.parametrize("kind", ["csv", "md"])
def test_a_faq_with_long_answers_under_the_cap_is_accepted(kind):
    # 70 questions under a cap of 200: the review's 700 under 2,000 at a tenth of the parsing and masking work
    data, name = _faq(kind, rows=70), f"faq.{kind}"
    settings = Settings(max_chunks_per_file=200)
    parsed = parse_bytes(data, name, max_bytes=settings.max_file_bytes)
    real = _real(parsed, settings.chunk_size)
    assert real == 70
    assert text_min_chunks(data, name, settings.chunk_size, 0) <= real
    assert min_chunks(parsed.sections, settings.chunk_size) <= real
    assert len(prepare(data, name, settings).chunks) == 70  # was refused: 文件切分后有至少 2,303 块 (of 700)


def test_a_faq_over_the_cap_is_still_refused_before_it_is_parsed(monkeypatch):
    from rag_core.documents import prepare as prepare_module

    monkeypatch.setattr(prepare_module, "parse_bytes", lambda *a, **k: pytest.fail("parsed a refused file"))
    with pytest.raises(IngestError, match=r"至少 [\d,]+ 块，超过每个文件 2,000 块的上限"):
        prepare(_faq("csv", rows=4_500, answer=300), "faq.csv", Settings())


def test_both_bounds_stay_at_or_below_the_real_count_for_every_text_file_in_the_repository():
    root = Path(__file__).resolve().parents[1]
    files = [p for p in root.rglob("*") if p.suffix in (".md", ".txt", ".csv") and ".venv" not in p.parts
             and p.is_file()]
    checked = 0
    for path in files:
        data = path.read_bytes()
        try:
            parsed = parse_bytes(data, path.name, max_bytes=50 << 20)
        except IngestError:
            continue
        for size in (60, 240):
            real = _real(parsed, size)
            assert text_min_chunks(data, path.name, size, 0) <= real, (path, size)
            assert min_chunks(parsed.sections, size) <= real, (path, size)
        checked += 1
    assert checked > 20


def _document(rng: random.Random) -> tuple[str, str]:
    """Headings, captions, prose and tables (short and long rows, group rows, empty cells) in random order."""
    markdown = rng.random() < 0.6
    parts: list[str] = []
    for _ in range(rng.randint(1, 4)):
        if markdown:
            parts += [f"{'#' * rng.randint(1, 3)} 第{rng.randint(1, 9)}章 {_para(rng, rng.randint(2, 20))}"
                      for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.5:
            parts.append(rng.choice(["各城市住宿标准如下：", "表 2 薪资等级", "说明"]))
        if markdown and rng.random() < 0.4:
            parts.append(_para(rng, rng.randint(5, 500)))
        columns = rng.randint(1, 4)
        rows = []
        for _ in range(rng.randint(1, 12)):
            cells = [_para(rng, rng.choice([0, 2, 10, 60, 250, 700])) for _ in range(columns)]
            cells = [cells[0]] * columns if rng.random() < 0.1 else cells
            rows.append(cells)
        header = [f"列{j}" for j in range(columns)]
        if markdown:
            parts += ["|" + "|".join(header) + "|", "|" + "---|" * columns]
            parts += ["|" + "|".join(row) + "|" for row in rows]
            parts.append("")
        else:
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerows([header, *rows, []])
            parts.append(buf.getvalue())
    return "\n".join(parts), "doc.md" if markdown else "doc.csv"


def test_random_documents_with_long_rows_never_bound_above_the_real_count():
    rng = random.Random(604)
    checked = 0
    for _ in range(250):
        text, name = _document(rng)
        data = text.encode()
        try:
            parsed = parse_bytes(data, name, max_bytes=1 << 20)
        except IngestError:
            continue
        for size in (40, 240):
            real = _real(parsed, size)
            assert text_min_chunks(data, name, size, 0) <= real, (text, size)
            assert min_chunks(parsed.sections, size) <= real, (text, size)
        checked += 1
    assert checked > 200


def test_a_string_still_counts_as_prose():
    assert min_chunks(["员工应遵守公司规章制度。" * 100], 240) == 5
