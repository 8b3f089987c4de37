"""An engine label (all, hr, managers) is previewed without reading every live document version: the check ran on
every search and cost ~3 ms at 700 documents (docs/benchmarks.md, "Stop 51")."""

from __future__ import annotations

import pytest

from rag_core.documents.audience_names import AUDIENCE_LABELS
from rag_core.facade.audience_preview import checked_preview
from rag_core.text.inputs import InputError


class _CountingCatalog:
    """Stands in for the catalog: counts full reads of the live versions."""

    def __init__(self) -> None:
        self.reads = 0

    def live_versions(self):
        self.reads += 1
        return []


@pytest.mark.parametrize("label", sorted(AUDIENCE_LABELS))
def test_an_engine_label_is_previewed_without_reading_the_catalog(label: str) -> None:
    catalog = _CountingCatalog()
    assert checked_preview(label, catalog, readable=["all"]) == label
    assert catalog.reads == 0


def test_another_label_is_still_checked_against_the_catalog() -> None:
    catalog = _CountingCatalog()
    with pytest.raises(InputError):
        checked_preview("董事会", catalog, readable=["all"])
    assert catalog.reads == 1
