"""Whether a tentative follow-up is searched glued to the last question or as typed (`Rewrite.tentative`).

Both are searched; the glued reading is taken when it reads clearly more answerable (`GLUE_MARGIN`), or when
it keeps to the conversation's topic while the question alone leaves it: the question alone finds its best
clause in a policy the last turn's answer did not come from, and glued it finds one the last answer came from,
no less answerable. A question that names no topic of its own (要提前几天申请 after 婚假) then goes on with
the conversation's, instead of with whichever policy happens to say 提前…天申请. Its own words must still be
in what the glued search finds (`followup.keeps_own_words`, checked by the facade).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..types import SearchResult
from .followup import CONTENT_TAGS, content_words, without_lead

# The glued text contains the last (answerable) question, so a tie says nothing: it must read this much more
# answerable. First chosen for 那… questions (open sessions: 4 of 5 such follow-ups against 0 of 8 complete
# questions), then for every tentative reason in stop 40 (fresh part: complete questions as typed 0.97 -> 0.98).
GLUE_MARGIN = 0.1
STAYS = "结合上文仍在上一轮的制度里，单独检索却到了别的制度"


@dataclass(frozen=True)
class Reading:
    """One search of a turn, as the decision reads it."""

    answerable: float
    hit_count: int
    top_doc: str = ""  # the document of its best hit ("" when none)


@dataclass(frozen=True)
class LastAnswer:
    """Where the last question's answer came from: its best hits' documents and clauses."""

    docs: tuple[str, ...] = ()
    text: str = ""


def names_nothing_new(question: str, last: LastAnswer) -> bool:
    """Every content word of `question` (its opening 那 / 要是 … aside) is in the last answer's clauses."""
    return all(word in last.text for word in content_words(without_lead(question), CONTENT_TAGS))


def stays_on_topic(question: str, typed: Reading, glued: Reading, last: LastAnswer) -> bool:
    """Glued, the question finds its best clause where the last answer's came from; alone, somewhere else; and
    it names nothing the last answer's clauses do not."""
    return (bool(glued.top_doc) and glued.top_doc in last.docs and typed.top_doc not in last.docs
            and names_nothing_new(question, last))


def reads_better(question: str, typed: Reading, glued: Reading, last: LastAnswer, *, clarifies: bool = False) -> bool:
    """The glued reading is the better one (before `keeps_own_words`). A clarification (我是说二线城市) says
    itself that it corrects the last question, so it needs only to read more answerable, by any margin."""
    if not glued.hit_count:
        return False
    if clarifies:
        return glued.answerable > typed.answerable
    return glued.answerable >= typed.answerable + GLUE_MARGIN or (
        stays_on_topic(question, typed, glued, last) and glued.answerable > typed.answerable)


def reading(result: SearchResult) -> Reading:
    """What the decision reads of a search."""
    return Reading(result.answerable, result.hit_count, result.hits[0].chunk.doc_id if result.hits else "")


def answered_from(trace: dict) -> LastAnswer:
    """Where a stored turn's answer came from (`AskTrace.to_dict`): its best hits' documents and clauses."""
    hits = [h for h in (trace.get("hits") or [])[:EARLIER_HITS] if isinstance(h, dict)]
    return LastAnswer(tuple(dict.fromkeys(str(h.get("doc_id", "")) for h in hits)),
                      "\n".join(f"{h.get('section', '')} {h.get('text', '')}" for h in hits))


EARLIER_HITS = 3  # the last turn's best hits whose documents count as its topic
