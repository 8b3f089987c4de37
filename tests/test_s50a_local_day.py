"""One owner for the office's day of a stored stamp: the catalog (documents), which insights reads it from."""

from __future__ import annotations

import re
from pathlib import Path
from zoneinfo import ZoneInfo

from rag_core.documents import catalog
from rag_core.insights import days

ROOT = Path(__file__).resolve().parent.parent / "rag_core"
BEIJING = ZoneInfo("Asia/Shanghai")


def test_the_day_of_a_stamp_is_defined_once_in_the_documents_stage():
    owners = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
              if re.search(r"^def (local_day|_day_at|_in_zone|in_zone)\b", p.read_text(encoding="utf-8"), re.M)]
    assert owners == ["documents/catalog.py"]
    assert days.local_day is catalog.local_day


def test_a_stamp_is_read_as_utc_whether_or_not_it_carries_its_offset():
    assert catalog.local_day("2026-12-04T23:30:00+00:00", BEIJING) == "2026-12-05"
    assert catalog.local_day("2026-12-04T23:30:00", BEIJING) == "2026-12-05"  # rows are stamped in UTC
    assert catalog.local_day("2026-12-04T23:30:00", None) == "2026-12-04"
    assert catalog.local_day("garbled stamp", BEIJING) == "garbled st"
    assert days.local_minute("2026-12-04T23:30:00+00:00", BEIJING) == "2026-12-05 07:30"
