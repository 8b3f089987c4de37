"""Memory recall latency at 1k and 10k memories for one user, and the relevance calibration.

    python bench/bench_memory.py              # latency table (markdown)
    python bench/bench_memory.py --calibrate  # the measurements behind rag_core/memory/scoring.py
    python bench/bench_memory.py --write-centres  # regenerate rag_core/memory/centres_data.py

Setup is quick because only ~300 unique synthetic memories are embedded; the rows
reuse those vectors and are bulk-inserted with SQL, since what is measured here is
recall, not insertion. `search` includes embedding the question (the e5 model);
"store only" replays the same questions with their vectors precomputed, and times
add() (dedup and contradiction checks against every active fact, then the insert)
with its vector precomputed too.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT, percentile  # noqa: E402
from rag_core.memory import MemoryStore, db  # noqa: E402
from rag_core.memory import calibration as cal  # noqa: E402
from rag_core.memory.centres import BACKGROUND_QUESTIONS, write_shipped_centres  # noqa: E402
from rag_core.memory.scoring import DEFAULT_CALIBRATION, calibration_for, relevance  # noqa: E402
from rag_core.search.embedding import load_embedder  # noqa: E402

NOW = datetime(2026, 6, 1, tzinfo=UTC)
USER = "bench-user"

_SUBJECTS = ["用户在研发部工作", "用户常驻杭州", "用户喜欢表格形式的回答", "用户对花生过敏", "用户下个月要出差去北京",
             "用户问过：年假有几天？", "用户的孩子在上小学", "用户开车上班", "用户正在读在职研究生", "用户每周三远程办公"]
_DETAILS = ["，最近比较忙", "，上周提到过", "，希望流程简单", "，经常加班", "，刚入职不久", "，负责招聘",
            "，习惯早到", "，计划考证", "，喜欢喝茶", "，住得比较远", "，团队有八个人", "，在准备述职", "，周末爬山",
            "，需要发票", "，经常开会", "，刚换了手机", "，对流程有疑问", "，想了解补贴", "，在带新人", "，关注体检", ""]
_KINDS = ["profile", "preference", "episode", "interaction"]


class _Precomputed:
    """Wraps the embedder so texts seen before skip the model (to time the store alone)."""

    def __init__(self, inner):
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self._cache: dict[str, np.ndarray] = {}
        self._passages: dict[str, np.ndarray] = {}

    def embed_passages(self, texts):
        missing = [t for t in texts if t not in self._passages]
        if missing:
            self._passages.update(zip(missing, self.inner.embed_passages(missing), strict=True))
        return np.vstack([self._passages[t] for t in texts])

    def embed_query(self, text):
        if text not in self._cache:
            self._cache[text] = self.inner.embed_query(text)
        return self._cache[text]


def _questions() -> list[str]:
    qs = list(cal.DEV_QUESTIONS) + list(cal.HELD_OUT_QUESTIONS) + list(BACKGROUND_QUESTIONS)
    return list(dict.fromkeys(qs))[:50]


def _fill(store: MemoryStore, embedder, n: int, texts: list[str], vecs: np.ndarray) -> None:
    rng = np.random.default_rng(7)
    rows = []
    for i in range(n):
        j = i % len(texts)
        kind = _KINDS[i % len(_KINDS)]
        created = NOW - timedelta(days=float(rng.uniform(0, 120)))
        rows.append((uuid.uuid4().hex, USER, f"{texts[j]}（#{i}）", kind, float(rng.uniform(0.1, 0.9)), db.iso(created),
                     "bench", db.to_blob(vecs[j]), embedder.model_id))
    conn = store._conn
    with store._tx():
        conn.executemany(
            "INSERT INTO memories (id, user_id, content, kind, importance, created_at, source, embedding, model_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


def _pct(values: list[float], p: float) -> float:
    """Percentile of durations in seconds, in ms."""
    return percentile([v * 1000 for v in values], p)


def bench_latency() -> None:
    embedder = load_embedder("e5")
    texts = [a + b for a, b in itertools.product(_SUBJECTS, _DETAILS)][:300]
    t0 = time.perf_counter()
    vecs = embedder.embed_passages(texts)
    print(f"embedded {len(texts)} unique memories in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    questions = _questions()
    print("| memories | cold first search ms | search p50 ms | search p95 ms | store-only p50 ms | store-only p95 ms | hits/query | add() store-only p50 ms |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in (1_000, 10_000):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "memory.sqlite3"
            store = MemoryStore(path, embedder)
            store._centres_for_model()
            _fill(store, embedder, n, texts, vecs)
            store.close()
            store = MemoryStore(path, embedder)  # fresh process-like start: vectors not cached
            store._centres_for_model()
            t = time.perf_counter()
            store.search(USER, questions[0], now=NOW, touch=False)
            cold = (time.perf_counter() - t) * 1000
            timings, hits = [], 0
            for q in questions:
                t = time.perf_counter()
                hits += len(store.search(USER, q, now=NOW))
                timings.append(time.perf_counter() - t)
            pre = _Precomputed(embedder)
            fast = MemoryStore(path, pre)
            for q in questions:
                pre.embed_query(q)
            fast.search(USER, questions[0], now=NOW, touch=False)
            store_only = []
            for q in questions:
                t = time.perf_counter()
                fast.search(USER, q, now=NOW)
                store_only.append(time.perf_counter() - t)
            adds = []
            notes = [f"用户第{i}次提到想换工位到{i}楼" for i in range(10)]
            pre.embed_passages(notes)
            for note in notes:  # dedup/contradiction checks + insert, vectors precomputed
                t = time.perf_counter()
                fast.add(USER, note, kind="episode", now=NOW)
                adds.append(time.perf_counter() - t)
            print(f"| {n:,} | {cold:.0f} | {_pct(timings, 50):.1f} | {_pct(timings, 95):.1f} | {_pct(store_only, 50):.1f} "
                  f"| {_pct(store_only, 95):.1f} | {hits / len(questions):.2f} | {_pct(adds, 50):.0f} |")
            store.close()
            fast.close()


def bench_calibration() -> None:
    embedder = load_embedder("e5")
    c = calibration_for(embedder.model_id) if embedder.model_id else DEFAULT_CALIBRATION
    feats = {name: cal.features(embedder, m, q) for name, (m, q) in cal.SETS.items()}
    print("| signal | AUC dev | AUC held-out | top-1 dev | top-1 held-out |")
    print("|---|---:|---:|---:|---:|")
    for label, fn in [
        ("raw cosine", lambda f: f.raw),
        ("centred cosine", lambda f: f.centred),
        ("keyword overlap", lambda f: f.keyword),
        (f"centred + {c.keyword_weight} × keyword", lambda f: f.centred + c.keyword_weight * f.keyword),
        ("relevance (clipped)", lambda f: np.asarray(relevance(f.centred, f.keyword, c))),
    ]:
        d, h = fn(feats["dev"]), fn(feats["held_out"])
        t1d, t1h = cal.top1(d, feats["dev"].labels), cal.top1(h, feats["held_out"].labels)
        print(f"| {label} | {cal.auc(d, feats['dev'].labels):.3f} | {cal.auc(h, feats['held_out'].labels):.3f} "
              f"| {t1d[0]}/{t1d[1]} | {t1h[0]}/{t1h[1]} |")
    neg = feats["dev"].centred[~feats["dev"].labels]
    pos = feats["dev"].centred[feats["dev"].labels]
    print(f"\ndev centred cosine: unrelated p95 {percentile(neg.tolist(), 95):.3f}, max {neg.max():.3f}; "
          f"relevant median {percentile(pos.tolist(), 50):.3f}, min {pos.min():.3f}\n")
    print("| threshold | dev P | dev R | dev unrelated→empty | held-out P | held-out R | held-out unrelated→empty |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for th in (0.10, 0.15, 0.20, 0.25, 0.30):
        d, h = cal.selection(feats["dev"], c, th), cal.selection(feats["held_out"], c, th)
        mark = " ← default" if abs(th - c.threshold) < 1e-9 else ""
        print(f"| {th:.2f}{mark} | {d['precision']:.2f} | {d['recall']:.2f} | {d['empty']}/{d['unrelated']} "
              f"| {h['precision']:.2f} | {h['recall']:.2f} | {h['empty']}/{h['unrelated']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibrate", action="store_true", help="print the relevance calibration instead")
    parser.add_argument("--write-centres", action="store_true", help="regenerate the shipped background centres")
    args = parser.parse_args()
    if args.write_centres:
        target = ROOT / "rag_core" / "memory" / "centres_data.py"
        write_shipped_centres(load_embedder("e5"), str(target))
        print(f"wrote {target}")
    elif args.calibrate:
        bench_calibration()
    else:
        bench_latency()


if __name__ == "__main__":
    main()
