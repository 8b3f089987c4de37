"""Loopback helpers shared by the browser test and the Streamlit benchmark: a free port, a clean stop."""

from __future__ import annotations

import socket
import subprocess


def free_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(proc: subprocess.Popen, timeout: float = 20) -> None:
    """Ask a child process to exit, kill it if it does not within `timeout` seconds, and reap it."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
