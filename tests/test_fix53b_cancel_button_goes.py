"""取消导入 goes when the import ends (review 53 #4; fake embedder, real stores, AppTest with the uploader stubbed).

It was drawn before the bar and left there after the batch, a button that cancelled nothing, until the next rerun."""

from __future__ import annotations

from test_upload_fixes_support import facade, page, policy, submit, text_of  # noqa: F401 (fixture)

CANCEL = "取消导入"


def test_the_cancel_button_is_gone_once_the_batch_has_ended(facade) -> None:  # noqa: F811
    at = submit(page(), [("年假制度.md", policy(3))])
    assert not at.exception, [e.value for e in at.exception]
    assert "本次导入" in text_of(at) and facade.list_documents()  # the batch ran, to its end, in this very run
    assert not [b for b in at.button if b.label == CANCEL], "取消导入 is still on the page after the import"


def test_a_confirmed_import_leaves_neither_the_question_nor_the_cancel_button(facade) -> None:  # noqa: F811
    """A batch long enough to be asked about first: once 确认导入 is clicked the question and its buttons go too."""
    at = submit(page(), [("长制度.txt", policy(40))])
    assert any(b.label == "确认导入" for b in at.button) and not facade.list_documents()  # asked only
    next(b for b in at.button if b.label == "确认导入").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [d.source for d in facade.list_documents()] == ["长制度.txt"]
    labels = [b.label for b in at.button]
    assert CANCEL not in labels and "确认导入" not in labels and "放弃这次导入" not in labels, labels
    assert not [w for w in at.warning if "长制度" in str(w.value)], "the question is still asked after the import"
