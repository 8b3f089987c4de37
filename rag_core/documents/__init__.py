"""Documents in: parse a file, mask personal data, cut it into chunks, keep its versions.

`parsing` + `formats` read txt/md/docx/pdf/html into sections, `redaction` masks
personal data before anything is stored, `chunking` cuts sentence-aligned chunks,
`prepare` runs the three in order, and `catalog` (SQLite) records every
document version, its audience and its chunks.

May import: `rag_core.text` and the top-level `types`, `errors`, `settings`.
Must not import search, answer, memory or the facade.
"""
