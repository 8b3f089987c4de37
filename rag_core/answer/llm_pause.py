"""A model server that let a whole call run out its time is left alone for a while (a circuit breaker).

Without it a hung server (it accepts the connection and never answers) makes every question wait the full
`llm_timeout_s` before the offline answer comes, one person after another. After one such call the model is paused
for `PAUSE_S`: calls fail at once with an LLMError that says so (the answer step then quotes the clauses offline, as
for any model failure). When the pause ends, one call tries the server again while others still get the pause; it
decides: an answer ends the pause, another run-out starts a new one.

Only a call given its whole time trips it (`trips`): a short call (a follow-up rewritten by the model, 6 s at most)
running out says the server is slow, not that it is gone, and a refused connection or an HTTP error fails fast anyway.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

from ..text.completion import complete
from .llm import SHORT_REPLY_TOKENS, LLMError

PAUSE_S = 120.0  # two minutes of offline answers, then one question tries the server again
PAUSED = "paused"  # LLMError.kind of a call the pause turned away


def _now() -> float:
    return time.monotonic()


def trips(error: LLMError, options: dict[str, Any]) -> bool:
    """Whether a failed call shows the server gone: it ran out the whole time it was given (no short bound)."""
    if error.kind != "timeout":
        return False
    max_tokens = options.get("max_tokens")
    return options.get("deadline_s") is None and not (max_tokens is not None and max_tokens <= SHORT_REPLY_TOKENS)


class PausingLLM:
    """Wraps a model client (`complete`, `stream`, `name`); shared by every session of the process, so guarded."""

    def __init__(self, inner: Any, pause_s: float = PAUSE_S) -> None:
        self.inner = inner
        self.name = inner.name
        self.pause_s = pause_s
        self._lock = threading.Lock()
        self._until = 0.0  # monotonic time the pause ends; 0: not paused
        self._trying = False  # one call is trying the server after a pause

    def __repr__(self) -> str:
        return f"PausingLLM({self.inner!r})"

    @property
    def paused_for(self) -> float:
        """Seconds left of the pause (0 when calls go to the server)."""
        with self._lock:
            return max(0.0, self._until - _now()) if self._until else 0.0

    def _enter(self) -> None:
        """Let the call through, or raise the pause's LLMError; after a pause, only one call at a time tries."""
        with self._lock:
            if not self._until:
                return
            left = self._until - _now()
            if left <= 0 and not self._trying:
                self._trying = True
                return
        wait = f"约 {max(1, round(left))} 秒后再试" if left > 0 else "正在重新尝试连接"
        raise LLMError(f"大模型 {self.name} 上次调用等满时限没有回应，暂停调用（{wait}），先用离线回答", kind=PAUSED)

    def _settle(self, error: LLMError | None, options: dict[str, Any]) -> None:
        """What a finished call says of the server: an answer ends a pause, a run-out starts one."""
        with self._lock:
            self._trying = False
            if error is None:
                self._until = 0.0
            elif trips(error, options):
                self._until = _now() + self.pause_s
            elif error.kind != "timeout" and self._until and self._until <= _now():
                self._until = 0.0  # it answered, if with an error: not gone (a short call's run-out says nothing)

    def _release(self) -> None:
        """A call stopped by its caller decided nothing: the next one tries."""
        with self._lock:
            self._trying = False

    def complete(self, prompt: str, **options: Any) -> str:
        self._enter()
        try:
            reply = complete(self.inner, prompt, **options)
        except LLMError as error:
            self._settle(error, options)
            raise
        except BaseException:
            self._release()
            raise
        self._settle(None, options)
        return reply

    def stream(self, prompt: str, **options: Any) -> Iterator[str]:
        """The inner stream's pieces; the pause is checked when the first piece is asked for."""
        self._enter()
        ended: list[LLMError | None] = []  # empty while the stream runs, or when its caller stopped reading
        try:
            yield from self.inner.stream(prompt, **options)
            ended.append(None)
        except LLMError as error:
            ended.append(error)
            raise
        finally:
            if ended:
                self._settle(ended[0], options)
            else:
                self._release()
