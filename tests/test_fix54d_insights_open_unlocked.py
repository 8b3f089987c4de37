"""Opening an up-to-date insights log takes no write lock (review 54d): since the one-transaction migration every
open ran BEGIN IMMEDIATE, so while another connection wrote, merely opening the log waited the 30 s busy timeout and
failed with "database is locked". Only a store that lacks something takes the lock, and checks again under it."""

from __future__ import annotations

import sqlite3
import threading

from rag_core.insights.log import STORE_VERSION, InsightLog

OPENS_WITHIN = 20.0  # seconds the thread is given; opening takes milliseconds, a wait for the lock 30 s


def _open_beside_a_writer(path) -> list[object]:
    """Open the log while another connection holds a write transaction; what the opening gave."""
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    outcome: list[object] = []

    def open_log() -> None:
        try:
            log = InsightLog(path)
            outcome.append(log)
        except Exception as exc:  # noqa: BLE001 - the outcome is asserted
            outcome.append(exc)

    opener = threading.Thread(target=open_log, daemon=True)
    opener.start()
    opener.join(OPENS_WITHIN)
    done = list(outcome)
    writer.execute("ROLLBACK")  # lets a waiting opener finish
    writer.close()
    opener.join()
    return done


def test_an_up_to_date_log_opens_while_another_connection_writes(tmp_path):
    path = tmp_path / "insights.sqlite3"
    InsightLog(path)._db.close()
    done = _open_beside_a_writer(path)
    assert len(done) == 1 and isinstance(done[0], InsightLog), done
    assert done[0]._db.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION


def test_an_old_log_is_still_migrated_when_it_opens(tmp_path):
    path = tmp_path / "insights.sqlite3"
    InsightLog(path)._db.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 0")
        db.execute("DROP INDEX questions_turn")
    log = InsightLog(path)
    assert log._db.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION
    assert log._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'questions_turn'").fetchone()
