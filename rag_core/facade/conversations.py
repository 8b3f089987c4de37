"""Conversation actions: follow-ups made standalone, turns stored with their trace, statements acknowledged.

`ask` (in `assistant.py`) calls `_prepare_turn` before searching and
`_finish_turn` after answering; the pages and the CLI list, rename, delete and
export conversations here. A conversation belongs to the user it was started
for; every action checks the acting `Principal` ("ask") and that ownership.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from ..conversations.export import DEFAULT_TIMEZONE, to_markdown
from ..conversations.followup import (
    CLARIFIES,
    CONTINUES,
    MODEL_REWRITE,
    NO_TOPIC,
    NOUNLESS,
    Rewrite,
    clarify,
    keeps_own_words,
    names_unknown_subject,
    rule_rewrite,
)
from ..conversations.records import trace_from_dict
from ..conversations.rewrite import llm_rewrite
from ..conversations.statements import CHATTER_REPLY, acknowledgement, split_turn, without_requests
from ..conversations.store import Conversation, ConversationError, ConversationStore, ForeignConversation, bounded_title
from ..conversations.turn_context import DELETED_MEANWHILE as DELETED_MEANWHILE  # re-exported (tests read it here)
from ..conversations.turn_context import Remembered, TurnContext, said_back
from ..conversations.undo import UNDONE_NOTE as UNDONE_NOTE  # re-exported: read from here before it moved
from ..conversations.undo import Undone, undone_note
from ..errors import MemoryStoreError, PermissionDenied, StoreDamaged
from ..insights.audiences import UNKNOWN, revealed
from ..memory.forgetting import KEPT, UNTOLD
from ..text.inputs import MAX_QUESTION_CHARS, checked
from ..text.pii import redact_text
from ..types import ACKNOWLEDGED, AskTrace, Principal, SearchResult
from .access import require_owner
from .memories import memory_unreadable, memory_writes
from .owner_names import fresh_conversation_id
from .stores import CONVERSATIONS_FILE, INSIGHTS_FILE, Sweep, feature_store, uses_store

CONTEXT_TURNS = 3  # earlier turns the rewrite and the answer step see
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
STORE_FILE = CONVERSATIONS_FILE
CHATTER = "寒暄或对话本身：不检索，不记忆"


class _WithConversations(Protocol):
    @property
    def conversations(self) -> ConversationStore: ...


def context_audiences(facade: _WithConversations, trace: AskTrace) -> list[tuple[str, ...]]:
    """The audiences of every clause the turns before `trace`'s showed: they were in its prompt (an answer may
    repeat them) and an LLM's rewrite may have folded them into its search question. A store that cannot be
    read counts as unknown (administrators only).

    Engine-internal, for the insights log's audience tags (`facade.insights`): it reads any person's conversation
    unchecked, so it is a function of this module, not a public facade method (review 51i)."""
    if not trace.conversation or trace.turn <= 1:
        return []
    try:
        earlier = [t for t in facade.conversations.turns(trace.conversation, masked_traces=False)
                   if t.turn < trace.turn]
    except (StoreDamaged, ConversationError, sqlite3.Error):
        return [UNKNOWN]
    return revealed([t.trace for t in earlier[-CONTEXT_TURNS:]])


class ConversationActions:
    """Mixin of `Assistant`: conversations that last, and the follow-up and statement steps of `ask`."""

    _conversations: ConversationStore | None = None
    insight_log: Any  # `InsightActions`: the questions a deleted conversation asked leave HR's log with it

    @functools.cached_property
    def _conversation_sweep(self) -> Sweep:
        return Sweep()

    @property
    def conversations(self) -> ConversationStore:
        """The conversation store in the data dir, opened on first use; conversations unused past the retention
        are purged then and again on use at most hourly (the app's facade lives as long as its server)."""
        if self._conversations is None:
            days = float(getattr(self._settings, "conversation_retention_days", 0.0))
            with feature_store(STORE_FILE):
                store = ConversationStore(self._settings.path(STORE_FILE), retention_days=days)
            self._conversations = store
        if self._conversation_sweep.due():
            with feature_store(STORE_FILE):
                self._conversations.purge_older_than()
        return self._conversations

    new_conversation_id = staticmethod(fresh_conversation_id)  # an id `ask` accepts (`owner_names`)

    def _owned(self, conversation_id: str, actor: Principal | None, verb: str, *, turns: bool = False) -> Conversation:
        actor = self._acting(actor, "ask")
        conv = self.conversations.get(conversation_id, with_turns=turns)
        if conv is None:
            raise ConversationError(f"找不到对话：{conversation_id}")
        self._owner_checked(actor, conv.user, verb, f"{conv.user} 的对话 {conversation_id}")
        return conv

    def _owner_checked(self, actor: Principal, owner: str, verb: str, target: str) -> None:
        """Refuse another person's conversations unless the actor may act on everyone's, with one audit row
        either way: a refusal, or an administrator reading or changing someone else's (as with memories)."""
        try:
            require_owner(actor, owner, "ask")
        except PermissionDenied as exc:
            self._audit(actor, "refused", f"{verb} {target}", "refused", str(exc))
            raise
        if owner and owner != actor.user:  # nobody's conversation ("") is an evaluation's: no person to account to
            self._audit(actor, f"conversation.{verb}", target)

    # -- the ask steps -------------------------------------------------------------
    def _prepare_turn(self, question: str, user: str, conversation: str | None) -> TurnContext:
        """Split off a statement, then make a follow-up standalone (LLM when configured, else rules)."""
        parts = split_turn(question)
        turns: list[tuple[str, str, bool]] = []
        warnings: list[str] = []
        stored = False  # the conversation was kept when the question came, even if its turns were all chatter
        if conversation is not None:
            try:
                stored, turns = self._earlier_turns(conversation, user)
            except StoreDamaged as damage:  # answered as a question of its own, and not kept
                warnings.append(f"{damage}（这一轮按单独的问题回答，不会保存）")
                conversation = None
        asked = parts.question
        pairs = [(searched, answer) for searched, answer, _told in turns]
        rewrite = Rewrite(asked)
        previous = turns[-1][0] if turns and not turns[-1][2] else None
        if parts.clarifies:  # 我是说休息日加班: what was meant, in place of what it corrects in the last question
            rewrite = clarify(asked, previous)
        elif asked and previous:
            rewrite = rule_rewrite(asked, previous)
            if rewrite.rewritten and self.llm is not None:
                rewrite = llm_rewrite(self.llm, asked, pairs, rewrite.reason, fallback=rewrite)
        if len(rewrite.question) > MAX_QUESTION_CHARS:  # a long question with its context would be refused whole
            rewrite = Rewrite(asked, "", decision="结合上文后问题超过长度上限，按原问题检索")
        return TurnContext(question, asked, parts.statement, rewrite, pairs, conversation, warnings, parts.chatter,
                           went_on=stored)

    def _earlier_turns(self, conversation: str, user: str) -> tuple[bool, list[tuple[str, str, bool]]]:
        """Whether the asker's own conversation is stored, and its last (searched question, answer, only told
        something) turns. Whether it is stored is told apart from the turns: a conversation of only chatter has
        none to show, yet deleted while answered it must not be brought back (`TurnContext.went_on`).

        A turn that only told something about the person (我是销售部的) searched nothing: what is
        asked next leans on that statement, which memory carries, not on the question before it,
        so the rewrite glues nothing after it. A turn of chatter (好的, 谢谢) is left out: what is asked
        after it goes on from the question before it."""
        with feature_store(STORE_FILE):
            conv = self.conversations.get(conversation)
            if conv is None:
                return False, []
            if conv.user != (user or ""):
                raise ForeignConversation("这个对话属于其他用户，不能在这里继续")
            # questions and answers masked (they reach the prompt); the traces are read only for their tags
            turns = [t for t in self.conversations.turns(conversation, CONTEXT_TURNS + 2, masked_traces=False)
                     if t.trace.get("answerer") != CHATTER][-CONTEXT_TURNS:]
            return True, [(t.search_question or t.question, t.answer, t.trace.get("outcome") == ACKNOWLEDGED)
                          for t in turns]

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

    def _acknowledge_only(self, context: TurnContext, user: str, remember: bool,
                          on_token: Callable[[str], None] | None) -> AskTrace:
        """A turn that only tells something about the person: remember it and say so; nothing is searched.
        A turn of chatter (好的，我知道了) is answered with a short line: nothing searched, nothing remembered."""
        told = remember and user and not context.chatter
        # the telling part: 我怀孕了有些问题想问 keeps 用户怀孕了, not the announcement of a question after it
        remembered = self._remember_statement(user, context.statement or context.question) if told else Remembered()
        answer = CHATTER_REPLY if context.chatter else acknowledgement(said_back(remembered), remembered.failure)
        if remembered.failure:
            context.warnings.append(remembered.failure)
        if on_token:
            on_token(answer)
        trace = AskTrace(
            question=context.question, answer=answer, search=SearchResult(query="", hits=[]), memories=[], prompt="",
            sources=[], prompt_tokens=0, token_budget=self._settings.token_budget, dropped_hits=0,
            answerer=CHATTER if context.chatter else "记住个人信息：不检索", search_question="", acknowledged=list(remembered), outcome=ACKNOWLEDGED,
        )
        return self._store_turn(trace, user, context)

    def _remember_statement(self, user: str, text: str, answer: str = "") -> Remembered:
        """Write the turn back to memory; the facts kept as {"id", "content"}. A damaged memory store keeps
        nothing and says why (`Remembered.failure`): the answer stands without it."""
        from datetime import UTC, datetime

        text = without_requests(text)  # 帮我看看… / 我想请假 ask for something; they tell nothing of the person
        if not text:
            return Remembered()
        try:
            # the acknowledgement repeats what the person said, not the text of an older row it strengthened
            results = self.memory.told_facts(user, text, answer, now=datetime.now(UTC), llm=self.llm)
            rows = [(r, self.memory.get(r[0], user_id=user)) for r in results]
            # a fact the same turn replaced (我在研发部，我调到了市场部) keeps its id for undo but is not said back;
            # the telling (its history entry) lets undo take back this turn's telling, not a later one's
            return Remembered({"id": r[0], "content": r[2]} | ({"replaced": True} if row.deleted else {})
                              | ({"telling": t} if (t := getattr(r, "telling", None)) is not None else {})
                              for r, row in rows if row is not None)
        except (MemoryStoreError, sqlite3.Error) as failure:
            return Remembered(failure=memory_unreadable(failure))

    def _finish_turn(self, trace: AskTrace, user: str, context: TurnContext, remembered: list[dict[str, str]],
                     on_token: Callable[[str], None] | None) -> AskTrace:
        """Add the acknowledgement of a statement to the answer, then store the turn."""
        trace.search_question = context.search_question
        failure = getattr(remembered, "failure", "")
        if failure:
            context.warnings.append(failure)
        if context.statement:
            trace.acknowledged = list(remembered)
            line = acknowledgement(said_back(remembered), failure)
            if on_token:
                on_token("\n\n" + line)
            trace.answer, trace.engine_tail = f"{trace.answer}\n\n{line}", line
        return self._store_turn(trace, user, context)

    def _store_turn(self, trace: AskTrace, user: str, context: TurnContext) -> AskTrace:
        trace.followup = context.followup_note
        trace.search.warnings.extend(w for w in context.warnings if w not in trace.search.warnings)
        if context.conversation is None:
            return trace
        # `ask` masked personal data in the question before this step, so nothing here needs masking again
        question = context.question
        try:
            with feature_store(STORE_FILE):
                if context.went_on and self.conversations.get(context.conversation) is None:
                    trace.search.warnings.append(DELETED_MEANWHILE)  # deleted while answered: not brought back
                    return trace
                self.conversations.ensure(context.conversation, user or "", question)
                # the owner checked as the turn is written: someone else may have started this id meanwhile
                turn = self.conversations.add_turn(
                    context.conversation, question, trace.search_question or question, trace.answer,
                    {**trace.to_dict(), "conversation": context.conversation, "turn": 0}, user=user or "")
        except StoreDamaged as damage:  # the answer stands; only keeping it failed
            trace.search.warnings.append(f"{damage}（这一轮没有保存）")
            return trace
        except ConversationError as clash:
            trace.search.warnings.append(str(clash))
            return trace
        trace.conversation, trace.turn = context.conversation, turn
        return trace

    # -- what the pages and the CLI do ------------------------------------------------
    @uses_store(STORE_FILE)
    def list_conversations(self, user: str, *, actor: Principal | None = None) -> list[Conversation]:
        """`user`'s conversations, most recent first (without their turns)."""
        self._owner_checked(self._acting(actor, "ask"), user, "list", f"{user} 的对话列表")
        return self.conversations.list(user)

    @uses_store(STORE_FILE)
    def get_conversation(self, conversation_id: str, *, actor: Principal | None = None) -> Conversation:
        """One conversation with its turns (each with its full trace and rating)."""
        return self._owned(conversation_id, actor, "read", turns=True)

    @uses_store(STORE_FILE)
    def open_conversation(self, conversation_id: str, *, actor: Principal | None = None) -> tuple[Conversation, list[AskTrace]]:
        """A conversation and each turn's trace as a record again (for the chat page after a refresh)."""
        conv = self._owned(conversation_id, actor, "read", turns=True)
        traces = []
        for turn in conv.turns:
            trace = trace_from_dict(turn.trace)
            trace.turn, trace.conversation = turn.turn, conv.id
            traces.append(trace)
        return conv, traces

    @uses_store(STORE_FILE)
    def rename_conversation(self, conversation_id: str, title: str, *, actor: Principal | None = None) -> None:
        self._owned(conversation_id, actor, "rename")
        # a title is shown and exported like a question: valid text, personal data masked (a pasted book refused first)
        self.conversations.rename(conversation_id, redact_text(checked(bounded_title(title), what="对话标题", max_chars=None)))

    @uses_store(STORE_FILE)
    def delete_conversation(self, conversation_id: str, *, actor: Principal | None = None) -> int:
        """Delete a conversation with its turns and their traces, and its questions from HR's question log (the
        asker's words under their name); its ratings stay for HR's review, no longer tied to its id (one started
        later under the same id has none). Returns how many turns went. The log goes first: if it cannot be
        changed, nothing is deleted and the error names it."""
        conv = self._owned(conversation_id, actor, "delete")
        with feature_store(INSIGHTS_FILE):
            self.insight_log.forget_conversation(conv.user, conv.id)
        return self.conversations.delete(conversation_id)

    @uses_store(STORE_FILE)
    def rate_turn(self, conversation_id: str, turn: int, rating: int, *, actor: Principal | None = None) -> None:
        """Keep a 👍 (1) / 👎 (-1) with the stored turn (0 takes it back)."""
        self._owned(conversation_id, actor, "rate")
        self.conversations.update_turn(conversation_id, turn, rating=rating)

    @uses_store(STORE_FILE)
    def undo_acknowledged(self, conversation_id: str, turn: int, *, actor: Principal | None = None) -> Undone:
        """Forget what a statement turn remembered, and bring back the facts it replaced; returns how many memories
        were taken back (deleted, or a restatement's strengthening undone: the fact told before stays as it was,
        counted in `kept_before` so the page does not say it was deleted)."""
        conv = self._owned(conversation_id, actor, "undo", turns=True)
        stored = next((t for t in conv.turns if t.turn == turn), None)
        if stored is None:
            raise ConversationError(f"找不到对话 {conversation_id} 的第 {turn} 轮")
        told = stored.trace.get("acknowledged", [])
        ids = [m["id"] for m in told]
        if not ids and not stored.trace.get("acknowledgement_undone"):  # undone before: a second click changes nothing
            raise ConversationError(f"对话 {conversation_id} 的第 {turn} 轮没有记住任何个人信息，没有可撤销的内容")
        with memory_writes():  # the memory store's failure names that file, not this one (uses_store)
            # a turn stored with its tellings takes back exactly those (`MemoryStore.undo`); an older one the latest
            named = [(m["id"], m["telling"]) if m.get("telling") is not None else m["id"] for m in told]
            deleted = self.memory.undo(named, user_id=conv.user) if ids else 0  # what a statement replaced is current
            kept = [i for i in ids if (row := self.memory.get(i, user_id=conv.user)) and not row.deleted]
            last = [h[-1]["action"] if (h := self.memory.history(conv.user, i)) else "" for i in kept]
        # a fact the person edited on the memories page after this turn stays as edited, not as told before; one a
        # later turn told again stays as that turn left it
        by_hand, later = last.count(KEPT), last.count(UNTOLD)
        told_before = len(kept) - by_hand - later
        note = undone_note(told_before, by_hand, later)  # a restatement: the fact told earlier is kept, as it was
        answer = stored.trace.get("answer", "")  # the page shows the turn's answer: it says the undo, after a refresh too
        tail = str(stored.trace.get("engine_tail") or "")
        if not stored.trace.get("acknowledgement_undone"):
            if answer.endswith(tail):  # the note is the engine's too: the acknowledgement before it stays literal
                tail = f"{tail}\n\n{note}".strip()
            answer = f"{answer}\n\n{note}".strip()
        trace = {**stored.trace, "acknowledged": [], "acknowledgement_undone": True, "answer": answer, "engine_tail": tail}
        # the turn's answer too: the export reads it, and must say the undo as the page does
        self.conversations.update_turn(conversation_id, turn, trace=trace, answer=answer)
        return Undone(deleted, told_before, by_hand, later)

    @uses_store(STORE_FILE)
    def export_conversation_markdown(self, conversation_id: str, *, actor: Principal | None = None) -> str:
        """One conversation as Markdown: questions, answers, the cited clauses with their sources."""
        conv = self._owned(conversation_id, actor, "export", turns=True)
        return to_markdown(conv, getattr(self._settings, "timezone", DEFAULT_TIMEZONE) or DEFAULT_TIMEZONE)

    @uses_store(STORE_FILE)
    def export_history(self, user: str, *, actor: Principal | None = None) -> dict[str, Any]:
        """A user's whole history (every conversation with every turn and trace) as one JSON-ready dict."""
        self._owner_checked(self._acting(actor, "ask"), user, "export", f"{user} 的全部对话")
        conversations = [self.conversations.get(c.id, with_turns=True) for c in self.conversations.list(user)]
        return {"user": user, "conversations": [c.to_dict() for c in conversations if c is not None]}
