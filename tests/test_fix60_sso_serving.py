"""Where the no-login desktop app may be reached (review 60, rev-sso defects 1 and 2).

1. An empty or unset `server.address` makes Streamlit listen on every interface, yet the app's gate
   (`serving_refusal`) let None and "" through as if local: the no-login administrator app was served to the
   whole network. Both now mean every interface: refused unless accounts exist, said as 所有网络接口.
2. DNS rebinding: a page whose domain re-resolves to 127.0.0.1 reached the desktop app (no login, administrator
   rights) under its own Host. In the desktop mode a request whose Host is no loopback name is refused; team
   mode (accounts, a login on every page) is reached under whatever host name the deployment uses.
Failed before the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")


@pytest.mark.parametrize("address", [None, "", "  "])
def test_an_empty_or_unset_address_is_every_interface_and_refused_without_accounts(tmp_path, address):
    facade = fake_assistant(tmp_path / "store")
    refusal = facade.serving_refusal(address)
    assert refusal is not None and "所有网络接口" in refusal and "users add" in refusal
    facade.add_user("wang", "admin", "correct horse")
    assert facade.serving_refusal(address) is None  # team mode: every page asks for a login


@pytest.mark.parametrize("host", ["attacker.example:8501", "attacker.example", "localhost.attacker.example:8501",
                                  "127.0.0.1.nip.io:8501", "192.168.1.20:8501", "0.0.0.0:8501", "", "[::2]:8501",
                                  "localhost:8501@attacker.example", "local host"])
def test_the_desktop_app_refuses_a_host_that_is_not_this_machine(tmp_path, host):
    facade = fake_assistant(tmp_path / "store")
    refusal = facade.serving_refusal("127.0.0.1", host)
    assert refusal is not None and "localhost" in refusal and "127.0.0.1" in refusal


@pytest.mark.parametrize("host", ["localhost:8501", "LOCALHOST:8501", "localhost", "localhost.:8501",
                                  "127.0.0.1:8501", "127.0.0.1", "127.0.0.2:8501", "[::1]:8501", "[::1]"])
def test_the_desktop_app_is_reached_under_a_loopback_name(tmp_path, host):
    facade = fake_assistant(tmp_path / "store")
    assert facade.serving_refusal("127.0.0.1", host) is None
    assert facade.serving_refusal("localhost", host) is None


def test_no_host_header_is_no_browser_request(tmp_path):
    """AppTest and other in-process runs carry no headers; every browser sends a Host (HTTP/1.1 requires it)."""
    assert fake_assistant(tmp_path / "store").serving_refusal("127.0.0.1", None) is None


def test_team_mode_is_reached_under_any_host_name(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    facade.add_user("wang", "admin", "correct horse")
    assert facade.serving_refusal("0.0.0.0", "hr.intranet.example:8501") is None
    assert facade.serving_refusal("127.0.0.1", "hr.intranet.example") is None  # behind a reverse proxy


def _app(assistant, tmp_path, monkeypatch) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    return AppTest.from_file(APP, default_timeout=120)


def test_the_page_refuses_a_foreign_host_in_desktop_mode(tmp_path, monkeypatch):
    import streamlit as st

    assistant = fake_assistant(tmp_path / "store")
    monkeypatch.setattr(type(st.context), "headers", property(lambda self: {"Host": "attacker.example:8501"}))
    at = _app(assistant, tmp_path, monkeypatch)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("localhost" in e.value for e in at.error), [e.value for e in at.error]
    assert not at.chat_input and not at.sidebar.markdown  # nothing of the app: no chat, no sidebar


def test_the_page_refuses_an_unset_address_in_desktop_mode(tmp_path, monkeypatch):
    from streamlit import config

    assistant = fake_assistant(tmp_path / "store")
    at = _app(assistant, tmp_path, monkeypatch)
    before = config.get_option("server.address")
    config.set_option("server.address", None)
    try:
        at.run()
    finally:
        config.set_option("server.address", before)
    assert any("所有网络接口" in e.value for e in at.error), [e.value for e in at.error]
    assert not at.chat_input
