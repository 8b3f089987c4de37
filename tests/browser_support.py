"""What the team-mode browser tests share: the app under `streamlit run` on loopback, and a Chromium tab."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.loopback import free_port, stop
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, wait_healthy

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def running_app(store: Path, workdir: Path, *extra_args: str, port: int | None = None) -> Iterator[str]:
    """`streamlit run app.py` on 127.0.0.1 over `store` (no LLM); yields its URL, stops it after."""
    port = port or free_port()
    env = {**os.environ, "RAG_DATA_DIR": str(store), "LLM_API_KEY": "", "LLM_MODEL_ID": "", "PYTHONUNBUFFERED": "1"}
    log = workdir / "streamlit.log"
    cmd = [
        sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
        "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
        *extra_args,
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, log)
        yield url
    finally:
        stop(proc)


@contextmanager
def chromium_tab(sync_api, url: str, profile: Path) -> Iterator[object]:
    """A headless Chromium page (zh-CN, 1280 px) with its own profile, opened at `url`."""
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900}, locale="zh-CN",
        )  # fmt: skip
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(url, wait_until="domcontentloaded")
            yield page
        finally:
            context.close()
