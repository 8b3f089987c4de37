"""Bounded load on loopback through the facade: no errors and no wrong results under load.

Timings are printed (run with `-s` to see them), never asserted: this machine is
shared and two cores are noisy. What is asserted is correctness: concurrent
searches return exactly the chunks a single-threaded search returns, and a
second process sharing the data dir follows a document another process adds.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import EVAL, ROOT, open_assistant

pytestmark = pytest.mark.integration

THREADS = 4
MAX_SECONDS = 10.0
ROLES = ("all", "hr")
ABSENT = ["公司年会在哪里举办？", "员工宿舍怎么申请？"]

NEW_DOC_NAME = "pet_care_leave.md"
NEW_DOC = """# 宠物关怀假管理办法

### 第一条 宠物关怀假

员工饲养的宠物生病、手术或者离世时，可以申请宠物关怀假，每年不超过2天。宠物关怀假期间工资照发，不影响年终考核。
"""
NEW_QUESTION = "宠物关怀假每年有几天？"

# A long-lived second process: opens the store once, then answers one search per stdin line.
SEARCHER = r"""
import json, sys
from rag_core.assistant import Assistant
a = Assistant.open(data_dir=sys.argv[1], env_file=None)
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    res = a.search(line.strip(), role="all")
    docs = [h.chunk.doc_id for h in res.hits]
    by_vector = [h.chunk.doc_id for h in res.hits if h.scores.cosine is not None]
    print(json.dumps({"docs": docs, "by_vector": by_vector}, ensure_ascii=False), flush=True)
"""


def _questions(n: int = 16) -> list[str]:
    lines = [json.loads(x)["question"] for x in EVAL.read_text(encoding="utf-8").splitlines() if x.strip()]
    return lines[:n] + ABSENT


def _p95(values: list[float]) -> float:
    data = sorted(values)
    return data[min(len(data) - 1, int(round(0.95 * (len(data) - 1))))] if data else float("nan")


def test_concurrent_searches_match_single_threaded(sample_store: Path):
    a = open_assistant(sample_store)
    cases = [(q, role) for q in _questions() for role in ROLES]
    expected = {(q, role): [h.chunk.chunk_id for h in a.search(q, role=role).hits] for q, role in cases}
    assert any(expected.values()), "the sample store should answer at least some questions"

    errors: list[str] = []
    mismatches: list[str] = []
    latencies: list[float] = []
    lock = threading.Lock()
    deadline = time.monotonic() + MAX_SECONDS
    start = threading.Barrier(THREADS)

    def worker(offset: int) -> None:
        start.wait()
        i = offset
        while time.monotonic() < deadline:
            q, role = cases[i % len(cases)]
            i += 1
            t0 = time.perf_counter()
            try:
                got = [h.chunk.chunk_id for h in a.search(q, role=role).hits]
            except Exception as exc:  # noqa: BLE001 - every error is collected and reported
                with lock:
                    errors.append(f"{q} ({role}): {type(exc).__name__}: {exc}")
                continue
            ms = (time.perf_counter() - t0) * 1000
            with lock:
                latencies.append(ms)
                if got != expected[(q, role)]:
                    mismatches.append(f"{q} ({role}): {got} != {expected[(q, role)]}")

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker, args=(k * len(cases) // THREADS,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=MAX_SECONDS + 60)
    elapsed = time.monotonic() - t0
    assert not any(t.is_alive() for t in threads), "a search thread hung"
    print(f"\nload: {THREADS} threads, {len(latencies)} searches in {elapsed:.1f} s = "
          f"{len(latencies) / elapsed:.1f} searches/s, p95 {_p95(latencies):.0f} ms")
    assert not errors, errors[:5]
    assert not mismatches, mismatches[:5]
    assert len(latencies) >= THREADS


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("RAG_DATA_DIR", None)
    return env


def _readline(proc: subprocess.Popen, timeout: float = 180) -> dict:
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    if not sel.select(timeout):
        raise TimeoutError("the second process did not answer in time")
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError(f"the second process exited: {proc.stderr.read()[-2000:]}")
    return json.loads(line)


def _ask(proc: subprocess.Popen, question: str) -> dict:
    proc.stdin.write(question + "\n")
    proc.stdin.flush()
    return _readline(proc)


def test_second_process_follows_an_ingest(store_copy: Path):
    """Process B opened the store first; after process A ingests, B's next search finds the document.

    B's keyword index notices the catalog's generation counter moved and reloads
    (a fresh CLI process of course sees it too). Against a Chroma server B's
    vector search sees the new chunks as well; embedded Chroma keeps each
    process's HNSW index in memory, so there B finds them by keywords only
    until it restarts (docs/deploy.md: one app process per embedded data dir).
    """
    b = subprocess.Popen([sys.executable, "-c", SEARCHER, str(store_copy)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=store_copy, env=_env())
    try:
        assert _readline(b).get("ready")
        new_doc_id = NEW_DOC_NAME.rsplit(".", 1)[0]
        assert new_doc_id not in _ask(b, NEW_QUESTION)["docs"]

        a = open_assistant(store_copy)
        report = a.ingest_bytes(NEW_DOC.encode("utf-8"), NEW_DOC_NAME)
        assert report.status == "indexed", report.error
        assert new_doc_id in [h.chunk.doc_id for h in a.search(NEW_QUESTION).hits]

        seen = _ask(b, NEW_QUESTION)
        assert new_doc_id in seen["docs"], "process B did not follow process A's ingest"
        server = bool(os.environ.get("CHROMA_HOST"))
        print(f"\nprocess B after A's ingest: hits {seen['docs']}, by vector {seen['by_vector']} "
              f"({'Chroma server' if server else 'embedded Chroma'})")
        if server:
            assert new_doc_id in seen["by_vector"], "against a server B's vector search should see A's upload"

        cli = subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(store_copy), "search",
                              NEW_QUESTION, "--json"], capture_output=True, cwd=store_copy, env=_env(), timeout=300)
        assert cli.returncode == 0, cli.stderr.decode("utf-8", "replace")[-2000:]
        hits = json.loads(cli.stdout.decode("utf-8"))["hits"]
        assert new_doc_id in [h["doc_id"] for h in hits]
    finally:
        b.stdin.close()
        try:
            b.wait(timeout=30)
        except subprocess.TimeoutExpired:
            b.kill()
