"""Insights: what HR learns from the questions people ask.

The question log with its retention (`log`), knowledge gaps grouped by meaning
(`gaps`, pure clustering functions), the feedback review store (`log` too, one
SQLite file), standard answers in their own Chroma collection with a calibrated
match rule (`standard`, `matching`), usage per document (`usage`) and CSV/Excel
export (`export`); what a trace leaves in the log (`rows`). Questions are masked before they are
stored, and each carries where it came from (a person, the eval, a test): statistics count people.

May import: `rag_core.text`, `rag_core.documents`, `rag_core.search`, top-level
`types`, `errors`, `settings`. Only the facade and the assistant import it.
"""
