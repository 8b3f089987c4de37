"""The load bench's core through the real server: two Chromium sessions ask one question each, HR uploads.

`bench/load_browser.py` with N=2, K=1 and `--upload`, on a copy of the indexed sample
store. Asserts only that nothing failed and nothing was lost (every answer a browser saw
is a stored turn, the upload is a listed document); never a time. Skipped with a reason
when Chromium or Playwright is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.load_browser import CHROMIUM, report, run_load

pytestmark = [pytest.mark.browser, pytest.mark.slow]

if not CHROMIUM.exists():
    pytest.skip("需要 Debian 的 chromium：/usr/bin/chromium 不存在", allow_module_level=True)
pytest.importorskip("playwright.async_api", reason="需要 playwright Python 包")


def test_two_sessions_lose_nothing(sample_store: Path) -> None:
    result = run_load(2, 1, upload=True, store=sample_store, timeout_s=600)
    summary = report(result)
    assert result["errors"] == [], summary
    assert result["completed"] == result["expected"] == 2, summary
    assert result["answers_lost"] == 0 and result["stored_not_seen"] == 0, summary
    assert result["upload_ok"] and not result["upload_lost"], summary
