"""Two files of one clashing name in one batch: each gets its own question and button, the page keeps working."""

from __future__ import annotations

from test_upload_fixes_support import facade, page, policy, submit  # noqa: F401 (fixture)


def test_same_clashing_name_twice_in_one_batch(facade):  # noqa: F811
    facade.ingest_bytes(policy(3), "员工手册 v2.md")
    at = submit(page(), [("员工手册(v2).md", policy(4, "甲")), ("员工手册(v2).md", policy(4, "乙"))])
    assert not at.exception, [e.value for e in at.exception]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    yes = [b for b in at.button if b.label.startswith("是新版本")]
    assert len(yes) == 2
    yes[1].click().run()  # the second file's own bytes, not the first's
    assert not at.exception, [e.value for e in at.exception]
    texts = [c.text for c in facade.document_chunks("员工手册_v2")]
    assert texts and all("乙" in t for t in texts)
    assert len([b for b in at.button if b.label.startswith("是新版本")]) == 1  # the first is still asked
