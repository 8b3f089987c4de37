"""Pure metrics for a JSONL question set (no IO beyond reading the file).

Each line: {"question", "category": literal|paraphrase|near_miss|absent, "expected": [substrings]}.
A hit is relevant when its text holds every expected substring; `"any_of": [[...], [...]]`
lists alternatives instead (the same rule written in two regulations). A
near_miss row with `"answer_should_refuse": true` is a near-keyword trap: its
words touch a clause that does not answer it.

Per category: recall@1/3/5, MRR and the zero-hit rate (the number that matters
for absent questions), and — when the run also asked the questions —
`refusal_rate` (the offline answer says the policy does not cover it) and
`answered_rate` (it does not refuse a question the policies answer). When an
LLM wrote the answers, its citations were checked: `unsupported_rate` is the
share of answers with a sentence whose numbers none of its cited clauses
states (shown as 未在资料中找到), `invalid_citation_rate` the share that cited a
[资料N] the prompt did not have. A row chat searches nothing for (small talk, or
only telling something about the asker: `not_searched`) is counted in `n` and
`not_searched`, and in no rate.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..answer.answering import is_refusal  # noqa: F401 - the benches and tests read refusals of stored answers here
from ..errors import RagError, explain_json_error
from ..text.pii import redact_text

CATEGORIES = ("literal", "paraphrase", "near_miss", "absent")


class QuestionSetError(RagError, ValueError):
    """A question set that cannot be read; one Chinese line naming the file (and the line)."""


# json's messages in the words a person fixing the row needs (as settings.json's are said); the position is added
def json_problem(exc: json.JSONDecodeError, line: int) -> str:
    """Where and what, in Chinese, for a line of a JSONL file (the parser counts one line only)."""
    return f"第 {line} 行第 {exc.colno} 列{explain_json_error(exc.msg)}"


def jsonl_lines(text: str) -> list[str]:
    """The lines of a JSONL text, split at "\n" only (a "\r" before it is JSON whitespace, left to the parser).

    json.dumps(..., ensure_ascii=False) writes U+2028/U+2029/U+0085 raw inside a string, which is valid JSONL;
    str.splitlines broke the row there and a good set was refused as 引号没有成对. Line n is item n - 1."""
    return text.split("\n")


def load_questions(path: Path, shown: str | None = None) -> list[dict]:
    """Rows of a JSONL question set, each with `alternatives` (lists of substrings, any one list must match).

    `shown`: the name a refusal gives the file (an upload's own name, not the server path it was kept under)."""
    where = path if shown is None else shown
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise QuestionSetError(f"{where}: 不是 UTF-8 文本，题目集应为 UTF-8 编码的 JSONL 文件") from None
    except IsADirectoryError:
        raise QuestionSetError(f"{where}: 是一个文件夹，请给出题目集文件（.jsonl）") from None
    except OSError as exc:
        raise QuestionSetError(f"{where}: 无法读取（{exc.strerror or exc}）") from None
    rows = []
    for n, line in enumerate(jsonl_lines(text), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionSetError(f"{where}:{n}: 不是合法的 JSON（{json_problem(exc, n)}）") from exc
        except (ValueError, RecursionError):  # a 5,000-digit number, arrays nested 100,000 deep: English, no line
            raise QuestionSetError(f"{where}:{n}: 无法读取这一行（数字位数过多或嵌套层数过深），请检查这一行的内容") from None
        if not isinstance(row, dict) or "question" not in row or row.get("category") not in CATEGORIES:
            raise QuestionSetError(f"{where}:{n}: 每行应为一个对象，需要 question 和 category（{'/'.join(CATEGORIES)}）")
        row.setdefault("expected", [])
        if not isinstance(row["question"], str) or not row["question"].strip():
            raise QuestionSetError(f"{where}:{n}: question 应为非空文本")
        if not _substrings(row["expected"]) or not (
                isinstance(row.get("any_of", []), list) and all(_substrings(a) for a in row.get("any_of", []))):
            # a string would be read character by character: "年假5天" matches any clause holding 年
            raise QuestionSetError(f"{where}:{n}: expected 应为文本的列表（例如 [\"年假5天\"]），"
                                   "any_of 应为这样的列表组成的列表")
        if not isinstance(row.get("answer_should_refuse", False), bool):  # "false" was read as True
            raise QuestionSetError(f"{where}:{n}: answer_should_refuse 应为 true 或 false（不加引号）")
        row["alternatives"] = [list(a) for a in row.get("any_of", [])] or ([list(row["expected"])] if row["expected"] else [])
        rows.append(row)
    if not rows:  # a run over nothing "passed" and printed a table without a row
        raise QuestionSetError(f"{where}: 题集里没有题目（文件是空的或只有空行）：请每行写一道题，例如 "
                               '{"question": "年假有几天？", "category": "literal", "expected": ["年假"]}')
    return rows


def _substrings(value: object) -> bool:
    """A list of non-empty texts (the substrings an answering clause holds)."""
    return isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value)


def first_relevant_rank(texts: list[str], alternatives: list[list[str]]) -> int | None:
    """1-based rank of the first text holding every substring of one alternative."""
    if alternatives and isinstance(alternatives[0], str):  # a plain list of substrings
        alternatives = [alternatives]  # type: ignore[list-item]
    for rank, text in enumerate(texts, start=1):
        masked = None  # an uploaded set's substrings are masked whole (`masked_question_set`); a clause kept a
        # category its uploader chose not to mask (redact_disabled): a placeholder is looked for in it masked too

        def holds(part: str, text: str = text) -> bool:
            nonlocal masked
            if part in text:
                return True
            if "[" not in part:
                return False
            masked = redact_text(text) if masked is None else masked
            return part in masked

        if any(alt and all(holds(e) for e in alt) for alt in alternatives):
            return rank
    return None


def _rate(rows: list[dict], key: str) -> float:
    return round(sum(1 for r in rows if r[key]) / len(rows), 3)


def summarise(results: list[dict]) -> dict[str, dict[str, float]]:
    """Per-category metrics of `run_eval` results."""
    metrics: dict[str, dict[str, float]] = {}
    for cat in CATEGORIES:
        listed = [r for r in results if r["category"] == cat]
        if not listed:
            continue
        m: dict[str, float] = {"n": len(listed)}
        rows = [r for r in listed if not r.get("not_searched")]  # chat searches nothing there: no rate counts them
        if len(rows) < len(listed):
            m["not_searched"] = len(listed) - len(rows)
        if not rows:
            metrics[cat] = m
            continue
        graded = [r for r in rows if r["alternatives"] and cat in ("literal", "paraphrase")]
        if graded:
            for k in (1, 3, 5):
                m[f"recall@{k}"] = round(sum(1 for r in graded if r["rank"] is not None and r["rank"] <= k) / len(graded), 3)
            m["mrr"] = round(sum(1 / r["rank"] for r in graded if r["rank"]) / len(graded), 3)
        m["zero_hit_rate"] = round(sum(1 for r in rows if r["hit_count"] == 0) / len(rows), 3)
        asked = [r for r in rows if r.get("refused") is not None]
        if asked and cat == "near_miss":
            traps = [r for r in asked if r.get("answer_should_refuse")]
            if traps:
                m["refusal_rate"] = _rate(traps, "refused")
        elif asked and cat in ("literal", "paraphrase"):
            m["answered_rate"] = round(sum(1 for r in asked if not r["refused"]) / len(asked), 3)
        checked = [r for r in rows if (r.get("citations") or {}).get("checked")]
        if checked:
            m["unsupported_rate"] = round(sum(1 for r in checked if r["citations"]["unsupported"]) / len(checked), 3)
            m["invalid_citation_rate"] = round(sum(1 for r in checked if r["citations"]["removed"]) / len(checked), 3)
        metrics[cat] = m
    return metrics


def citation_totals(results: list[dict]) -> dict[str, int]:
    """Over the whole set: answers checked, sentences marked 未在资料中找到, [资料N] removed."""
    checked = [r["citations"] for r in results if (r.get("citations") or {}).get("checked")]
    return {
        "answers_checked": len(checked),
        "answers_with_unsupported": sum(1 for c in checked if c["unsupported"]),
        "unsupported_sentences": sum(len(c["unsupported"]) for c in checked),
        "invalid_citations_removed": sum(len(c["removed"]) for c in checked),
    }


COLUMNS = [
    "n", "not_searched", "recall@1", "recall@3", "recall@5", "mrr", "zero_hit_rate", "refusal_rate", "answered_rate",
    "unsupported_rate", "invalid_citation_rate",
]


# what the retrieval test page and `eval` call each measure and category; the technical names stay in --json
METRIC_LABELS = {
    "n": "题数",
    "not_searched": "问答页不检索的题数",
    "recall@1": "第 1 条就对",
    "recall@3": "前 3 条里有正确条款",
    "recall@5": "前 5 条里有正确条款",
    "mrr": "正确条款的平均排名得分",
    "zero_hit_rate": "一条也没找到的比例",
    "refusal_rate": "该拒答时拒答的比例",
    "answered_rate": "该回答时回答了的比例",
    "unsupported_rate": "含未在资料中找到的句子的比例",
    "invalid_citation_rate": "引用了不存在资料的比例",
}
CATEGORY_LABELS = {"literal": "原文提问", "paraphrase": "换种说法", "near_miss": "相近但不适用", "absent": "制度未涉及"}


def metrics_table(metrics: dict[str, dict[str, float]]) -> str:
    """Markdown table of the per-category metrics in the page's words (columns no row has are left out): the
    command printed recall@1 and near_miss where the page says 第 1 条就对 and 相近但不适用 (review 349)."""
    cols = [c for c in COLUMNS if any(c in m for m in metrics.values())]
    lines = ["| 类别 | " + " | ".join(METRIC_LABELS.get(c, c) for c in cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for cat, m in metrics.items():
        cells = [f"{m[c]:g}" if c in m else "–" for c in cols]
        lines.append(f"| {CATEGORY_LABELS.get(cat, cat)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
