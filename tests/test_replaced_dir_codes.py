"""Only SQLite's code 1032 (the file renamed under an open connection) reads as a replaced data dir.

A read-only Chroma database says "(code: 8) attempt to write a readonly database": told 请重启应用, a restart
would not help. Chroma's message names the code; SQLite's exception carries it."""

from __future__ import annotations

from rag_core.facade.replaced import replaced_dir


def test_only_code_1032_is_a_replaced_data_dir():
    assert replaced_dir(Exception("Query error: Database error: (code: 1032) attempt to write a readonly database"))
    assert not replaced_dir(Exception("error returned from database: (code: 8) attempt to write a readonly database"))
    assert replaced_dir(Exception("attempt to write a readonly database"))  # no code named: as before
    assert not replaced_dir(Exception("disk I/O error"))
