"""The 我的账户 page is reached from the sidebar in team mode, its audit row has a Chinese name, and the audit
page reads one page of the trail through the facade (offset), not every row before it."""

from __future__ import annotations

from app_support import logged_in_with
from test_fix52l1_own_password import APP, team
from test_fix52l2_audit_paging import _trail

from rag_core import Principal
from rag_core.accounts.audit import ACTION_NAMES

ADMIN = Principal("local", "admin")


def test_the_sidebar_links_to_my_account_in_team_mode(tmp_path, monkeypatch):
    at = logged_in_with(team(tmp_path), APP, "li", "correct horse", tmp_path, monkeypatch)
    assert not at.exception
    assert "我的账户" in [link.label for link in at.sidebar.get("page_link")]


def test_a_password_change_has_a_chinese_name_in_the_trail():
    assert ACTION_NAMES["password.change"] == "修改本人密码"


def test_the_facade_reads_a_page_of_the_trail_at_an_offset(tmp_path):
    a = _trail(tmp_path, 30)
    every = a.audit_entries(actor=ADMIN)
    page = a.audit_entries(limit=10, offset=10, actor=ADMIN)
    assert page == every[10:20] and page.total == len(every)
