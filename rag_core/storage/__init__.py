"""The data dir as files: health checks, damaged caches set aside, backup and restore.

Lowest stage beside `text`: it reads the store files with plain `sqlite3` and the
file system, never through the catalog, Chroma or the models, so `doctor` and
`restore` work on a data dir the assistant cannot open.

May import: the top-level `types`, `errors`, `settings` only.
"""
