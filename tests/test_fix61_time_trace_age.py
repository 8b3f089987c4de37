"""Review 61 D5: a reopened turn's 技术细节 → 记忆得分 measures 年龄(天) to the moment of the answer, as its 新鲜度 and
得分 were; the memories page (no time given) still measures to now."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rag_core.memory.scoring import freshness
from rag_core.types import MemoryHit
from ui.trace_view import memories_frame

HALF_LIFE = 30.0


def _told(created: datetime, answered: datetime) -> MemoryHit:
    fresh = freshness(created, answered, HALF_LIFE)  # what the answer's trace stored
    return MemoryHit("m1", "我在上海办公室", "episode", 0.8, 0.9, fresh, 0.8 * 0.9 * fresh,
                     created.isoformat(timespec="seconds"))


def test_a_stored_turn_measures_memory_age_at_its_answer():
    answered = datetime.now(UTC) - timedelta(days=30)  # a turn answered a month ago, reopened now
    hit = _told(answered - timedelta(days=2), answered)
    row = memories_frame([hit], at=answered.isoformat(timespec="seconds")).iloc[0]
    assert row["年龄(天)"] == 2.0
    assert abs(row["新鲜度"] - 0.5 ** (row["年龄(天)"] / HALF_LIFE)) < 0.01


def test_the_memories_page_measures_to_now():
    created = datetime.now(UTC) - timedelta(days=10)
    row = memories_frame([_told(created, datetime.now(UTC))]).iloc[0]
    assert row["年龄(天)"] == 10.0


def test_a_turn_time_that_does_not_parse_measures_to_now():
    created = datetime.now(UTC) - timedelta(days=3)
    assert memories_frame([_told(created, datetime.now(UTC))], at="").iloc[0]["年龄(天)"] == 3.0
    assert memories_frame([_told(created, datetime.now(UTC))], at="soon").iloc[0]["年龄(天)"] == 3.0
