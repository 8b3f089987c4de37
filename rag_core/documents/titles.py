"""Whether a file's metadata title names the policy, or a tool's default left it there."""

from __future__ import annotations

import re

from .formats import Line

_TWO_HAN = re.compile(r"[\u4e00-\u9fff]{2}")


def named_in_text(title: str, lines: list[Line]) -> str:
    """The metadata title if the text bears it out, else "": a scanner app's or Word's default name
    (CamScanner 01-05-2024 10.20, 扫描全能王…, 文档1) is not written in a Chinese policy, whose own heading then
    names it (review 381). Borne out: three Chinese characters or more, and half its character pairs in the text
    (one shared word, 扫描 in 扫描件 or 文档 in 本文档, was enough before review 383). A text without Chinese keeps
    any title; a title given way to costs nothing worse than the policy's own heading."""
    text = "".join(line.text for line in lines[:200])
    if not title or not re.search(r"[\u4e00-\u9fff]", text):
        return title
    pairs = {title[i : i + 2] for i in range(len(title) - 1) if _TWO_HAN.fullmatch(title[i : i + 2])}
    if len(re.findall(r"[\u4e00-\u9fff]", title)) < 3 or not pairs:
        return ""
    return title if 2 * sum(pair in text for pair in pairs) >= len(pairs) else ""
