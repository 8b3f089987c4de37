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
from typing import Any

from ..conversations.export import DEFAULT_TIMEZONE, to_markdown
from ..conversations.followup import (
    Rewrite,
    clarify,
    rule_rewrite,
)
from ..conversations.records import trace_from_dict
from ..conversations.rewrite import llm_rewrite
from ..conversations.statements import CHATTER_REPLY, acknowledgement, split_turn, without_requests
from ..conversations.store import Conversation, ConversationError, ConversationStore, ForeignConversation, bounded_title
from ..conversations.turn_context import CHATTER as CHATTER  # re-exported: read from here before it moved
from ..conversations.turn_context import CONTEXT_TURNS as CONTEXT_TURNS
from ..conversations.turn_context import DELETED_MEANWHILE as DELETED_MEANWHILE  # re-exported (tests read it here)
from ..conversations.turn_context import Remembered, TurnContext, prompt_turns, said_back
from ..conversations.undo import UNDONE_NOTE as UNDONE_NOTE  # re-exported: read from here before it moved
from ..conversations.undo import Undone, undone_note
from ..documents.catalog import office_today
from ..errors import MemoryStoreError, StoreDamaged
from ..memory.forgetting import KEPT, UNTOLD
from ..text.inputs import MAX_QUESTION_CHARS, checked
from ..text.pii import redact_text
from ..types import ACKNOWLEDGED, AskTrace, Principal, SearchResult
from .conversation_owner import ConversationOwner
from .followup_search import GLUE_MARGIN as GLUE_MARGIN  # re-exported: read from here before it moved
from .followup_search import NOUNLESS_MARGIN as NOUNLESS_MARGIN
from .followup_search import FollowupSearch
from .memories import memory_unreadable, memory_writes
from .owner_names import fresh_conversation_id
from .purge_race import as_left, forget_in_turns, landed
from .stores import CONVERSATIONS_FILE, INSIGHTS_FILE, Sweep, feature_store, uses_store
from .turn_access import (
    CARRIED_KEY,
    CONTEXT_KEY,
    Carried,
    TurnReader,
    carried,
    carried_record,
    hidden_turn,
    self_contained,
)
from .turn_access import context_audiences as context_audiences  # re-exported: its former home

STORE_FILE = CONVERSATIONS_FILE


class ConversationActions(FollowupSearch, ConversationOwner):
    """Mixin of `Assistant`: conversations that last, and the follow-up and statement steps of `ask`."""

    _conversations: ConversationStore | None = None
    insight_log: Any  # `InsightActions`: the questions a deleted conversation asked leave HR's log with it
    catalog: Any  # the documents' current audiences: a turn quoting one narrowed since is hidden from its reader

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

    def _today(self) -> str:
        """The office's today: a stored turn is judged by the versions in effect on it (`TurnReader`)."""
        return office_today(self._settings.timezone)

    # -- the ask steps -------------------------------------------------------------
    def _prepare_turn(self, question: str, user: str, conversation: str | None,
                      readable: frozenset[str] | None = None) -> TurnContext:
        """Split off a statement, then make a follow-up standalone (LLM when configured, else rules), from the
        earlier turns a reader with `readable` labels may still read (None: every label)."""
        parts = split_turn(question)
        turns: list[tuple[str, str, bool]] = []
        held: Carried = {}  # the earlier turns the prompt holds, by number (kept with this turn: `CONTEXT_KEY`)
        warnings: list[str] = []
        stored = False  # the conversation was kept when the question came, even if its turns were all chatter
        if conversation is not None:
            try:
                stored, turns, held = self._earlier_turns(conversation, user, readable)
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
                           went_on=stored, context_turns=list(held), carried=held)

    def _earlier_turns(self, conversation: str, user: str,
                       readable: frozenset[str] | None = None) -> tuple[bool, list[tuple[str, str, bool]], Carried]:
        """Whether the asker's own conversation is stored, its last (searched question, answer, only told
        something) turns, and their numbers. Whether it is stored is told apart from the turns: a conversation of
        only chatter has none to show, yet deleted while answered it must not be brought back (`TurnContext.went_on`).

        A turn that only told something about the person (我是销售部的) searched nothing: what is
        asked next leans on that statement, which memory carries, not on the question before it,
        so the rewrite glues nothing after it. A turn of chatter (好的, 谢谢) is left out: what is asked
        after it goes on from the question before it (`prompt_turns`, the rule the insights log's tags follow).
        A turn the reader may no longer read (`TurnReader`) is left out, not replaced by an older one."""
        with feature_store(STORE_FILE):
            conv = self.conversations.get(conversation)
            if conv is None:
                return False, [], {}
            if conv.user != (user or ""):
                raise ForeignConversation("这个对话属于其他用户，不能在这里继续")
            # questions and answers masked (they reach the prompt); the traces are read only for their tags. A turn
            # carries what the turns in its own prompt showed: kept with it (`CARRIED_KEY`), else the whole history
            history = self.conversations.turns(conversation, CONTEXT_TURNS + 2, masked_traces=False)
            if not self_contained(history):  # turns stored before what they carry was kept with them
                history = self.conversations.turns(conversation, masked_traces=False)
            found = carried(history)
            hidden = TurnReader(self.catalog, readable, self._today()).hidden(history, found)
            turns = [t for t in prompt_turns(history) if t.turn not in hidden]
            return True, [(t.search_question or t.question, t.answer, t.trace.get("outcome") == ACKNOWLEDGED)
                          for t in turns], {t.turn: found[t.turn] for t in turns}

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
                    context.deleted_meanwhile = True  # nor kept in HR's question log, where nothing could remove it
                    return trace
                self.conversations.ensure(context.conversation, user or "", question)
                # the owner checked as the turn is written: someone else may have started this id meanwhile
                kept = {**trace.to_dict(), "conversation": context.conversation, "turn": 0,
                        CONTEXT_KEY: context.context_turns}
                record, answer = {**kept, CARRIED_KEY: carried_record(kept, context.carried)}, trace.answer
                # purged, or a memory it used deleted, while answered: the purge or delete rewrote the turns stored
                # by then, so this one is kept as it would have left it; one between this look and the write is
                # caught after it
                record, answer = as_left(lambda: self.memory, record, answer, user) or (record, answer)
                turn = self.conversations.add_turn(
                    context.conversation, question, trace.search_question or question, answer, record, user=user or "")
                if landed(lambda: self.memory, record, user):  # what it did, to this turn
                    self.conversations.change_turn(context.conversation, turn,
                                                   lambda t, a: as_left(lambda: self.memory, t, a, user) or (t, a))
        except StoreDamaged as damage:  # the answer stands; only keeping it failed
            trace.search.warnings.append(f"{damage}（这一轮没有保存）")
            return trace
        except ConversationError as clash:
            trace.search.warnings.append(str(clash))
            # deleted between the check and the write (`add_turn` says so): as above, not kept in HR's log either
            try:
                context.deleted_meanwhile = context.went_on and self.conversations.get(context.conversation) is None
            except StoreDamaged:  # the answer stands: whether it was deleted is left unsaid
                pass
            return trace
        trace.conversation, trace.turn = context.conversation, turn
        return trace

    def _forget_if_gone(self, trace: AskTrace, user: str) -> AskTrace:
        """After `ask` logged the turn's question for HR (it logs none when the conversation was deleted while it
        was answered: `TurnContext.deleted_meanwhile`): a delete that landed after the turn was stored, before the
        row was written, would leave a row no delete takes out, so look again and take it out. Returns `trace`."""
        try:
            if trace.conversation and self.conversations.get(trace.conversation) is None:
                with feature_store(INSIGHTS_FILE):
                    self.insight_log.forget_conversation(user or "", trace.conversation)
        except StoreDamaged as damage:  # the answer stands; the row goes with a later retention sweep
            trace.search.warnings.append(str(damage))
        return trace

    # -- what the pages and the CLI do ------------------------------------------------
    @uses_store(STORE_FILE)
    def list_conversations(self, user: str, *, actor: Principal | None = None) -> list[Conversation]:
        """`user`'s conversations, most recent first (without their turns)."""
        self._owner_checked(self._acting(actor, "ask"), user, "list", f"{user} 的对话列表")
        return self.conversations.list(user)

    def _read_back(self, conversation_id: str, actor: Principal | None, verb: str,
                   last: int | None = None) -> Conversation:
        """An owned conversation with its turns (the `last` most recent when given) as the actor may read them now
        (`TurnReader`: a turn quoting a clause they may no longer read shows its question and `HIDDEN_TURN`)."""
        actor = self._acting(actor, "ask")
        if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 1):
            raise ConversationError("要显示的对话轮数须为正整数")
        reader = TurnReader(self.catalog, actor.readable, self._today())
        conv = self._owned(conversation_id, actor, verb, turns=True, last=last)
        if len(conv.turns) >= conv.turn_count or actor.readable is None or self_contained(conv.turns):
            return reader.shown(conv)  # every turn read, nothing hidden, or each turn keeps what it carries
        # a turn carries what the turns in its prompt carried, and so on back: judged on the whole history's tags
        hidden = reader.hidden(self.conversations.traces(conv.id))
        return replace(conv, turns=[hidden_turn(t) if t.turn in hidden else t for t in conv.turns])

    @uses_store(STORE_FILE)
    def get_conversation(self, conversation_id: str, *, actor: Principal | None = None) -> Conversation:
        """One conversation with its turns (each with its full trace and rating, as the actor may read it now)."""
        return self._read_back(conversation_id, actor, "read")

    @uses_store(STORE_FILE)
    def open_conversation(self, conversation_id: str, *, actor: Principal | None = None,
                          last: int | None = None) -> tuple[Conversation, list[AskTrace]]:
        """A conversation and each turn's trace as a record again (for the chat page after a refresh); only the
        `last` most recent turns when given (`Conversation.turn_count` still counts them all)."""
        conv = self._read_back(conversation_id, actor, "read", last)
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

        def undone(trace: dict[str, Any], _answer: str) -> tuple[dict[str, Any], str]:
            # the turn as stored now (a purge meanwhile took its memories out: not written back over it)
            answer = trace.get("answer", "")  # the page shows the turn's answer: it says the undo, after a refresh too
            tail = str(trace.get("engine_tail") or "")
            if not trace.get("acknowledgement_undone"):
                if answer.endswith(tail):  # the note is the engine's too: the acknowledgement before it stays literal
                    tail = f"{tail}\n\n{note}".strip()
                answer = f"{answer}\n\n{note}".strip()
            # the turn's answer too: the export reads it, and must say the undo as the page does
            return {**trace, "acknowledged": [], "acknowledgement_undone": True, "answer": answer, "engine_tail": tail}, answer

        self.conversations.change_turn(conversation_id, turn, undone)
        forget_in_turns(self, ids)  # the later turns that quoted what it took back (skips the rows still active)
        return Undone(deleted, told_before, by_hand, later)

    @uses_store(STORE_FILE)
    def export_conversation_markdown(self, conversation_id: str, *, actor: Principal | None = None) -> str:
        """One conversation as Markdown: questions, answers, the cited clauses with their sources."""
        conv = self._read_back(conversation_id, actor, "export")
        return to_markdown(conv, getattr(self._settings, "timezone", DEFAULT_TIMEZONE) or DEFAULT_TIMEZONE)

    @uses_store(STORE_FILE)
    def export_history(self, user: str, *, actor: Principal | None = None) -> dict[str, Any]:
        """A user's whole history (every conversation with every turn and trace) as one JSON-ready dict."""
        actor = self._acting(actor, "ask")
        self._owner_checked(actor, user, "export", f"{user} 的全部对话")
        reader = TurnReader(self.catalog, actor.readable, self._today())  # each document read once for the whole history
        conversations = [self.conversations.get(c.id, with_turns=True) for c in self.conversations.list(user)]
        return {"user": user, "conversations": [reader.shown(c).to_dict() for c in conversations if c is not None]}
