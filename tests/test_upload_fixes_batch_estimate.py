"""The batch estimate accounts for the earlier files of the same batch: an id clash inside it is flagged."""

from __future__ import annotations

from test_upload_fixes_support import facade, page, policy, submit  # noqa: F401 (fixture)

import ui.uploads


def test_a_clash_inside_the_batch_is_flagged_and_not_counted(facade, monkeypatch):  # noqa: F811
    monkeypatch.setattr(ui.uploads, "actor", lambda: None)
    files = [("考勤制度.md", policy(40)), ("考勤制度.txt", policy(40, "新"))]
    first, second = ui.uploads.estimate_uploads(facade, files)
    assert first.ok and not second.ok and "考勤制度.md" in second.error
    assert ui.uploads.estimate_text([first, second]) == ui.uploads.estimate_text([first])
    question = ui.uploads.confirmation_question([first, second])
    assert "考勤制度.txt：将被拒绝" in question
    assert [r.ok for r in ui.uploads.ingest_uploads(facade, files)] == [True, False]  # as the estimate said


def test_the_same_file_twice_is_not_flagged(facade, monkeypatch):  # noqa: F811
    monkeypatch.setattr(ui.uploads, "actor", lambda: None)
    estimates = ui.uploads.estimate_uploads(facade, [("考勤制度.md", policy(4)), ("考勤制度.md", policy(4))])
    assert all(e.ok for e in estimates)
