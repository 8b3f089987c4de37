"""doctor in server mode asks the Chroma server (review 52q3 #2): with CHROMA_HOST set and the server down it said
nine times 正常 and exited 0. Fast: a port nothing listens on (connection refused at once), in process; the live
server and the CLI's exit code are in test_fix52q3_doctor_server_live.py (slow)."""

from __future__ import annotations

import socket

from fakes import fake_assistant

from rag_core.assistant import Assistant


def _dead_port() -> int:
    with socket.socket() as s:  # bound and closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_doctor_with_the_server_down_says_so_and_is_not_ok(tmp_path, monkeypatch):
    fake_assistant(tmp_path / "store")  # a data dir with a catalog (made embedded; the server is the question)
    port = _dead_port()
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("CHROMA_PORT", str(port))
    checks = Assistant.doctor_data_dir(tmp_path / "store", embedded_chroma=False)
    server = [c for c in checks if c.file.startswith("Chroma 服务器")]
    assert len(server) == 1, [c.line() for c in checks]
    assert not server[0].ok and f"127.0.0.1:{port}" in server[0].file
    assert "连不上" in server[0].line() and "chroma run" in server[0].line(), server[0].line()
    assert not all(c.ok for c in checks)  # the CLI's exit 1


def test_embedded_doctor_has_no_server_line(tmp_path):
    fake_assistant(tmp_path / "store")
    assert not any(c.file.startswith("Chroma 服务器") for c in Assistant.doctor_data_dir(tmp_path / "store"))
