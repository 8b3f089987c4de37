"""Experiment (not shipped): the second bundled model (USE) as a ranking signal.

    python bench/use_ranking.py --work-dir DIR     # DIR as for bench/fit_answerability.py (its cached pools)

Adds, for every candidate of every question, USE's cosine to the chunk and to its best sentence,
each as a z-score within the question's candidate pool, to the chunk model's features; prints the
top-3 ranking of paraphrases per left-out corpus, then the leave-one-corpus-out table with the gate.
Reported in docs/retrieval.md ("Measured next step, not shipped").
"""

from __future__ import annotations

import argparse
import pickle
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_answerability as fa  # noqa: E402

from rag_core.evaluation.metrics import first_relevant_rank  # noqa: E402
from rag_core.search import answerability  # noqa: E402
from rag_core.search.embedding import load_embedder  # noqa: E402

_SENTENCE_END = re.compile(r"(?<=[。；;！？\n])")
REAL = ("labour_law", "local_rules", "social_insurance", "wages")
EXTRA = ("use_z", "use_sentence_z")


def _heading(chunk) -> str:
    return (chunk.title + " " + chunk.section.split(">")[-1]).strip()


def _sentences(chunk) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(chunk.text) if len(s.strip()) >= 4]


def use_features(pools: dict[str, list], cache: Path) -> dict[int, list[dict[str, float]]]:
    """id(pool.signals) → the two extra features per candidate (USE vectors cached in `cache`)."""
    if cache.exists():
        passages, queries = pickle.loads(cache.read_bytes())
    else:
        embedder = load_embedder("use")
        texts = sorted({f"{_heading(c)}\n{t}" for ps in pools.values() for p in ps for c in p.chunks
                        for t in [c.text, *_sentences(c)]})
        start = time.perf_counter()
        matrix = embedder.embed_passages(texts)
        print(f"USE: {len(texts)} passages in {time.perf_counter() - start:.1f} s")
        passages = dict(zip(texts, matrix, strict=True))
        queries = {p.question: embedder.embed_query(p.question) for ps in pools.values() for p in ps}
        cache.write_bytes(pickle.dumps((passages, queries)))
    out = {}
    for ps in pools.values():
        for p in ps:
            if not p.signals:
                continue
            q = queries[p.question]
            chunk_cos = np.array([passages[f"{_heading(c)}\n{c.text}"] @ q for c in p.chunks])
            sentence_cos = np.array([
                max([passages[f"{_heading(c)}\n{s}"] @ q for s in _sentences(c)], default=chunk_cos[i])
                for i, c in enumerate(p.chunks)
            ])
            z = (chunk_cos - chunk_cos.mean()) / (chunk_cos.std() + 1e-6)
            sz = (sentence_cos - sentence_cos.mean()) / (sentence_cos.std() + 1e-6)
            out[id(p.signals)] = [{"use_z": float(a), "use_sentence_z": float(b)} for a, b in zip(z, sz, strict=True)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/rag_fit"))
    args = parser.parse_args()
    sys.modules["__main__"].Pool = fa.Pool  # the cache was pickled by fit_answerability.py run as __main__
    pools = pickle.loads((args.work_dir / "pools_thesaurus.pkl").read_bytes())
    extra = use_features(pools, args.work_dir / "use_vectors.pkl")
    base_features = answerability.chunk_features

    def with_use(signals):
        rows = base_features(signals)
        for row, add in zip(rows, extra.get(id(signals), [dict.fromkeys(EXTRA, 0.0)] * len(rows)), strict=True):
            row.update(add)
        return rows

    answerability.chunk_features = fa.chunk_features = with_use
    for label, features in (("e5 only", fa.CHUNK_FEATURES), ("e5 + USE", fa.CHUNK_FEATURES + EXTRA)):
        ranked = {}
        for left in (*REAL, "samples", "heldout"):
            train = [p for name, ps in pools.items() if fa.group_of(name) != left for p in ps]
            chunk, _ = fa.fit(train, chunk_features_used=features)
            found = []
            for p in pools[left]:
                if p.category == "paraphrase" and p.signals:
                    probabilities = [chunk.probability(f) for f in with_use(p.signals)]
                    top = sorted(range(len(probabilities)), key=lambda i: -probabilities[i])[:3]
                    found.append(first_relevant_rank([p.texts[i] for i in top], p.alternatives) is not None)
            ranked[left] = round(float(np.mean(found)), 2)
        print(f"{label}: paraphrase in the top 3 by the chunk model, real mean {np.mean([ranked[k] for k in REAL]):.2f}", ranked)
        fa._ANSWERS.clear()
        fa.print_table(f"Leave-one-corpus-out, {label}", fa.leave_one_out(pools, chunk_features_used=features))


if __name__ == "__main__":
    main()
