"""Review 395 (settings), the engine side: a 词表 save says in the audit trail what it added, changed and removed,
keeps the old file when it removes entries, and moves `library_generation`; 清除本页保存的修改 says old → new; a
fitted threshold reads 实测拟合值, not None; the knobs .env sets are known to the page."""

from __future__ import annotations

from fakes import BigramEmbedder, fake_assistant

from rag_core.assistant import Assistant
from rag_core.facade.access import LOCAL_ADMIN
from rag_core.settings import Settings


def _rows(a, action: str) -> list[str]:
    return [r.detail for r in a.audit_entries(actor=LOCAL_ADMIN) if r.action == action and r.outcome == "ok"]


def test_a_thesaurus_save_names_its_changes_and_keeps_the_file_it_empties(tmp_path) -> None:
    a = fake_assistant(tmp_path / "store")
    a.save_custom_thesaurus("神兽金\t子女教育补贴\n打的\t出租车", actor=LOCAL_ADMIN)
    generation = a.library_generation(actor=LOCAL_ADMIN)
    assert a.thesaurus_removals("神兽金\t年终奖", actor=LOCAL_ADMIN) == ["打的"]
    a.save_custom_thesaurus("神兽金\t年终奖", actor=LOCAL_ADMIN)
    assert a.library_generation(actor=LOCAL_ADMIN) != generation  # a synonym changes what a search finds
    last = _rows(a, "thesaurus.change")[0]
    assert "修改 1 条：神兽金：子女教育补贴 → 年终奖" in last and "删除 1 条：打的 → 出租车" in last, last
    assert list((tmp_path / "store").glob("thesaurus.before-removal-*")), "the file an entry was removed from is kept"
    a.save_custom_thesaurus("", actor=LOCAL_ADMIN)
    assert "删除 1 条：神兽金 → 年终奖" in _rows(a, "thesaurus.change")[0]


def test_clearing_the_pages_changes_says_old_and_new_and_none_reads_as_fitted(tmp_path) -> None:
    a = fake_assistant(tmp_path / "store")  # .env's threshold here: 0.1
    a.update_settings(top_k=9, answer_threshold=None, actor=LOCAL_ADMIN)
    assert "answer_threshold: 0.1 → 实测拟合值" in _rows(a, "settings.change")[0]
    a.forget_saved_settings(actor=LOCAL_ADMIN)
    last = _rows(a, "settings.change")[0]
    assert "top_k: 9 → 5" in last and "answer_threshold: 实测拟合值 → 0.1" in last and "None" not in last, last


def test_the_knobs_env_sets_are_known(tmp_path) -> None:
    a = Assistant(Settings(data_dir=tmp_path / "store", top_k=8), embedder=BigramEmbedder())
    assert a.env_settings == {"top_k": 8}


def test_a_settings_file_that_is_a_folder_is_said_as_one(tmp_path) -> None:
    import pytest

    from rag_core.errors import SettingsError

    (tmp_path / "store" / "settings.json").mkdir(parents=True)
    a = fake_assistant(tmp_path / "store")
    assert any("文件夹" in line for line in a.store_notices), a.store_notices
    for act in (lambda: a.update_settings(top_k=7, actor=LOCAL_ADMIN), lambda: a.forget_saved_settings(actor=LOCAL_ADMIN)):
        with pytest.raises(SettingsError, match="文件夹"):
            act()


def test_another_replicas_thesaurus_save_is_searched_with_at_the_next_question(tmp_path) -> None:
    from fakes import fake_assistant_with_samples

    a = fake_assistant_with_samples(tmp_path / "store")
    doc = "# 员工子女教育补贴办法\n\n## 第一条 补贴标准\n\n每名子女每月可领取子女教育补贴 1837 元，随当月工资发放。\n"
    assert a.ingest_bytes(doc.encode(), "子女教育补贴.md").ok
    b = fake_assistant(tmp_path / "store")  # the second replica
    question = "神兽金每月多少钱"
    before = len(b.search(question, actor=LOCAL_ADMIN).hits)
    a.save_custom_thesaurus("神兽金\t子女教育补贴", actor=LOCAL_ADMIN)
    assert len(b.search(question, actor=LOCAL_ADMIN).hits) > before == 0
    assert "神兽金" in b.thesaurus.custom


def test_copies_of_saves_that_removed_entries_do_not_pile_up(tmp_path) -> None:
    from rag_core.facade.thesaurus import REMOVAL_COPIES_KEPT

    a = fake_assistant(tmp_path / "store")
    for i in range(REMOVAL_COPIES_KEPT + 3):
        a.save_custom_thesaurus(f"口语词{i}\t制度用语{i}", actor=LOCAL_ADMIN)  # each save removes the last one's entry
    copies = sorted((tmp_path / "store").glob("thesaurus.before-removal-*"))
    assert len(copies) == REMOVAL_COPIES_KEPT
    assert f"口语词{REMOVAL_COPIES_KEPT + 1}" in copies[-1].read_text(encoding="utf-8")  # the newest kept


def test_every_removed_entry_is_named_in_the_trail_and_another_replicas_save_moves_the_generation(tmp_path) -> None:
    # review 397 #5 and #6
    a = fake_assistant(tmp_path / "store")
    a.save_custom_thesaurus("\n".join(f"口语词{i}\t制度用语{i}" for i in range(30)), actor=LOCAL_ADMIN)
    b = fake_assistant(tmp_path / "store")
    generation = b.library_generation(actor=LOCAL_ADMIN)
    a.save_custom_thesaurus("", actor=LOCAL_ADMIN)
    removed = _rows(a, "thesaurus.change")[0]
    assert all(f"口语词{i} → 制度用语{i}" in removed for i in range(30)), removed
    assert b.library_generation(actor=LOCAL_ADMIN) != generation
