"""When the model client tries a request again: a transient failure, while the caller still waits, and not when the
server asks for a longer wait (split from `answer.llm`). The SDK's own retry ran on after the caller's deadline and
sent a server that never answered a second request (review 363 #7)."""

from __future__ import annotations

import time

from .deadline import Register

RETRY_PAUSE_S, RETRIED_STATUS = 0.5, frozenset({408, 409, 429})  # the SDK's first backoff; with every 5xx, what it retried


def retry_pause(exc: Exception) -> float | None:
    """The wait before another try after a transient failure (no connection, a status the SDK retried); None to give
    up: a permanent failure, or a server that asks for a longer wait than `RETRY_PAUSE_S` (Retry-After, review 378)."""
    import openai

    status = getattr(exc, "status_code", None) or 0
    asked = getattr(getattr(exc, "response", None), "headers", {}).get("retry-after", "").strip()
    transient = isinstance(exc, openai.APIConnectionError) or (
        isinstance(exc, openai.APIStatusError) and (status in RETRIED_STATUS or status >= 500))
    return RETRY_PAUSE_S if transient and (not asked or asked.isdigit() and int(asked) <= RETRY_PAUSE_S) else None


def waited(pause: float, register: Register) -> bool:
    """Sleep `pause` when the caller will still wait after it for another try of as long, and say so; else False at
    once: the failure itself is then said (an HTTP 503, not a timeout, and no pause as if the server never answered)."""
    if register.left() < 2 * pause + 1.0:
        return False
    time.sleep(pause)
    return not register.gave_up()
