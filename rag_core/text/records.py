"""Table rows as self-describing lines: "城市：兰州，住宿标准（元/晚）：480".

Why: a row "兰州 | 二类 | 480 | 100" means nothing without its header, and a chunk
that holds the row but not the header cannot answer 兰州住宿每晚多少. Writing each
row as header：value pairs makes every row carry its own meaning, for BM25, the
embedder and the model alike. The line format is defined here, in the lowest
stage, because parsing writes it and the prompt reads it back as a small table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

FIELD_SEP = "，"  # not 。；: every sentence splitter here keeps a row as one sentence
KEY_SEP = "："
_KEY_BAD = re.compile(f"[{KEY_SEP}{FIELD_SEP}；\n]")
_FIELD = re.compile(rf"^([^{KEY_SEP}{FIELD_SEP}；\n]{{1,40}}){KEY_SEP}(.*)$")


def record_line(pairs: Sequence[tuple[str, str]]) -> str:
    """One row as "header：value，header：value"; empty values are left out, a ；in a value becomes ，."""
    fields = []
    for key, value in pairs:
        value = re.sub(r"[；;]", FIELD_SEP, " ".join(str(value).split()))
        if not value:
            continue
        key = _KEY_BAD.sub(" ", " ".join(str(key).split())).strip()[:40] or "列"
        fields.append(f"{key}{KEY_SEP}{value}")
    return FIELD_SEP.join(fields)


def parse_record(line: str) -> list[tuple[str, str]] | None:
    """The (header, value) pairs of a record line, or None when it is not one (two fields at least).

    A piece without "header：" continues the value before it (a value may hold commas).
    """
    pairs: list[tuple[str, str]] = []
    for part in line.strip().split(FIELD_SEP):
        match = _FIELD.match(part)
        if match:
            pairs.append((match.group(1), match.group(2)))
        elif pairs:
            pairs[-1] = (pairs[-1][0], pairs[-1][1] + FIELD_SEP + part)
        else:
            return None
    return pairs if len(pairs) >= 2 else None


def records_table(lines: Sequence[str]) -> tuple[list[str], list[list[str]]] | None:
    """Headers (in first-seen order) and one row per record line; None unless every line is a record."""
    parsed = [parse_record(line) for line in lines if line.strip()]
    if not parsed or any(p is None for p in parsed):
        return None
    headers: list[str] = []
    for pairs in parsed:
        headers += [k for k, _ in pairs if k not in headers]  # type: ignore[union-attr]
    rows = [[dict(pairs).get(h, "") for h in headers] for pairs in parsed]  # type: ignore[arg-type]
    return headers, rows


def _md_cell(text: str) -> str:
    return text.replace("|", "／").strip()


def as_markdown(text: str) -> str:
    """Every run of two or more record lines rewritten as a markdown table; other lines unchanged."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and parse_record(lines[j]) is not None:
            j += 1
        table = records_table(lines[i:j]) if j - i >= 2 else None
        if table is None:
            out.append(lines[i])
            i += 1
            continue
        headers, rows = table
        out.append("| " + " | ".join(_md_cell(h) for h in headers) + " |")
        out.append("|" + "---|" * len(headers))
        out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
        i = j
    return "\n".join(out)
