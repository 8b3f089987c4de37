"""After a model change the gaps' earlier questions are embedded again a bounded share per read, once (review rev-own3
#3): 5,000 took minutes inside one page load, and two reads at once each embedded every question. A read does at
most `PER_READ`; the rest waits for the next read and a store notice says how many are still being regrouped; a read
while another embeds them does none of it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from fakes import BigramEmbedder, fake_assistant

from rag_core.facade.access import LOCAL_ADMIN
from rag_core.insights import reembed
from rag_core.insights.log import InsightLog
from rag_core.insights.reembed import refresh_gap_vectors


def _stale(log: InsightLog, count: int) -> None:
    now = datetime.now(UTC)
    for i in range(count):
        log.log_question(asked_at=(now - timedelta(minutes=i)).isoformat(timespec="seconds"), user="u",
                         role="employee", question=f"宠物保险第{i}种怎么申请", outcome="zero_hit", hit_count=0,
                         cited_docs=[], nearest={}, model="an-older-model", vector=np.zeros(8, dtype=np.float32))


def test_two_reads_at_once_embed_each_question_once(tmp_path: Path) -> None:
    log = InsightLog(tmp_path / "insights.sqlite3")
    _stale(log, 200)
    inner, sent, inside, go = BigramEmbedder(), [], threading.Event(), threading.Event()

    def embed(texts):
        sent.extend(texts)
        inside.set()
        if threading.current_thread() is not threading.main_thread():
            go.wait(10)  # a slow model: the second read comes while the first embeds
        return [inner.embed_query(t) for t in texts]

    first = threading.Thread(target=refresh_gap_vectors, args=(log, inner.model_id, embed))
    first.start()
    assert inside.wait(10)
    second = refresh_gap_vectors(log, inner.model_id, embed)  # the second read: none of it, says what is left
    go.set()
    first.join(10)
    assert len(sent) == 200, f"{len(sent)} questions sent to the model for 200"
    assert second == (0, 200) and refresh_gap_vectors(log, inner.model_id, embed) == (0, 0)
    log.close()


def test_a_read_embeds_a_bounded_share_and_says_what_is_left(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(reembed, "PER_READ", 100, raising=False)
    embedder = BigramEmbedder()
    assistant = fake_assistant(tmp_path / "store", embedder=embedder)
    _stale(assistant.insight_log, 250)
    asked = len(embedder.queries)
    first = sum(g.count for g in assistant.knowledge_gaps(actor=LOCAL_ADMIN))
    assert len(embedder.queries) - asked <= 100 and first == 100
    said = [line for line in assistant.store_notices if "重新归组" in line]
    assert said and "150 条" in said[0], assistant.store_notices
    assert assistant.regrouping_gap_questions(actor=LOCAL_ADMIN) == 150
    assistant.knowledge_gaps(actor=LOCAL_ADMIN)
    assert any("50 条" in line for line in assistant.store_notices if "重新归组" in line)
    assert sum(g.count for g in assistant.knowledge_gaps(actor=LOCAL_ADMIN)) == 250
    assert not any("重新归组" in line for line in assistant.store_notices), assistant.store_notices  # all listed
    export = assistant.export_insights("gaps", "csv", actor=LOCAL_ADMIN)
    assert "宠物保险第249种" in export.decode("utf-8-sig")


def test_the_newest_questions_are_regrouped_first_and_the_cli_says_what_waits(tmp_path: Path, capsys) -> None:
    """Review 260: after a model change the oldest questions were embedded first, so `gaps --since` a week ago said
    没有知识缺口 while the week's questions still waited, and said nothing of them."""
    from argparse import Namespace

    from rag_core.cli.insights import show_gaps

    assistant = fake_assistant(tmp_path / "store")
    now = datetime.now(UTC)
    for i in range(580):
        assistant.insight_log.log_question(
            asked_at=(now - timedelta(days=60, minutes=i)).isoformat(timespec="seconds"), user="u", role="employee",
            question=f"宠物保险第{i}种怎么申请", outcome="zero_hit", hit_count=0, cited_docs=[], nearest={},
            model="an-older-model", vector=np.zeros(8, dtype=np.float32))
    for i in range(20):
        assistant.insight_log.log_question(
            asked_at=(now - timedelta(days=1, minutes=i)).isoformat(timespec="seconds"), user="u", role="employee",
            question=f"育儿假第{i}天怎么请", outcome="zero_hit", hit_count=0, cited_docs=[], nearest={},
            model="an-older-model", vector=np.zeros(8, dtype=np.float32))
    since = (now - timedelta(days=7)).date().isoformat()
    show_gaps(Namespace(since=since, until=None, weak=False, include_tests=False, json=False), assistant)
    out = capsys.readouterr().out
    assert "育儿假" in out and "没有知识缺口" not in out, out
    assert "88 条较早的提问正在按新的嵌入模型重新归组" in out, out  # 600 less one read (512)
