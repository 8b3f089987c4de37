"""Calibrate and measure the standard-answer match rule (rag_core/insights/matching.py).

For every question of `tests/data/standard_answers.jsonl` (a literal eval question
with two paraphrases written for it) a standard answer is assumed; every other
question of its corpus's eval set (samples, held-out, four real corpora) is
asked against it (a standard answer lives in one store). A capture of a question whose expected clauses differ from the
standard question's is a false capture (goal 0); a paraphrase that matches is a
hit. The floors are fitted on the samples/held-out/labour_law/local_rules
entries (the smallest agreement and cosine floors with no false capture, the
one with most paraphrase hits) and reported on social_insurance/wages.

Run: HF_HUB_OFFLINE=1 .venv/bin/python bench/calibrate_standard_answers.py  (about 2 minutes on 2 cores)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag_core.insights.matching import agreement, is_match, wording  # noqa: E402
from rag_core.search.embedding import load_embedder  # noqa: E402

CORPORA = {"samples": ROOT / "tests/data/eval.jsonl", "heldout": ROOT / "tests/data/heldout/eval.jsonl"}
CORPORA |= {p.parent.name: p for p in sorted((ROOT / "tests/data/real").glob("*/eval.jsonl"))}
REPORT_ON = {"social_insurance", "wages"}
# Pairs from two corpora, read and judged different questions (the labels cannot say it across corpora);
# found when a standard answer written for labour_law was asked on the samples store.
HARD_NEGATIVES = [("劳动法规定的试用期最长可以约定多久？", "续订劳动合同可以再约定试用期吗？")]
# Written and judged by a reviewer: one word apart, a different right, party, act or quantity (each was
# captured by the rule before the scope-word, quantity and swap vetoes of matching.py).
HARD_NEGATIVES += [
    ("陪产假有多少天？", "产假有多少天？"), ("陪产假几天", "产假几天"), ("工作满1年有几天年假", "工作满10年有几天年假"),
    ("工作满10年年假几天", "工作满1年年假几天"), ("员工辞职需要提前几天", "公司辞退员工需要提前几天"),
    ("主动辞职有没有补偿", "被辞退有没有补偿"), ("离职要提前多久通知", "入职要提前多久通知"), ("怎么申请调休", "怎么取消调休"),
    ("加班餐费怎么报销", "出差餐补怎么报销"), ("婚假有几天", "丧假有几天"), ("迟到扣多少钱", "早退扣多少钱"),
    ("2023年的年终奖什么时候发", "2024年的年终奖什么时候发"), ("年假可以折现吗", "年假可以延期吗"),
    ("打车可以报销吗", "坐飞机可以报销吗"), ("转正需要多久", "转岗需要多久"),
]


def answer_keys(row: dict) -> set[str]:
    return set(row.get("expected") or []) | {x for group in row.get("any_of", []) for x in group}


def pairs(embedder):
    questions: dict[str, set[str]] = {}
    corpus_of: dict[str, str] = {}
    for corpus, path in CORPORA.items():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                questions[row["question"]] = answer_keys(row)
                corpus_of[row["question"]] = corpus
    standards = [json.loads(line) for line in (ROOT / "tests/data/standard_answers.jsonl").read_text("utf-8").splitlines()]
    texts = list(dict.fromkeys([*questions, *(p for s in standards for p in s["paraphrases"])]))
    texts += [q for pair in HARD_NEGATIVES for q in pair if q not in texts]
    vectors = dict(zip(texts, np.vstack([embedder.embed_query(t) for t in texts])))
    words = {t: wording(t) for t in texts}
    positives, negatives = [], []
    for s in standards:
        std, keys = s["question"], questions[s["question"]]
        for p in s["paraphrases"]:
            positives.append((s["corpus"], float(vectors[p] @ vectors[std]), agreement(words[std], words[p]), std, p))
        for q, other in questions.items():
            if q != std and corpus_of[q] == s["corpus"] and not (other & keys):
                negatives.append((s["corpus"], float(vectors[q] @ vectors[std]), agreement(words[std], words[q]), std, q))
    for std, q in HARD_NEGATIVES:
        negatives.append(("hand-judged", float(vectors[q] @ vectors[std]), agreement(words[std], words[q]), std, q))
    return positives, negatives


def count(items, cosine_floor, agreement_floor):
    return sum(is_match(c, a, cosine_floor=cosine_floor, agreement_floor=agreement_floor) for _, c, a, *_ in items)


def main() -> None:
    positives, negatives = pairs(load_embedder("e5"))
    fit_pos = [p for p in positives if p[0] not in REPORT_ON]
    fit_neg = [n for n in negatives if n[0] not in REPORT_ON]
    best = None
    for cosine_floor in np.arange(0.85, 0.97, 0.005):
        for agreement_floor in (0.5, 0.6, 0.67, 0.75, 0.8, 1.0):
            if count(fit_neg, cosine_floor, agreement_floor):
                continue
            score = (count(fit_pos, cosine_floor, agreement_floor), -cosine_floor, -agreement_floor)
            if best is None or score > best[0]:
                best = (score, round(float(cosine_floor), 3), agreement_floor)
    assert best is not None
    _, cosine_floor, agreement_floor = best
    print(f"fitted floors: cosine {cosine_floor}, agreement {agreement_floor}")
    for name, chosen in (("fit", lambda c: c not in REPORT_ON), ("report", lambda c: c in REPORT_ON)):
        pos = [p for p in positives if chosen(p[0])]
        neg = [n for n in negatives if chosen(n[0])]
        print(f"{name}: paraphrases matched {count(pos, cosine_floor, agreement_floor)}/{len(pos)}, "
              f"false captures {count(neg, cosine_floor, agreement_floor)}/{len(neg)}")
    print("cosine alone at the same floor, all entries: false captures",
          sum(c >= cosine_floor for _, c, *_ in negatives), "/", len(negatives))
    for _, c, a, std, q in sorted(negatives, key=lambda n: -min(n[1] / cosine_floor, n[2] / agreement_floor))[:5]:
        print(f"  closest negative: {c:.3f} {a:.2f} {std} | {q}")
    for _, c, a, std, p in positives:
        if not is_match(c, a, cosine_floor=cosine_floor, agreement_floor=agreement_floor):
            print(f"  missed paraphrase: {c:.3f} {a:.2f} {std} | {p}")


if __name__ == "__main__":
    main()
