"""HR policy assistant engine: documents in → search → guarded answer, plus long-term memory.

The public surface is the facade `Assistant`, the frozen `Settings` and the plain
record types it returns; pages, the CLI and other callers import only these.
The stage packages (`text`, `documents`, `search`, `answer`, `memory`,
`evaluation`, `cli`) are the inside: each `__init__` says what it may import.
`Assistant` (and `AnswerNotes`, which lives in `answer`) is imported lazily so `import rag_core` stays cheap.
"""

from .errors import (
    AccountError,
    IngestError,
    MemoryStoreError,
    PermissionDenied,
    RagError,
    SettingsError,
    ThesaurusChanged,
)
from .settings import Settings
from .types import (
    MEMORY_KIND_NAMES,
    Account,
    AskTrace,
    AuditEntry,
    Chunk,
    DeletePreview,
    DocumentInfo,
    Formatted,
    Hit,
    HitScores,
    IngestReport,
    MemoryHit,
    Principal,
    SearchResult,
    SourceRef,
)

__all__ = [
    "Account",
    "AccountError",
    "AnswerNotes",
    "AskTrace",
    "Assistant",
    "AuditEntry",
    "CATEGORY_LABELS",
    "Chunk",
    "DeletePreview",
    "DocumentInfo",
    "Formatted",
    "Hit",
    "HitScores",
    "IngestError",
    "IngestReport",
    "MEMORY_KIND_NAMES",
    "METRIC_LABELS",
    "MemoryHit",
    "MemoryStoreError",
    "PermissionDenied",
    "Principal",
    "RagError",
    "SearchResult",
    "Settings",
    "SettingsError",
    "ThesaurusChanged",
    "SourceRef",
]


def __getattr__(name: str):
    if name == "Assistant":
        from .assistant import Assistant

        return Assistant
    if name == "AnswerNotes":  # what goes beside an answer, for the chat page and `ask` alike
        from .assistant import AnswerNotes

        return AnswerNotes
    if name in ("METRIC_LABELS", "CATEGORY_LABELS"):  # an evaluation's measures and question kinds in plain words
        from . import assistant

        return getattr(assistant, name)
    raise AttributeError(name)
