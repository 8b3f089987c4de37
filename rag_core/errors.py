"""Errors a user can read: each names the thing refused and why, in Chinese."""


class RagError(Exception):
    """Base class for refusals the UI and CLI show as plain messages."""


class IngestError(RagError):
    """A file was refused; nothing already indexed was changed."""

    def __init__(self, filename: str, reason: str):
        self.filename = filename
        self.reason = reason
        super().__init__(f"{filename}: {reason}")


class DocumentIdConflict(IngestError):
    """A different file name maps onto an existing document's id; refused unless the id is given."""

    def __init__(self, filename: str, doc_id: str, reason: str):
        self.doc_id = doc_id
        super().__init__(filename, reason)


class StoreDamaged(RagError):
    """A store file under the data dir is unreadable; the message names the file and what to do."""


class StoreBusy(StoreDamaged):
    """A healthy store file another process holds locked: handled where damage is (the action goes on or waits),
    but said as busy, never as damage to move away."""


class SettingsError(RagError):
    """A setting value was rejected; the previous settings stay in force."""


class MemoryStoreError(RagError):
    """A memory operation was refused (bad input, unknown id)."""


class PermissionDenied(RagError):
    """The acting person may not do this; nothing was read or changed."""


class AccountError(RagError):
    """An account action or a login was refused (bad name, weak password, locked, unknown)."""
