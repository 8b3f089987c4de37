"""One file format for the caches a start reads instead of rebuilding: a header, a key, a checksum, a body.

The keyword index snapshot and the model state cache both write `magic + key + "\n" + digest + body`
to a temporary file renamed into place, and trust a file only when its header and key match and its
digest does (anything else means: rebuild). Each chooses its checksum (a CRC where only damage is at
stake and the body is large; blake2b otherwise).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

Checksum = Callable[[bytes], bytes]


def write_framed(path: Path, magic: bytes, key: str, body: bytes, checksum: Checksum) -> None:
    """Write atomically (a temporary file renamed into place); raises OSError and leaves nothing behind."""
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(magic + key.encode() + b"\n" + checksum(body))
            f.write(body)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


def read_framed(path: Path, magic: bytes, key: str, checksum: Checksum) -> bytes | None:
    """The body written for `key`, or None: missing, another key or format, or damaged."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = magic + key.encode() + b"\n"
    if not data.startswith(head):
        return None
    size = len(checksum(b""))
    digest, body = data[len(head):len(head) + size], data[len(head) + size:]
    return body if checksum(body) == digest else None
