"""Review 384 #1: two files of one name in one upload (picked from two folders) — the second is not imported, and
the report says why; the first stays searchable."""

from __future__ import annotations

from fakes import fake_assistant

import ui.uploads
from ui.uploads import estimate_uploads, ingest_uploads

FIRST = "# 报销制度\n\n第一条 住宿每晚不超过500元。\n".encode()
SECOND = "# 报销制度\n\n第一条 出差补贴每天100元。\n".encode()


def test_the_second_file_of_one_name_is_not_imported_and_says_why(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(ui.uploads, "actor", lambda: None)  # the library's caller, not the app's login
    a = fake_assistant(tmp_path / "store", ingest_seconds_per_chunk=0.62)  # no model timed for the estimate
    files = [("报销制度.md", FIRST), ("报销制度.md", SECOND)]
    estimates = estimate_uploads(a, files)
    assert estimates[0].ok and estimates[0].chunk_count > 0
    assert estimates[1].chunk_count == 0 and "同名文件" in estimates[1].error
    reports = ingest_uploads(a, files)
    assert [r.status for r in reports][0] != "refused" and reports[0].version == 1
    assert reports[1].status == "refused" and "同名文件" in reports[1].error
    assert [d.version for d in a.list_documents()] == [1]
    assert any("500元" in h.chunk.text for h in a.search("住宿每晚不超过多少").hits)
    twice = estimate_uploads(a, [("差旅.md", SECOND), ("差旅.md", SECOND)])  # the same file picked twice
    assert all(e.ok and not e.error for e in twice)


def test_a_long_clause_changed_near_its_end_shows_the_change() -> None:
    from rag_core.facade.history import compare

    head = "出差须事先填写出差申请单，经部门负责人审批后方可出行；" * 6
    _, _, _, diff = compare([head + "住宿费每人每晚不超过500元，凭正规发票报销。"],
                            [head + "住宿费每人每晚不超过300元，凭正规发票报销。"])
    assert len(diff) == 2 and diff[0] != diff[1], diff
    assert "500元" in diff[0] and "300元" in diff[1] and diff[0].startswith("- …")
    assert all(len(line) <= 2 + 1 + 120 + 1 for line in diff)


def test_a_refused_first_copy_leaves_the_name_to_the_second_and_a_copy_picked_twice_counts_once(
        tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(ui.uploads, "actor", lambda: None)
    a = fake_assistant(tmp_path / "store", ingest_seconds_per_chunk=0.62)
    files = [("报销制度.md", b""), ("报销制度.md", FIRST)]  # an empty placeholder first (review 387 #3)
    estimates = estimate_uploads(a, files)
    assert not estimates[0].ok and estimates[1].ok and not estimates[1].error
    reports = ingest_uploads(a, files)
    assert reports[0].status == "refused" and reports[1].ok
    once = estimate_uploads(a, [("差旅.md", SECOND)])
    twice = estimate_uploads(a, [("差旅.md", SECOND), ("差旅.md", SECOND)])
    assert sum(e.chunk_count for e in twice) == once[0].chunk_count  # review 387 #10


def test_a_renumbered_long_clause_with_an_article_added_beside_it_shows_both_changes() -> None:
    from rag_core.facade.history import compare

    body = "出差须事先填写出差申请单，经部门负责人审批后方可出行；" * 6
    _, _, _, diff = compare([f"第二条 {body}住宿费每人每晚不超过500元，凭正规发票报销。"],
                            ["第二条 差旅费用按本办法报销。", f"第三条 {body}住宿费每人每晚不超过300元，凭正规发票报销。"])
    gone = next(line for line in diff if line.startswith("- "))
    came = next(line for line in diff if line.startswith("+ 第三条"))
    assert "500元" in gone and "300元" in came and "第二条" in gone, diff


def test_the_diff_of_long_repetitive_lines_grows_with_their_length_not_its_square() -> None:
    import time

    from rag_core.facade.history import compare

    def cpu(n: int) -> float:
        old = "第1档：" + "|".join(f"{(i * 7) % 10}0" for i in range(n))
        new = "第1档：" + "|".join(f"{(i * 3) % 10}0" for i in range(n))
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            compare([old], [new])
            best = min(best, time.process_time() - started)
        return best

    assert cpu(600) / max(cpu(150), 1e-4) < 8  # 4× the characters: the square would be 16× (review 389 #2)
