"""Two administrators saving settings at once: what is on disk (settings.json) is what is in force. The save used
to put its own view in force after the save lock was released, so the slower admin's older view overwrote the
other's change in memory while the file kept it (stop 61's review)."""

from __future__ import annotations

import json
import threading
import time

from fakes import fake_assistant


def test_a_slow_save_does_not_put_an_older_view_in_force(tmp_path):
    a = fake_assistant(tmp_path / "store")
    real_audit = a._audit

    def audit(actor, action, *args, **kwargs):  # admin A's audit row is slow (audit.sqlite3 busy a moment)
        if action == "settings.change" and threading.current_thread().name == "adminA":
            time.sleep(0.5)
        return real_audit(actor, action, *args, **kwargs)

    a._audit = audit
    first = threading.Thread(target=lambda: a.update_settings(top_k=7), name="adminA")
    first.start()
    time.sleep(0.1)
    a.update_settings(memory_top_k=2)  # admin B, meanwhile
    first.join()
    on_disk = json.loads((tmp_path / "store" / "settings.json").read_text(encoding="utf-8"))
    assert on_disk == {"top_k": 7, "memory_top_k": 2}
    assert (a.settings.top_k, a.settings.memory_top_k) == (7, 2)
    assert a.saved_settings == {"memory_top_k": 2, "top_k": 7}
    assert a.memory.top_k == 2  # recall uses it
    rows = a.audit_entries(action="settings.change")
    assert {r.outcome for r in rows} == {"ok"} and len(rows) == 2

