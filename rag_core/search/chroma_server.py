"""Telling a Chroma server that is down, or that came back without this store's collections, from other errors.

With `CHROMA_HOST` every vector round trip goes over HTTP: a stopped server raises httpx's ConnectError (or the
client's ValueError wrapping it), and a server restarted on an empty directory answers NotFoundError for the
collections opened before. Both are the same situation for a person — the server needs attention — and both
are recovered from by opening the collections again once the server answers (`ChromaVectorStore`).

Recovering is not the same as having the vectors back: a server that came back empty gets this store's collections
created anew, empty, at the reopen. That reopen no longer finds the base collection it had opened, so the store is
marked lost and every vector query is `VectorsLost` (search answers by keywords and says why) until the vectors are
rebuilt (`reset`, which the start's rebuild from the embedding cache calls) — never keyword-only answers in silence.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ..errors import VectorServerDown, exception_chain

_log = logging.getLogger(__name__)

Result = TypeVar("Result")

# The search result's notice when the vector query could not run: keyword search still answers.
KEYWORDS_ONLY = "向量库服务器暂时连不上，这次只按关键词检索；请检查 chroma run 是否在运行"
# ... and when the server answers but lost this store's vectors (it came back on an empty or another directory).
VECTORS_LOST = "向量库服务器上的向量已丢失，只按关键词检索；请重启应用以重建"


class VectorsLost(VectorServerDown):
    """The server answers but no longer holds this store's vectors: `warning` is the search result's notice."""

    warning = VECTORS_LOST

    def __init__(self, address: str):
        super().__init__(address)
        self.args = (f"{VECTORS_LOST}（{address}）",)


def not_found(exc: BaseException) -> bool:
    """A collection the server no longer has (it restarted on an empty or another directory)."""
    from chromadb.errors import NotFoundError

    return any(isinstance(e, NotFoundError) for e in exception_chain(exc))


def server_lost(exc: BaseException) -> bool:
    """The server cannot be reached (down, restarting, connection cut) or lost this store's collections."""
    import httpx

    return any(isinstance(e, httpx.TransportError | ConnectionError) for e in exception_chain(exc)) or not_found(exc)


def holds(client: Any, name: str) -> bool:
    """Whether the server has a collection of that name (a reopen asks before it creates one anew)."""
    try:
        client.get_collection(name, embedding_function=None)
    except Exception as exc:
        if not_found(exc):
            return False
        raise
    return True


class ServerStore(Protocol):
    """What `call` needs of a vector store: its server ("" embedded), whether to reopen, and how."""

    server: str
    stale: bool
    model_id: str | None

    def reopen(self, model_id: str) -> None: ...


def call(store: ServerStore, action: Callable[[], Result], retry: bool = True) -> Result:
    """Run one use of the server; a lost server is `VectorServerDown` and the next call reopens the collections.

    A collection the server no longer has (restarted empty) is reopened and, if `retry`, the action run again
    at once: writes and counts then go to the server as it is now, instead of failing until a restart, and a query
    is `VectorsLost` if the reopen found the store's vectors gone (`ChromaVectorStore.query`)."""
    if not store.server:
        return action()
    for attempt in range(2):
        try:
            if store.stale:
                store.reopen(store.model_id or "")
            elif getattr(store, "when_opened", None) is not None:  # postponed start work armed again: try it now
                catch_up_logged(store)
            return action()
        except VectorServerDown:
            raise
        except Exception as exc:
            if not server_lost(exc):
                raise
            store.stale = True
            if not (retry and attempt == 0 and not_found(exc)):
                raise VectorServerDown(store.server) from exc
    raise AssertionError("unreachable")


def catch_up_logged(store: ServerStore) -> None:
    """The owner's postponed work (`ChromaVectorStore.catch_up`); a failure other than the server's is logged and the
    work kept for the next call, never raised into the search that happened to run it."""
    try:
        store.catch_up()  # type: ignore[attr-defined]
    except VectorServerDown:
        raise
    except Exception as exc:  # noqa: BLE001 - e.g. a busy catalog: the next call tries again
        if not getattr(store, "_told_failure", False):  # once, not at every call while it keeps failing
            _log.warning("postponed vector store work failed; tried again at each call", exc_info=True)
        else:
            _log.debug("postponed vector store work failed again: %s", exc)
        store._told_failure = True  # type: ignore[attr-defined]
    else:
        store._told_failure = False  # type: ignore[attr-defined]  # a later failure is said again


def through_server(retry: bool = True) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """A store method run by `call`, so no httpx or Chroma error about the server reaches a page or the CLI."""

    def wrap(method: Callable[..., Result]) -> Callable[..., Result]:
        @functools.wraps(method)
        def run(store: ServerStore, *args: Any, **kwargs: Any) -> Result:
            return call(store, lambda: method(store, *args, **kwargs), retry)

        return run

    return wrap


@functools.cache
def _client_defaults() -> Any:
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False)


def client_settings() -> Any:
    """Chroma's client settings, telemetry off: a copy of one read per process. Building them reads the environment
    and ./.env again (~3 ms a store opened), and a client writes its path into the copy it got."""
    return _client_defaults().model_copy()
