"""A standard answer's id and an eval upload's name never read as personal data (a flake of the fast tier, stop 60): uuid4().hex[:10] is all
digits about once in 1,300, and 0869015634 was masked as a landline in the audit row a release wrote."""

from __future__ import annotations

import uuid

from rag_core.insights import standard
from rag_core.text.pii import redact_text


def test_an_id_the_masker_would_change_is_drawn_again(monkeypatch):
    drawn = iter(["0869015634" + "0" * 22, "0a69015634" + "0" * 22])
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(next(drawn)))
    fresh = standard._fresh_id()
    assert fresh == "0a69015634" and redact_text(fresh) == fresh


def test_an_eval_upload_name_never_reads_as_a_landline():
    from rag_core.facade.eval_upload import uploader_prefix

    names = [uploader_prefix(f"user{i}") + "0a1b2c3d-题集.jsonl" for i in range(3000)]
    assert [name for name in names if redact_text(name) != name] == []
