"""Standard answers as HR writes them: add (from a gap too), list, delete, and the audiences they may carry.

Split from `facade.insights` (kept under the 400-line limit); the holding and releasing is `StandardReview`, which
this part extends. Two checks run before an answer is stored, as they do before one is released: it may not reach
readers wider than the documents it rests on (`_refuse_narrower_basis`), and it may not repeat a served answer's
question for the same readers, since only one of the two could ever be served (`refuse_duplicate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from ..documents.audience_names import audience_names
from ..documents.catalog import visible_to
from ..documents.redaction import redact_text
from ..errors import PermissionDenied, RagError
from ..insights.audiences import labels_in_use, unreadable_labels
from ..insights.matching import asks_otherwise, wording
from ..insights.records import GapGroup, StandardAnswer
from ..insights.standard import standard_fields
from ..insights.standard_duplicates import refuse_duplicate
from ..insights.standard_refs import MIN_QUOTE, gap_sources, names_document, policy_text, quoted_pieces
from ..insights.standard_versions import unnamed_articles
from ..types import Principal
from .standard_input import standard_audience
from .standard_review import StandardReview
from .stores import STANDARD_FILE, uses_store


def _stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _brief(text: object, limit: int = 60) -> str:
    """What a failed add or delete names in the audit row: the typed text, masked, then cut short (it was refused as
    typed; cut first, an ID number's first 17 digits no longer read as one and stayed)."""
    text = redact_text(" ".join(str(text or "").split()))
    return text if len(text) <= limit else text[:limit] + "…"


def gap_variants(group: GapGroup) -> tuple[list[str], list[str]]:
    """A gap group's wordings split by what they ask: those that ask what its representative asks (kept as variants)
    and those the match rule says ask otherwise (`asks_otherwise`: another kind of thing, the negation, another
    quantity, extreme or scope). A group gathers by closeness, so 班车几点发车 sits with 公司有没有班车; as a variant it
    would be served that answer. A rewording the word check alone would not link (上下班有没有通勤班车可以坐) stays:
    linking it is what a variant is for."""
    asked = wording(group.representative)
    kept, left = [], []
    for text in group.questions:
        (left if asks_otherwise(asked, wording(text)) else kept).append(text)
    return kept, left


class StandardAnswerActions(StandardReview):
    """Mixin of `Assistant` (through `InsightActions`): the 标准答复 page's and `faq` command's writing side."""

    @uses_store(STANDARD_FILE)
    def add_standard_answer(self, question: str, answer: str, *, clauses: Sequence[str] = (),
                            variants: Sequence[str] = (), audience: Sequence[str] | None = None,
                            actor: Principal | None = None, sources: Sequence[str] = ()) -> StandardAnswer:
        """HR's authoritative answer to `question` (and its `variants`) for `audience`, served above the match rule;
        `sources`: the documents it was written from (held for review when one is deleted, `StandardReview`).

        Only labels the actor may read: an answer for an audience they cannot read would be one they cannot see."""
        actor = self._acting(actor, "insights")
        try:
            entry = self._add_standard(question, answer, clauses, variants, audience, actor, sources)
        except PermissionDenied:
            raise  # its refused row is written
        except RagError as exc:
            self._audit(actor, "standard.add", _brief(question), "failed", str(exc))
            raise
        self._audit(actor, "standard.add", f"{entry.id} {entry.question}", "ok", f"受众：{audience_names(entry.audience)}")
        return entry

    def _add_standard(self, question: str, answer: str, clauses: Sequence[str], variants: Sequence[str],
                      audience: Sequence[str] | None, actor: Principal, sources: Sequence[str]) -> StandardAnswer:
        labels = standard_audience(audience)  # None: everyone; given but blank: refused, as for an upload
        if hidden := unreadable_labels(labels, actor.readable):
            said = audience_names(hidden)
            self._audit(actor, "refused", f"标准答复的受众：{said}", "refused", "受众不可见")
            raise PermissionDenied(f"没有权限：不能为看不到的受众（{said}）添加标准答复")
        question, answer, clauses, variants = standard_fields(question, answer, clauses, variants)  # before masking
        # only the documents the actor may read are a basis: a hidden one's id is dropped as a made-up one would be
        readable = {v.doc_id for v in self.catalog.live_versions() if visible_to(v.audience, actor.readable)}
        sources = [s for s in dict.fromkeys(sources) if s in readable]
        # the answer rests on its 依据 and on what its own text names or quotes (`standard_versions.quoting`)
        self._refuse_narrower_basis(labels, [*(c for c in clauses if c.strip()), answer], sources, actor,
                                    unreadable=False)
        store = self._judged_store()
        masked, masked_variants = redact_text(question), [redact_text(v) for v in variants]
        return store.add(
            masked, redact_text(answer), author=actor.user, created_at=_stamp(),
            clauses=[redact_text(c) for c in clauses], variants=masked_variants, audience=labels, sources=sources,
            check=lambda: refuse_duplicate(store, masked, labels, variants=masked_variants),
        )

    def unanchored_clauses(self, clauses: Sequence[str], *, actor: Principal | None = None) -> list[str]:
        """The clauses that tie an answer to no policy the actor may read: naming no live document, no article
        (第七条) and quoting no run of one. A change to the policies cannot hold the answer through them, so the
        page says so when HR adds it (review 201)."""
        actor = self._acting(actor, "insights")
        live = [v for v in self.catalog.live_versions() if visible_to(v.audience, actor.readable)]
        titles = [v.title for v in live if v.title]
        text: str | None = None
        loose = []
        for clause in (c.strip() for c in clauses):
            if not clause or names_document([clause], titles) or unnamed_articles(clause, titles):
                continue
            pieces = [p for p in quoted_pieces(clause, titles) if len(p) >= MIN_QUOTE]
            if pieces:
                if text is None:  # read once, and only for a clause that may quote
                    text = policy_text([c for v in live for c in self.catalog.chunks_of(v.doc_id, v.version)])
                if any(p in text for p in pieces):
                    continue
            loose.append(clause)
        return loose

    def standard_answer_advice(self, clauses: Sequence[str], answer: str, *, actor: Principal | None = None) -> str:
        """What HR is told after adding an answer ("" when all is tied): the 依据 lines that tie it to no policy, and
        whether a change to the policies can pause it at all — through its 依据 or its own text, as a change does
        (`standard_versions.basis`). One wording for the two pages and `faq add` (review 349: the command said none)."""
        typed = [c.strip() for c in clauses if c.strip()]
        loose = self.unanchored_clauses([*typed, answer], actor=actor)
        loose_clauses = [redact_text(c) for c in typed if c in loose]  # echoed as stored: masked
        never_paused = answer.strip() in loose and len(loose_clauses) == len(typed)
        how = "写明文档名或第几条可以让它随制度一起复核"
        if not typed:
            return f"注意：依据为空：制度修改后这条答复不会自动暂停；{how}" if never_paused else ""
        if not loose_clauses:
            return ""
        pause = "，制度修改后这条答复不会自动暂停" if never_paused else ""
        return f"注意：依据「{'」「'.join(loose_clauses)}」没有对应到任何文档或条款{pause}；{how}"

    def standard_audiences(self, *, actor: Principal | None = None) -> list[str]:
        """The audience labels in use the actor may give a standard answer ("all" first)."""
        actor = self._acting(actor, "insights")
        return labels_in_use([d.audience for d in self.catalog.live_versions()], actor.readable)

    def standard_answer_from_gap(self, group: GapGroup, answer: str, *, clauses: Sequence[str] = (),
                                 audience: Sequence[str] | None = None, actor: Principal | None = None) -> StandardAnswer:
        """One step from a gap group: its representative as the question, as variants those of its wordings that ask
        the same (`gap_variants`; 班车几点发车 grouped with 公司有没有班车 is left out), and only the clauses HR chose
        (the group's nearest clause did not answer it: a hint for HR, never a basis unasked)."""
        return self.add_standard_answer(group.representative, answer, clauses=clauses, variants=gap_variants(group)[0],
                                        audience=audience, actor=actor, sources=gap_sources(group.nearest, clauses))

    def standard_gap_variants(self, group: GapGroup) -> tuple[list[str], list[str]]:
        """The wordings of a gap group that 设为标准答复 keeps as variants, and those it leaves out (the page names
        them: HR may add one as its own standard answer)."""
        return gap_variants(group)

    @uses_store(STANDARD_FILE)
    def standard_answers(self, *, actor: Principal | None = None) -> list[StandardAnswer]:
        """The standard answers the actor may read: their audience, and the documents one is held for."""
        actor = self._acting(actor, "insights")
        store = self._judged_store()
        readable = store.readable_ids(actor.readable)
        return [e for e in store.list() if e.id in readable]

    @uses_store(STANDARD_FILE)
    def delete_standard_answer(self, answer_id: str, *, actor: Principal | None = None) -> None:
        """Delete one the actor may read (another audience's answer is refused as unknown)."""
        actor = self._acting(actor, "insights")
        try:
            question = self._judged_store().get(answer_id).question
        except RagError as exc:  # no such id (or the store unreadable)
            self._audit(actor, "standard.delete", _brief(answer_id), "failed", str(exc))
            raise
        self._visible_standard(answer_id, actor, "delete")  # refused as an unknown id, with its audit row
        try:
            self.standard_store.delete(answer_id)
        except RagError as exc:
            self._audit(actor, "standard.delete", f"{answer_id} {question}", "failed", str(exc))
            raise
        self._audit(actor, "standard.delete", f"{answer_id} {question}")
