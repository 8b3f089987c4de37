"""What the team-mode browser tests share: the app under `streamlit run` on loopback, and a Chromium tab."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.loopback import free_port, stop

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STARTUP_TIMEOUT_S = 120


def wait_healthy(url: str, proc: subprocess.Popen, log: Path) -> None:
    """Until Streamlit answers its health check; fails with the log's tail when it exits or never does."""
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200 and resp.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"streamlit not healthy after {STARTUP_TIMEOUT_S}s:\n{log.read_text(errors='replace')[-3000:]}")


@contextmanager
def running_app(store: Path, workdir: Path, *extra_args: str, port: int | None = None,
                env: dict[str, str] | None = None) -> Iterator[str]:
    """`streamlit run app.py` on 127.0.0.1 over `store` (no LLM unless `env` names one); yields its URL, stops it
    after."""
    port = port or free_port()
    env = {**os.environ, "RAG_DATA_DIR": str(store), "LLM_API_KEY": "", "LLM_MODEL_ID": "", "PYTHONUNBUFFERED": "1",
           **(env or {})}
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
def chromium_tab(sync_api, url: str, profile: Path, width: int = 1280, height: int = 900) -> Iterator[object]:
    """A headless Chromium page (zh-CN) with its own profile, opened at `url`."""
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": width, "height": height}, locale="zh-CN",
        )  # fmt: skip
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(url, wait_until="domcontentloaded")
            yield page
        finally:
            context.close()
