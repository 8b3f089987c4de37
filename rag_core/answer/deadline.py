"""A model call's wall-clock deadline.

The HTTP client's timeout bounds each read, not a call: a reasoning model that sends a `reasoning_content`
chunk every 0.2 s, or a gateway that sends a keep-alive byte every few seconds, keeps every read short and the
call open forever (review 51f 1). So the call runs on a worker thread and the caller waits for what it reads
only until the deadline; then the response the worker registered is closed, which ends the worker's read.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TypeVar

T = TypeVar("T")


class Closable(Protocol):
    def close(self) -> None: ...


class Register(Protocol):
    """What a producer gets: `register(handle)` names what to close to stop it; `gave_up()` says the caller stopped
    waiting and `left()` how long it still waits (a request is not tried again past it: reviews 363 #7, 378 #3)."""

    def __call__(self, handle: Closable) -> None: ...
    def gave_up(self) -> bool: ...
    def left(self) -> float: ...


class DeadlinePassed(Exception):
    """The call did not end within its deadline; what it had opened is closed."""


_ITEM, _END, _ERROR = "item", "end", "error"


class Deadline:
    """When a call must end. A stream that shows answer text is making progress: `renew` gives it the whole time
    again from now, so a slow model writing a long answer is not cut at the limit, while one that only thinks
    (or a gateway's keep-alive bytes) still ends there. `whole` caps the call however often it is renewed: a
    server that drips a character just inside each limit must not keep an answer open for ever."""

    def __init__(self, seconds: float, whole: float | None = None) -> None:
        self.seconds = seconds
        now = time.monotonic()
        self.last = now + whole if whole is not None else float("inf")  # no renewal goes past it
        self.ends_at = min(now + seconds, self.last)

    def renew(self) -> None:
        self.ends_at = min(time.monotonic() + self.seconds, self.last)

    @property
    def spent(self) -> bool:
        """The whole call's cap has passed (not only the limit since the last renewal)."""
        return time.monotonic() >= self.last


def _close(handle: Closable) -> None:
    try:
        handle.close()
    except Exception:  # closing from another thread may meet a read in progress: the connection is gone anyway
        pass


def within(seconds: float | Deadline, produce: Callable[[Register], Iterable[T]]) -> Iterator[T]:
    """The items of `produce(register)`, read on a worker thread, until `seconds` after this call began (a
    `Deadline`: until it ends, renewed by the caller).

    `produce` registers what must be closed to stop it (the HTTP response) as soon as it has it. Its errors
    are raised here; when the deadline passes before it ends, `DeadlinePassed` is, and what it registered is
    closed. Closing this iterator early (the caller read enough) closes them too.
    """
    items: queue.Queue[tuple[str, object]] = queue.Queue()
    handles: list[Closable] = []
    lock = threading.Lock()
    stopped = threading.Event()

    class Registry:
        def __call__(self, handle: Closable) -> None:
            with lock:
                handles.append(handle)
                late = stopped.is_set()
            if late:  # the caller gave up while the worker was still connecting
                _close(handle)

        def gave_up(self) -> bool:
            return stopped.is_set()

        def left(self) -> float:
            """Seconds until the caller stops waiting (as the deadline stands now: a stream renews it)."""
            return deadline.ends_at - time.monotonic()

    register = Registry()

    def work() -> None:
        try:
            produced = iter(produce(register))
            try:
                for item in produced:
                    if stopped.is_set():
                        return
                    items.put((_ITEM, item))
            finally:
                getattr(produced, "close", lambda: None)()
            items.put((_END, None))
        except BaseException as exc:  # handed to the caller, who raises it (or has left)
            items.put((_ERROR, exc))

    deadline = seconds if isinstance(seconds, Deadline) else Deadline(seconds)
    threading.Thread(target=work, name="llm-call", daemon=True).start()
    try:
        while True:
            left = deadline.ends_at - time.monotonic()
            if left <= 0:
                raise DeadlinePassed
            try:
                kind, value = items.get(timeout=left)
            except queue.Empty:
                raise DeadlinePassed from None
            if kind == _END:
                return
            if kind == _ERROR:
                raise value  # type: ignore[misc]
            yield value  # type: ignore[misc]
    finally:
        with lock:
            stopped.set()
            opened = list(handles)
        for handle in opened:
            _close(handle)
