"""CSV export guard (review s49 defect 2): a joined list cell is guarded like a text cell."""

from __future__ import annotations

import csv
import io

from rag_core.insights.export import to_csv


def test_a_list_cell_that_starts_a_formula_is_written_as_text():
    data = to_csv([{"questions": ['=HYPERLINK("http://x","点我")', "年假"], "docs": ["+1", "b"], "n": ["a", "-b"]}])
    row = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))[1]
    assert row == ['\'=HYPERLINK("http://x","点我")；年假', "'+1；b", "a；-b"]
