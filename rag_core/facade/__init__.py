"""The facade's parts: one mixin per area of user actions, plus who may do what.

`rag_core.assistant.Assistant` inherits every mixin here, so callers still see one
object. A mixin only checks the acting person (`access.require`) and forwards to
the stage packages; it may import every stage below it, never the CLI.
"""
