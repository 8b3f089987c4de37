"""Fit the answerability model across corpora; report every number on a corpus it was not fitted on.

    python bench/fit_answerability.py                 # leave-one-corpus-out table + ablations
    python bench/fit_answerability.py --write         # ...and write rag_core/search/resources/answerability.json

Six corpora to fit on: our samples and held-out policies, and four of real public
text nobody on the team wrote (tests/data/real/*: labour law, local rules, social
insurance, wages). For each left-out corpus the chunk and question models are
fitted on the other five and the two thresholds chosen there; the left-out
corpus is only measured. The shipped model is then fitted on all six. Three more
real corpora (HELD_OUT: labour_admin, company_policies, local_labour) are never
fitted on, only measured with that model (bench/answerability_frontier.py then asks
what any threshold could reach on each). The search path is the engine's own
(`HybridRetriever.candidates` → `judge_all`), and traps are measured through the
offline answer, exactly as `ask` does.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from rag_core.answer.answering import compose_answer  # noqa: E402
from rag_core.answer.prompt import build_prompt  # noqa: E402
from rag_core.evaluation.fitting import fit_logistic  # noqa: E402
from rag_core.evaluation.metrics import first_relevant_rank, is_refusal, load_questions  # noqa: E402
from rag_core.search.answerability import (  # noqa: E402
    Logistic,
    Model,
    Signals,
    chunk_features,
    judge_all,
    question_features,
)
from rag_core.types import Hit, HitScores  # noqa: E402

CHUNK_FEATURES = (
    "sentence_z", "z_gap", "sentence_z_gap", "log_bm25", "bm25_norm", "bm25_share", "coverage", "inv_bm25_rank",
    "inv_cosine_rank", "inv_sentence_rank", "missing_known", "missing_benefit", "second_z", "second_sentence_z",
)
# best_log_bm25 is computed but not used: summed BM25 grows with the number of words asked, and on
# question sets where the unanswerable questions were shorter it taught the model "short = absent"
QUESTION_FEATURES = (
    "best_logit", "second", "best_sentence_z", "best_coverage", "best_bm25_norm", "unknown_share",
    "top_missing_known", "top_missing_benefit", "best_second",
)
QUESTION_GRID = tuple(round(x, 2) for x in np.arange(0.10, 0.91, 0.05))
CHUNK_GRID = (0.02, 0.05, 0.1, 0.2)
SMALL_STORE = 40  # chunks; the single-document stores have 9–25, the corpora 62–190
# Corpora never fitted on (two added in stop 26, local_labour in stop 27): the model and thresholds
# come from the others, and these are only measured (the cleanest out-of-sample figure there is).
# Fitting on them as well did not help the others (docs/retrieval.md, "Corpora held out").
HELD_OUT = ("labour_admin", "company_policies", "local_labour")
L2 = 1.0


def corpora() -> dict[str, tuple[list[Path], Path]]:
    """Name → (policy files, question set). "samples/<doc>" is one sample policy alone (a tiny store)."""
    out = {
        "samples": (sorted((ROOT / "data/samples").glob("*.md")), ROOT / "tests/data/eval.jsonl"),
        "heldout": (sorted((ROOT / "tests/data/heldout/policies").glob("*")), ROOT / "tests/data/heldout/eval.jsonl"),
    }
    for folder in sorted((ROOT / "tests/data/real").iterdir()):
        if (folder / "eval.jsonl").is_file():
            out[folder.name] = (sorted((folder / "policies").glob("*")), folder / "eval.jsonl")
    # Single documents as their own stores: HR teams start with one or two files, and a store of a
    # dozen chunks has other statistics (low IDF, wide spread) than one of hundreds.
    for group in ("samples", "heldout"):
        files, questions = out[group]
        for path in files:
            out[f"{group}/{path.stem}"] = ([path], questions)
    return out


def group_of(name: str) -> str:
    """Single-document stores are left out together with the corpus they come from."""
    return name.split("/", 1)[0]


@dataclass
class Pool:
    """One question's candidates as the engine sees them, with the labels the eval gives them."""

    question: str
    category: str
    trap: bool
    alternatives: list[list[str]]
    signals: list[Signals]
    unknown: float
    texts: list[str]
    chunks: list  # Chunk records, for the offline answer
    groups: dict[str, set[str]]
    foreign: bool = False  # names a benefit with a word no policy uses: zero hits whatever the models say
    store_chunks: int = 0


def collect(name: str, files: list[Path], eval_path: Path, work: Path, thesaurus: bool = True) -> list[Pool]:
    """Ingest a corpus into its own store (once) and gather every question's pool."""
    from rag_core.assistant import Assistant
    from rag_core.text.thesaurus import Thesaurus

    assistant = Assistant.open(data_dir=work / name, env_file=None)
    if not assistant.catalog.live_versions():
        for path in files:
            report = assistant.ingest_file(path)
            if not report.ok:
                raise SystemExit(report.error)
    if not thesaurus:
        assistant.retriever.thesaurus = Thesaurus({})
    text = "\n".join(c.text for c in assistant.catalog.all_chunks())
    store_chunks = assistant.catalog.chunk_count()
    pools = []
    for row in load_questions(eval_path):
        if len(files) == 1 and not any(all(e in text for e in alt) for alt in row["alternatives"]):
            row = {**row, "category": "absent", "alternatives": [], "answer_should_refuse": False}
        result, candidates, _, chunks = assistant.retriever.candidates(row["question"], assistant.settings)
        pools.append(Pool(
            question=row["question"], category=row["category"], trap=bool(row.get("answer_should_refuse")),
            alternatives=row["alternatives"], signals=[c.signals for c in candidates], unknown=result.unknown_share,
            texts=[chunks[c.chunk_id].text for c in candidates], chunks=[chunks[c.chunk_id] for c in candidates],
            groups={k: set(v) for k, v in result.synonym_groups.items()}, foreign=bool(result.foreign_subjects),
            store_chunks=store_chunks,
        ))
    assistant.catalog.close()
    return pools


def labels(pool: Pool) -> list[float]:
    if pool.category not in ("literal", "paraphrase"):
        return [0.0] * len(pool.texts)
    return [1.0 if first_relevant_rank([t], pool.alternatives) else 0.0 for t in pool.texts]


def fit(pools: list[Pool], chunk_features_used=CHUNK_FEATURES, question_features_used=QUESTION_FEATURES) -> tuple[Logistic, Logistic]:
    """Chunk model on every candidate (traps' touched clauses left out); question model on answerable vs absent."""
    pools = [p for p in pools if p.store_chunks >= SMALL_STORE]  # the models learn from full corpora
    rows, ys = [], []
    for pool in pools:
        if pool.category == "near_miss" or not pool.signals:
            continue
        for values, y in zip(chunk_features(pool.signals), labels(pool), strict=True):
            rows.append([values[f] for f in chunk_features_used])
            ys.append(y)
    weights, bias, mean, scale = fit_logistic(np.array(rows), np.array(ys), l2=L2)
    chunk = Logistic(tuple(chunk_features_used), tuple(weights), tuple(mean), tuple(scale), bias)
    qrows, qys = [], []
    for pool in pools:
        if pool.category == "near_miss" or not pool.signals:
            continue
        features = chunk_features(pool.signals)
        probabilities = [chunk.probability(f) for f in features]
        values = question_features(features, probabilities, pool.unknown)
        qrows.append([values[f] for f in question_features_used])
        qys.append(1.0 if pool.category in ("literal", "paraphrase") else 0.0)
    x = np.array(qrows, dtype=float)
    known = ~np.isnan(x).all(axis=0)  # best_second has no value anywhere when the second model is off
    if not known.all():
        dropped = [f for f, k in zip(question_features_used, known, strict=True) if not k]
        print(f"(no value for {', '.join(dropped)} in any pool: left out of the question model)", file=sys.stderr)
    x = x[:, known]
    x = np.where(np.isnan(x), np.nanmean(x, axis=0), x)  # a pool without a value reads as the mean, as at run time
    weights, bias, mean, scale = fit_logistic(x, np.array(qys), l2=L2)
    if not (np.all(np.isfinite(weights)) and np.isfinite(bias)):
        raise SystemExit("the question model did not converge to finite weights: nothing written")
    names = tuple(f for f, k in zip(question_features_used, known, strict=True) if k)
    question = Logistic(names, tuple(weights), tuple(mean), tuple(scale), bias)
    return chunk, question


def _hit(chunk, probability: float) -> Hit:
    return Hit(chunk=chunk, scores=HitScores(probability=probability))


_ANSWERS: dict[tuple[str, tuple[str, ...]], str] = {}


def offline_answer(pool: Pool, hits: list[int], probabilities: list[float]) -> str:
    """What `ask` answers offline from these hits (memoised: many thresholds give the same hits)."""
    key = (pool.question, tuple(pool.chunks[i].chunk_id for i in hits))
    if key not in _ANSWERS:
        built = build_prompt(pool.question, [_hit(pool.chunks[i], probabilities[i]) for i in hits], [], 1800)
        _ANSWERS[key] = compose_answer(pool.question, built, None, None, pool.groups)[0]
    return _ANSWERS[key]


def measure(pools: list[Pool], model: Model, ask: bool = True) -> dict[str, float]:
    """recall@3 (literal, paraphrase), zero hits (absent), refusal through the offline answer (traps), answered rate."""
    recall = {"literal": [], "paraphrase": []}
    absent, refused, answered = [], [], []
    for pool in pools:
        judged = judge_all(pool.signals, model, pool.unknown, pool.store_chunks)
        order = sorted(range(len(judged)), key=lambda i: -judged[i].probability)
        hits = [] if pool.foreign else [i for i in order if judged[i].verdict][:5]
        if pool.category in recall:
            recall[pool.category].append(first_relevant_rank([pool.texts[i] for i in hits[:3]], pool.alternatives) is not None)
        if pool.category == "absent":
            absent.append(not hits)
        if ask and (pool.trap or pool.category == "paraphrase"):
            answer = offline_answer(pool, hits, [j.probability for j in judged])
            (refused if pool.trap else answered).append(is_refusal(answer) if pool.trap else not is_refusal(answer))
    mean = lambda xs: round(float(np.mean(xs)), 3) if xs else float("nan")  # noqa: E731
    return {"literal": mean(recall["literal"]), "paraphrase": mean(recall["paraphrase"]), "absent": mean(absent),
            "traps": mean(refused), "answered": mean(answered)}


def objective(results: list[dict[str, float]]) -> float:
    """What the thresholds are chosen for: paraphrase recall counts twice, then literal, absent and traps,
    summed over the corpora, plus the worst corpus once more (every corpus must hold, not the average).

    Tried in stop 26 and not kept: each corpus's shortfall below the issue's bars (0.95 / 0.85 / 0.90 /
    0.80). With eight corpora each left out it gave 0.78 / 0.85 / 0.81 (paraphrase / absent / traps)
    against 0.81 / 0.81 / 0.80 here, chose less stable thresholds (0.65 with labour law left out), and
    a small-store threshold of 0.35 that gives seed 000's 打车费能报吗 zero hits."""
    scores = []
    for r in results:
        score = 0.0
        for key, weight in (("literal", 1), ("paraphrase", 2), ("absent", 1), ("traps", 1)):
            if r[key] == r[key]:  # not NaN: a store without such questions adds nothing
                score += weight * r[key]
        scores.append(score)
    return sum(scores) + min(scores, default=0.0)


def choose(pools_by_corpus: dict[str, list[Pool]], chunk: Logistic, question: Logistic) -> Model:
    """The thresholds that score best: the two main ones on the full corpora, then the small-store one
    on the single-document stores (all of them together)."""
    small = [p for name, pools in pools_by_corpus.items() if "/" in name for p in pools]
    model = _choose_main({k: v for k, v in pools_by_corpus.items() if "/" not in k}, chunk, question)
    if not small:
        return model
    best = max(QUESTION_GRID, key=lambda t: objective([measure(small, replace(model, small_store=SMALL_STORE,
                                                                                  small_question_threshold=t))]))
    return replace(model, small_store=SMALL_STORE, small_question_threshold=best)


def _choose_main(pools_by_corpus: dict[str, list[Pool]], chunk: Logistic, question: Logistic) -> Model:
    best, best_score = None, -float("inf")
    for qt in QUESTION_GRID:
        for ct in CHUNK_GRID:
            model = Model(chunk, question, qt, ct, strong=max(qt, 0.8))
            score = objective([measure(p, model) for p in pools_by_corpus.values()])
            if score > best_score + 1e-9:
                best, best_score = model, score
    return best


def leave_one_out(pools: dict[str, list[Pool]], **fit_args) -> dict[str, dict[str, float]]:
    """Per corpus group: fit and choose on the other groups, measure the left-out one (its single-document
    stores reported as one row)."""
    table = {}
    for left_out in dict.fromkeys(group_of(name) for name in pools):
        train = {k: v for k, v in pools.items() if group_of(k) != left_out}
        chunk, question = fit([p for v in train.values() for p in v], **fit_args)
        model = choose(train, chunk, question)
        for name in [k for k in pools if group_of(k) == left_out]:
            row = name if name == left_out else f"{left_out} (one document per store)"
            if row in table:
                continue
            members = [p for k, v in pools.items() if (k == left_out) == (name == left_out) and group_of(k) == left_out for p in v]
            small = name != left_out
            table[row] = {**measure(members, model), "c_thr": model.chunk_threshold,
                          "q_thr": model.small_question_threshold if small else model.question_threshold}
    return table


def print_table(title: str, table: dict[str, dict[str, float]], first: str = "left-out corpus") -> None:
    print(f"\n### {title}\n")
    print(f"| {first} | literal r@3 | paraphrase r@3 | absent zero-hit | trap refusal | paraphrase answered | thresholds (q / c) |")
    print("|---|---|---|---|---|---|---|")
    for name, r in table.items():
        print(f"| {name} | {r['literal']:.2f} | {r['paraphrase']:.2f} | {r['absent']:.2f} | {r['traps']:.2f} | {r['answered']:.2f} | "
              f"{r['q_thr']:g} / {r['c_thr']:g} |")
    real = [r for n, r in table.items() if not n.startswith(("samples", "heldout")) and "one document" not in n]
    if real:
        avg = {k: np.mean([r[k] for r in real]) for k in ("literal", "paraphrase", "absent", "traps", "answered")}
        print(f"| **mean of the {'held-out' if first != 'left-out corpus' else 'real'} corpora** | {avg['literal']:.2f} | {avg['paraphrase']:.2f} | {avg['absent']:.2f} | "
              f"{avg['traps']:.2f} | {avg['answered']:.2f} | |")
    sys.stdout.flush()


def measured_with(model: Model, pools: dict[str, list[Pool]]) -> dict[str, dict[str, float]]:
    """Each corpus measured with one model (no fit), in `print_table`'s row format."""
    return {k: {**measure(v, model), "q_thr": model.question_threshold, "c_thr": model.chunk_threshold}
            for k, v in pools.items()}


def without_sentences(pools: dict[str, list[Pool]]) -> dict[str, list[Pool]]:
    """The same pools with small-to-big switched off (every sentence signal is the chunk's own)."""
    return {k: [replace(p, signals=[replace(s, sentence_cosine=s.cosine, sentence_rank=s.cosine_rank) for s in p.signals])
                for p in v] for k, v in pools.items()}


def without_value_guard(pools: dict[str, list[Pool]]) -> dict[str, dict[str, float]]:
    """The leave-one-out table with the offline answer's value guard switched off (answer side only)."""
    import rag_core.answer.extractive as extractive

    before, extractive.CHECK_ASKED_VALUE = extractive.CHECK_ASKED_VALUE, False
    _ANSWERS.clear()
    try:
        return leave_one_out(pools)
    finally:
        extractive.CHECK_ASKED_VALUE = before
        _ANSWERS.clear()


def cached_pools(work_dir: Path) -> dict[str, list[Pool]]:
    """The pools a run of this script cached in `work_dir` (for the scripts that only read them)."""
    cache = work_dir / "pools_thesaurus.pkl"
    if not cache.exists():
        raise SystemExit(f"no cached pools in {work_dir}: run bench/fit_answerability.py --work-dir {work_dir} first")
    sys.modules["__main__"].Pool = Pool  # pickled by this script run as __main__
    return pickle.loads(cache.read_bytes())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/rag_fit"))
    parser.add_argument("--write", action="store_true", help="write the model fitted on all corpora")
    parser.add_argument("--ablation", action="store_true", help="also report what each part adds")
    parser.add_argument("--refresh", action="store_true", help="re-collect the pools (after a change to search)")
    args = parser.parse_args()
    args.work_dir.mkdir(parents=True, exist_ok=True)

    def pools_for(thesaurus: bool) -> dict[str, list[Pool]]:
        cache = args.work_dir / f"pools_{'thesaurus' if thesaurus else 'plain'}.pkl"
        if cache.exists() and not args.refresh:
            return pickle.loads(cache.read_bytes())
        out = {name: collect(name, files, path, args.work_dir, thesaurus) for name, (files, path) in corpora().items()}
        cache.write_bytes(pickle.dumps(out))
        return out

    everything = pools_for(True)
    pools = {k: v for k, v in everything.items() if group_of(k) not in HELD_OUT}
    held_out = {k: v for k, v in everything.items() if group_of(k) in HELD_OUT}
    print_table("Leave-one-corpus-out (what ships)", leave_one_out(pools))
    if args.ablation:
        print_table("Without small-to-big (sentence signals = chunk signals)", leave_one_out(without_sentences(pools)))
        print_table("Without the scope features (missing words, situations, benefits)", leave_one_out(
            pools, chunk_features_used=tuple(f for f in CHUNK_FEATURES if not f.startswith("missing")),
            question_features_used=tuple(f for f in QUESTION_FEATURES if not f.startswith("top_missing"))))
        print_table("Question step = best chunk only", leave_one_out(pools, question_features_used=("best_logit",)))
        print_table("Without the second model's cosine in the question step (best_second)", leave_one_out(
            pools, question_features_used=tuple(f for f in QUESTION_FEATURES if f != "best_second")))
        print_table("Without the second model (USE)", leave_one_out(
            pools, chunk_features_used=tuple(f for f in CHUNK_FEATURES if not f.startswith("second")),
            question_features_used=tuple(f for f in QUESTION_FEATURES if f != "best_second")))
        plain = pools_for(False)
        print_table("Without the thesaurus", leave_one_out({k: v for k, v in plain.items() if group_of(k) not in HELD_OUT}))
        print_table("Without the value guard (X是多少 answered from a clause that states no value)", without_value_guard(pools))
    chunk, question = fit([p for v in pools.values() for p in v])
    model = choose(pools, chunk, question)
    if held_out:
        print_table("Held out (never fitted on): the model fitted on all the other corpora",
                    measured_with(model, held_out), first="held-out corpus")
    if args.write:
        model = replace(model, fitted_on=tuple(dict.fromkeys(group_of(k) for k in pools)), notes=(
            "Fitted by bench/fit_answerability.py on all corpora but the held-out ones; thresholds chosen on them. "
            "Per-corpus figures reported with that corpus left out: docs/retrieval.md."))
        target = ROOT / "rag_core/search/resources/answerability.json"
        target.write_text(json.dumps(model.to_dict(), ensure_ascii=False, indent=1, allow_nan=False) + "\n", encoding="utf-8")
        print(f"\nwrote {target.relative_to(ROOT)}: question threshold {model.question_threshold:g}, "
              f"chunk threshold {model.chunk_threshold:g}")
        print_table("All fitted corpora, fitted on all (in-sample, for reference only)",
                    measured_with(model, {k: v for k, v in pools.items() if "/" not in k}))

if __name__ == "__main__":
    main()
