"""Another process holding a data dir open as a running app does (`open_lock.hold_open`) until it is let go: what
the tests of a start beside the app (set-aside stores, caches, Chroma, CLI writes) run against."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HOLDER = f"""
import sys
sys.path[:0] = [{str(REPO)!r}]
from pathlib import Path
from rag_core.storage.open_lock import hold_open
class App: pass
app = App()
hold_open(app, Path(sys.argv[1]))
print("open", flush=True)
sys.stdin.read()
"""


class HoldingProcess:
    """A process that has `data` open from construction until `stop` (also a context manager)."""

    def __init__(self, data: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(data)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "open"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()

    def __enter__(self) -> HoldingProcess:
        return self

    def __exit__(self, *_exc) -> None:
        self.stop()
