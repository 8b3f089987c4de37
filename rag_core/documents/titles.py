"""Whether a file's metadata title names the policy, or a tool's default left it there."""

from __future__ import annotations

import re

from .formats import Line

_TWO_HAN = re.compile(r"[\u4e00-\u9fff]{2}")


def named_in_text(title: str, lines: list[Line], *, machine_made: bool = False) -> str:
    """The metadata title if the text bears it out, else "": a scanner app's or Word's default name
    (CamScanner 01-05-2024 10.20, 文档1) shares no two Chinese characters with a Chinese policy, whose own heading
    then names it (review 381). A Word title is one HR typed (年假制度（2024版） over 第一条 …年假…): one shared pair keeps
    it. `machine_made` (a PDF's, which tools fill in: 扫描全能王…): half its pairs, or its closing name and one more
    (one shared word, 扫描 in 扫描件, kept it: review 383). Two Chinese characters and no Latin letter name nothing (文档1;
    HR手册 does). A text without Chinese keeps any title; one given way to costs nothing worse than the heading."""
    text = "".join(line.text for line in lines[:200])
    if not title or not re.search(r"[\u4e00-\u9fff]", text):
        return title
    pairs = [title[i : i + 2] for i in range(len(title) - 1) if _TWO_HAN.fullmatch(title[i : i + 2])]
    shared = [pair in text for pair in pairs]
    if len(re.findall(r"[\u4e00-\u9fff]", title)) < 3 and not re.search(r"[A-Za-z]", title):
        return ""  # 文档1: no policy is named in two characters alone (HR手册 is: review 387 #6)
    if not machine_made:
        return title if any(shared) else ""
    # half its pairs in the text, or its closing name (手册, 制度) and one more: 深圳华信科技有限公司员工手册 over 本手册
    return title if shared and (2 * sum(shared) >= len(shared) or (shared[-1] and sum(shared) >= 2)) else ""
