"""Load the 差旅报销制度 text of design article 000 from ../shared/seeds at test time.

The text is read, not copied into this repo: it is the seed's own fixture.
"""

from __future__ import annotations

import re
from pathlib import Path

SEED_DIRS = [Path(__file__).resolve().parents[1].parent / "shared" / "seeds", Path("/work/shared/seeds")]


def seed_travel_policy() -> str | None:
    for folder in SEED_DIRS:
        for path in sorted(folder.glob("000_*.txt")) if folder.is_dir() else []:
            match = re.search(r'KNOWLEDGE_DOC = """(.*?)"""', path.read_text(encoding="utf-8"), re.S)
            if match:
                return match.group(1)
    return None


# The seven questions of §3.3 and where their answers live (None: must get zero hits).
SEED_QUESTIONS = [
    ("住宿最多能报多少?", "第一条"),
    ("市内交通要发票吗?", "第三条"),
    ("个人抬头的发票行不行?", "第六条"),
    ("打车费能报吗?", "第三条"),
    ("加班餐费怎么报?", "near_miss"),
    ("年假有几天?", None),
    ("员工体检福利有哪些?", None),
]
