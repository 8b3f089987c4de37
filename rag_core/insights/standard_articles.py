"""The articles (第X条) a standard answer's clause names in a document, and each article's text in a version.

A clause such as 《年假制度》第一条 quotes no words of the policy, so nothing it says can be looked for in a new
version; the article it names can. The headings are read by the one module that owns them
(`documents.parsing.legal_heading`), and 第1条, 第一条 and 第１条 are the same article.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from ..documents.parsing import legal_heading
from ..text.numerals import chinese_numeral
from ..types import Chunk
from .standard_refs import QUOTED, names_document

_NUMBER = re.compile(r"第[\s\u3000]*([^\s\u3000条]+)[\s\u3000]*条")
_SPACE = re.compile(r"\s+")


def article_key(text: str) -> int | str | None:
    """The article number `text` opens with (第五条 … -> 5), or None when it opens no article."""
    heading = legal_heading(text)
    if heading is None or heading[0] != 3 or not (m := _NUMBER.match(heading[1])):
        return None
    number = unicodedata.normalize("NFKC", m.group(1))
    return int(number) if number.isdigit() else chinese_numeral(number) or number


def _articles_in(text: str) -> set[int | str]:
    keys = (article_key(text[m.start():]) for m in re.finditer("第", text))
    return {k for k in keys if k is not None}


def named_articles(clause: str, titles: Sequence[str], known: Sequence[str] = ()) -> set[int | str] | None:
    """The articles `clause` names in the document titled `titles` (what follows its 《name》, up to the next
    《》; or the whole clause when it names the document bare); None when the clause does not name the document."""
    marks = list(QUOTED.finditer(clause))
    segments = [clause[m.end():(marks[i + 1].start() if i + 1 < len(marks) else len(clause))]
                for i, m in enumerate(marks) if names_document([m.group(0)], titles, known)]
    if not segments and names_document([clause], titles, known):
        segments = [QUOTED.sub(" ", clause)]
    if not segments:
        return None
    return set().union(*(_articles_in(s) for s in segments))


def article_texts(chunks: Iterable[Chunk]) -> dict[int | str, str]:
    """Article number -> its text in one version (the chunks under its heading, overlaps dropped, whitespace
    removed): a re-wrapped line is the same article. The heading-only lines the chunker glued before the article
    (the document's title, a chapter: `chunking.chunk_sections`) are not its text: a new edition's title is no
    change to 第一条."""
    parts: dict[int | str, list[str]] = {}
    for chunk in chunks:
        keys = [k for k in (article_key(p.strip()) for p in chunk.section.split(">")) if k is not None]
        if keys:
            text = chunk.text[chunk.overlap_chars:]
            if keys[-1] not in parts:
                text = _from_heading(text, keys[-1])
            parts.setdefault(keys[-1], []).append(text)
    return {k: _SPACE.sub("", "\n".join(v)) for k, v in parts.items()}


def _from_heading(text: str, key: int | str) -> str:
    """`text` from the line that opens article `key` on; all of it when no line does (a heading kept only in the
    section path)."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if article_key(line.strip()) == key), 0)
    return "\n".join(lines[start:])
