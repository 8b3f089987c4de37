"""The second ranking model in a process of its own, so a question's second embedding runs beside the main one.

Both bundled engines keep the interpreter while they encode, so on a thread the second model's two readings of a
question (3.3 ms at 10k) only ever followed e5's (10 ms): nothing overlapped (issue 31). A child process has an
interpreter of its own. Search hands it the question before e5 starts (`start_queries`) and reads the vectors when
the second model's cosines are due. A reader thread takes every reply off the child's output as it comes, so a reply
nobody reads never blocks the child. A child that cannot start, dies, hangs or answers wrongly is replaced by the same
model in this process, so search never fails for it (only the overlap is lost, and a warning is logged once).

Wire format, both ways: a 4-byte little-endian length, then that many bytes of JSON; a reply's JSON
({"id": i, "rows": n, "dim": d} or {"id": i, "error": "..."}) is followed by n × d float32 values.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import struct
import subprocess
import sys
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import numpy as np

_log = logging.getLogger(__name__)
_HEADER = struct.Struct("<I")
_CODE_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds rag_core, for the child's sys.path
FIRST_REPLY_S = 60.0  # the child loads its model before its first reply
REPLY_S = 5.0  # then a request waits this long, plus PER_TEXT_S a text, before the child counts as hung
PER_TEXT_S = 0.2


def _encode(message: dict, payload: bytes = b"") -> bytes:
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return _HEADER.pack(len(body)) + body + payload


def _read_exactly(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)  # a buffered reader returns short only at the end of the stream
    if data is None or len(data) != size:
        raise EOFError("the embedding process closed its output")
    return data


def _receive(stream: BinaryIO) -> dict:
    (size,) = _HEADER.unpack(_read_exactly(stream, _HEADER.size))
    message = json.loads(_read_exactly(stream, size))
    if not isinstance(message, dict):
        raise ValueError("not a message")
    return message


class Pending:
    """Vectors the child is computing for one request; `result()` waits for them (or computes them here)."""

    def __init__(self, channel: _Channel, op: str, texts: list[str]):
        self.op = op
        self.texts = texts
        self.value: np.ndarray | None = None
        self.answered = threading.Event()
        self._channel = channel

    def result(self) -> np.ndarray:
        if self.value is None:
            if not self.answered.wait(self._channel.wait_for(len(self.texts))):
                self._channel.give_up("did not answer in time")
            if self.value is None:  # the child failed, or answered this one with an error
                self.value = self._channel.in_process(self.op, self.texts)
        return self.value


class _Channel:
    """The child, its pending requests and the reader thread's state: what the reader thread holds, so the
    `EmbedderProcess` that owns it can be collected (and its child stopped) when nothing uses it."""

    def __init__(self, name: str, threads: int | None, state_dir: Path | None):
        self.name, self.threads, self.state_dir = name, threads, state_dir
        self.child: subprocess.Popen | None = None
        self.waiting: dict[int, Pending] = {}
        self.answered_once = False
        self.sent = 0
        self.lock = threading.Lock()  # the child, `waiting`, `sent`: held briefly, never while writing
        self.send_lock = threading.Lock()  # one request written at a time
        self.local_lock = threading.Lock()
        self.local = None  # the in-process model, made on the first fallback

    def wait_for(self, texts: int) -> float:
        return REPLY_S + PER_TEXT_S * texts if self.answered_once else FIRST_REPLY_S

    def start(self) -> None:
        path = os.environ.get("PYTHONPATH", "")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(_CODE_ROOT), path) if p)}
        # -P: the working directory is not put before the code root; the child's Ctrl-C is ignored (`_serve`)
        args = [sys.executable, "-P", "-m", __name__, self.name, str(self.threads or 0), str(self.state_dir or "")]
        self.child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=_CODE_ROOT)
        threading.Thread(target=self._read_replies, args=(self.child,), name="second-model-replies", daemon=True).start()

    def send(self, op: str, texts: Sequence[str]) -> Pending:
        pending = Pending(self, op, list(texts))
        with self.send_lock:
            with self.lock:
                child, request_id = self.child, self.sent
                if child is None:
                    return pending  # computed here when read
                message = _encode({"id": request_id, "op": op, "texts": pending.texts})  # may raise: the text's fault
                self.sent += 1
                self.waiting[request_id] = pending  # before the write: the reply may come at once
            try:
                child.stdin.write(message)
                child.stdin.flush()
            except (OSError, ValueError) as exc:
                self.give_up(f"stopped taking requests ({exc})")
        return pending

    def _read_replies(self, child: subprocess.Popen) -> None:
        """The reader thread: hand each reply to its request until the child's output ends."""
        while True:
            try:
                head = _receive(child.stdout)
                request_id = int(head["id"])
                if "error" in head:
                    vectors = None  # that one request is computed here; the child stays
                    _log.warning("second model process could not embed a request: %s", head["error"])
                else:
                    rows, dim = int(head["rows"]), int(head["dim"])
                    vectors = np.frombuffer(_read_exactly(child.stdout, rows * dim * 4), dtype=np.float32)
                    vectors = vectors.reshape(rows, dim)
            except (OSError, ValueError, EOFError, KeyError, TypeError) as exc:
                self.give_up(f"failed ({exc})", child)
                return
            with self.lock:
                self.answered_once = True
                pending = self.waiting.pop(request_id, None)
            if pending is not None:  # None: nobody waits for it any more
                pending.value = vectors
                pending.answered.set()

    def give_up(self, why: str, child: subprocess.Popen | None = None) -> None:
        """Serve from this process from now on: every request not answered yet is computed by its reader."""
        with self.lock:
            if child is not None and child is not self.child:
                return  # an earlier child, already replaced
            child, self.child = self.child, None
            waiting, self.waiting = self.waiting, {}
        if child is not None:
            _log.warning("second model process %s; it runs in the app's process instead", why)
            stop(child, kill=True)
        for pending in waiting.values():
            pending.answered.set()

    def in_process(self, op: str, texts: list[str]) -> np.ndarray:
        with self.local_lock:
            if self.local is None:
                from .embedding import load_embedder

                self.local = load_embedder(self.name, self.threads, self.state_dir)
        encode = self.local.embed_queries if op == "query" else self.local.embed_passages
        return np.asarray(encode(texts), dtype=np.float32)

    def close(self) -> None:
        with self.lock:
            child, self.child = self.child, None
        if child is not None:
            stop(child)


def stop(child: subprocess.Popen, kill: bool = False) -> None:
    """End a child and reap it: closing its input ends its loop; one that does not end at once (still loading its
    model when a command that never searched exits) is killed, so an exit never waits for it."""
    try:
        if kill:
            child.kill()
        child.stdin.close()
        child.wait(timeout=0.2)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        child.kill()
        child.wait()
    try:
        child.stdout.close()
    except (OSError, ValueError):
        pass  # the reader thread may be closing it too


class EmbedderProcess:
    """A bundled model (`load_embedder`'s name) served by a child process; the Embedder protocol plus `start_queries`.

    The child stops when this object is closed or collected, or the app exits."""

    def __init__(self, name: str, model_id: str, dim: int, threads: int | None = None, state_dir: Path | None = None):
        self.model_id = model_id
        self.dim = dim
        self._channel = _Channel(name, threads, state_dir)
        try:
            self._channel.start()
        except OSError as exc:
            _log.warning("second model process could not start (%s); it runs in the app's process instead", exc)
        self._finalizer = weakref.finalize(self, self._channel.close)

    def start_queries(self, texts: Sequence[str]) -> Pending:
        """Send the question's readings to the child now; `Pending.result()` reads their vectors."""
        return self._channel.send("query", texts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.start_queries(texts).result()

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._channel.send("passage", texts).result()

    def close(self) -> None:
        self._finalizer()


def _serve(name: str, threads: int, state_dir: str) -> None:
    """The child's loop: answer each request with the model's vectors until the input closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the app's terminal is the app's to handle
    requests = sys.stdin.buffer
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the replies
    from .embedding import load_embedder

    model = load_embedder(name, threads or None, Path(state_dir) if state_dir else None)
    model.embed_query("年假")  # loads its state before the first question needs it
    while True:
        try:
            request = _receive(requests)
        except EOFError:
            return
        try:
            texts = list(request["texts"])
            if request["op"] == "query":
                encode = getattr(model, "embed_queries", None)
                vectors = encode(texts) if encode else np.stack([model.embed_query(t) for t in texts])
            else:
                vectors = model.embed_passages(texts)
            vectors = np.ascontiguousarray(vectors, dtype=np.float32)
            shape = {"rows": int(vectors.shape[0]), "dim": int(vectors.shape[1])}
            replies.write(_encode({"id": request["id"], **shape}, vectors.tobytes()))
        except Exception as exc:  # that request is computed by the parent; the child goes on
            replies.write(_encode({"id": request.get("id"), "error": f"{type(exc).__name__}: {exc}"}))
        replies.flush()


if __name__ == "__main__":
    _serve(sys.argv[1], int(sys.argv[2]), sys.argv[3])
