"""Review 59 (parse) #5: a text with no sentence end or comma for more than chunk_size characters is still cut,
but never through a number, a word or a masked value: the cut moves back to where that run starts."""

from __future__ import annotations

import pytest

from rag_core.documents.chunking import _bound_unit, rejoin
from rag_core.documents.prepare import prepare
from rag_core.settings import Settings


@pytest.mark.parametrize(("middle", "kept", "options"), [
    ("报销上限12000元", "12000", {}),
    ("热线13812345678", "[手机号]", {}),
    ("热线13812345678", "13812345678", {"redact_disabled": frozenset({"mobile"})}),
    ("系统HRIS2024版", "HRIS2024", {}),
])
@pytest.mark.parametrize("pad", range(220, 232))
def test_a_hard_cut_never_splits_a_number_or_a_mask(middle, kept, options, pad):
    body = "第五条 报销说明 " + "甲" * pad + middle + "乙" * 100
    chunks = prepare(body.encode(), "t.txt", Settings(), **options).chunks
    assert len(chunks) >= 2
    assert any(kept in c.text for c in chunks), [c.text[-12:] for c in chunks]
    assert all(len(c.text) <= Settings().chunk_size for c in chunks)
    assert rejoin(chunks).endswith("乙" * 100)


def test_a_run_longer_than_the_limit_is_cut_at_a_space_else_at_the_limit():
    words = "甲" * 50 + " " + "a" * 300
    assert _bound_unit(words, 100)[0] == "甲" * 50 + " "
    assert _bound_unit("a" * 250, 100) == ["a" * 100, "a" * 100, "a" * 50]
    assert "".join(_bound_unit(words, 100)) == words
