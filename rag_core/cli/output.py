"""UTF-8 output for the command line, whatever the terminal's locale."""

from __future__ import annotations

import json
import sys
from typing import Any


def print_json(obj: Any) -> None:
    sys.stdout.buffer.write((json.dumps(obj, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    sys.stdout.flush()


def say(text: str, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.buffer.write((text + "\n").encode("utf-8"))
    stream.flush()
