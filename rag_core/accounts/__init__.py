"""Who may log in, and what happened: accounts, sessions and the audit trail.

- `store.AccountStore`: accounts in `<data dir>/accounts.sqlite3`, passwords hashed
  with argon2id (argon2-cffi), lockout after repeated failures, server-side sessions
  handed out as HMAC-signed tokens (a browser cookie carries one); `emails` is its
  single sign-on address column.
- `serving`: where the no-login desktop app may be reached (loopback address and Host).
- `audit.AuditLog`: the append-only trail in `<data dir>/audit.sqlite3` (SQLite
  triggers refuse UPDATE and DELETE).

This stage imports only the foundation (types, errors, settings); the facade
(`rag_core.facade.accounts`) decides who may call it.
"""
