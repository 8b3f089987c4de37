"""`chroma run` on loopback for the review-52q tests of a Chroma server that goes away (no tests here)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from tests.fakes import fake_assistant

ROOT = Path(__file__).resolve().parent.parent
CHROMA = Path(sys.executable).with_name("chroma")
ANNUAL = "# 年假制度\n\n员工入职满一年后每年享有带薪年假 5 天，满十年 10 天。年假须提前三天在系统中申请。\n"
DOWN = "向量库服务器 127.0.0.1:{port} 连不上：请先启动 chroma run（见 docs/deploy.md）"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChromaServer:
    """`chroma run` on a loopback port, stopped and started again on demand (same port, any directory)."""

    def __init__(self, path: Path) -> None:
        self.port = _free_port()
        self.path = path
        self.process: subprocess.Popen | None = None

    def start(self, path: Path | None = None) -> None:
        self.path = path or self.path
        self.process = subprocess.Popen(
            [str(CHROMA), "run", "--path", str(self.path), "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(600):  # readiness, not a timing claim: the test fails below if it never answers
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/api/v2/heartbeat", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert self.process.poll() is None, "chroma run exited"
            time.sleep(0.1)
        raise AssertionError("chroma run never answered")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.process = None


def running_chroma(tmp_path: Path) -> Iterator[ChromaServer]:
    """The body of each test module's `chroma` fixture: a server for one test, stopped after it."""
    server = ChromaServer(tmp_path / "chroma-server")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def team(tmp_path: Path, server: ChromaServer):
    """An assistant on the server with the annual-leave policy indexed."""
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    assistant = fake_assistant(tmp_path / "store", chroma_host="127.0.0.1", chroma_port=server.port)
    assistant.ingest_file(tmp_path / "nianjia.md")
    return assistant


