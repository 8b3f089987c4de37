"""How `ask` searches a follow-up it made standalone tentatively: the glued search is taken only when it reads
clearly more answerable (split from `facade.conversations`, kept under the 400-line limit)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..conversations.followup import (
    CLARIFIES,
    CONTINUES,
    MODEL_REWRITE,
    NO_TOPIC,
    NOUNLESS,
    Rewrite,
    keeps_own_words,
    names_unknown_subject,
)
from ..conversations.turn_context import TurnContext
from ..types import Principal, SearchResult
from .core import FacadeCore

# A tentative rewrite is taken only when the glued search reads clearly more answerable, by this much: the
# glued text contains the last (answerable) question, so a tie says nothing. First chosen for 那… questions
# (open sessions: 4 of 5 such follow-ups against 0 of 8 complete questions), then for every tentative reason
# in stop 40 (fresh part: complete questions as typed 0.97 -> 0.98; docs/retrieval.md "Stop 40").
GLUE_MARGIN = 0.1
# A question with no topic word of its own (要提前几天申请, 钱什么时候到手) leans on the last turn more often than
# one that names a noun; its glued search needs a smaller lead. Stop 58: open follow-ups 0.74 -> 0.78; on the
# parts not written against, switches follow-ups 100 -> 101 of 143 and cited 216 -> 217 of 303, fresh and
# followups unchanged, complete questions as typed unchanged on all three (0.0 glued 2 complete ones there).
NOUNLESS_MARGIN = 0.03


class FollowupSearch(FacadeCore):
    """Mixin of `Assistant` (through `ConversationActions`): the search step of a conversation turn."""

    search: Any  # `Assistant.search`

    def _search_turn(self, context: TurnContext, *, role: str | None, actor: Principal) -> SearchResult:
        """Search the turn. A tentative rewrite (a question that reads like a fragment but may stand alone) is
        taken only when the question as typed names no noun the policies never use (a verb they never use,
        换成 or 休不完, says what is asked about the topic, not that the topic is new; a question opening with
        那… says it goes on, so it is not held to this), the rewrite has hits
        and reads clearly more answerable (`GLUE_MARGIN`; `NOUNLESS_MARGIN` for a question with no topic word), and its best hits still name the question's own
        topic (`keeps_own_words`): a complete question is never glued on grammar alone."""
        rewrite = context.rewrite
        if not rewrite.tentative:
            return self.search(rewrite.question, role=role, actor=actor)
        asked = context.asked.strip()
        typed = self.search(asked, role=role, actor=actor)
        unused = "（大模型的改写未采用）" if rewrite.by_model else ""
        if names_unknown_subject(asked, typed.unknown_words) and rewrite.reason != CONTINUES:
            context.rewrite = Rewrite(asked, "", decision=f"问题里有制度没有用过的名词，是新话题，不改写{unused}")
            return typed
        glued = self.search(rewrite.question, role=role, actor=actor)
        # a clarification (我是说二线城市) says itself that it corrects the last question: the only doubt is whether
        # it replaces all of it (我是想问年假), so the glued text needs only to read more answerable, by any margin
        if rewrite.reason == CLARIFIES:
            more_answerable = glued.hit_count and glued.answerable > typed.answerable
        else:
            margin = NOUNLESS_MARGIN if rewrite.reason in (NOUNLESS, NO_TOPIC) else GLUE_MARGIN
            more_answerable = glued.hit_count and glued.answerable >= typed.answerable + margin
        scores = f"（能回答的把握：原问题 {typed.answerable:.2f}，结合上文 {glued.answerable:.2f}）"
        found = [f"{h.chunk.section} {h.chunk.text}" for h in glued.hits[:3]]
        if more_answerable and keeps_own_words(asked, found):
            context.rewrite = replace(rewrite, tentative=False, decision="结合上文后更像制度回答的问题" + scores)
            return glued
        if more_answerable:
            why = "结合上文后找到的只是上文的话题，不含这个问题自己的词"
        elif glued.hit_count:
            why = "按原问题检索更像制度回答的问题"
        else:
            why = "结合上文也没有命中"
        tried = f"{rewrite.reason}，{MODEL_REWRITE}" if rewrite.by_model else rewrite.reason
        context.rewrite = Rewrite(asked, "", decision=f"可能承接上文（{tried}），但{why}，不改写{scores}")
        return typed
