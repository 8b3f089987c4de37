"""The thesaurus tokenises an entry's policy terms when a question first names it, not for every entry at a start."""

from __future__ import annotations

from rag_core.text import thesaurus as module
from rag_core.text.thesaurus import Thesaurus, shipped_entries
from rag_core.text.tokenizer import tokenize


def test_a_start_tokenises_no_entry_and_a_question_only_the_entries_it_names(monkeypatch):
    module._policy_tokens.cache_clear()
    calls: list[str] = []
    monkeypatch.setattr(module, "tokenize", lambda text: calls.append(text) or tokenize(text))
    table = Thesaurus(shipped_entries(), {"押金条": ("押金", "收据")})
    assert calls == []
    question = "打车费能报吗"
    expansion = table.expand(question)
    named = {head for head, _ in expansion.applied}
    assert named and len(calls) < 4 * len(named) + 2 < len(table.entries)  # the question, then its entries' terms
    # the same expansion as with every entry tokenised up front
    eager = {head: {t for term in terms for t in tokenize(term) if len(t) > 1} for head, terms in table.entries.items()}
    for head in named:
        assert table._expanded[head] == eager[head]
    assert set(expansion.added) == {t for head in named for t in eager[head]} - set(expansion.tokens)
