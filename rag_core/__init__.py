"""HR policy assistant engine: parse → chunk → embed → index → hybrid search → guarded answer.

The public entry point is `Assistant` (see `rag_core.assistant`); it is imported
lazily so `import rag_core` stays cheap.
"""

__all__ = ["Assistant", "Settings"]


def __getattr__(name: str):
    if name == "Assistant":
        from .assistant import Assistant

        return Assistant
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(name)
