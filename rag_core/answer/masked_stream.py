"""A model's streamed answer, shown masked as it comes.

The answer as a whole is masked before it is stored (`answering.compose_answer`), but
the chat shows the pieces while they arrive: a phone number the model copies from a
memory would be on screen, unmasked, until the answer ends. Pieces are therefore held
back until they end at a *settled* point (between two Chinese characters that are not
numerals: no masked form spans such a point), and what is passed on is the masked text
of everything up to that point, less what was already shown. When masking more text
changes what was already shown (it never has, but a context rule could), nothing more
is streamed: the stored, masked answer replaces the streamed text when the turn ends.
"""

from __future__ import annotations

from collections.abc import Callable

from ..text.pii import redact_text

# Chinese numerals are not quiet: a phone written 一三八… must not be cut in two
_NUMERALS = frozenset("零〇一二三四五六七八九十百千万两壹贰叁肆伍陆柒捌玖拾佰仟")
# Text is masked again from its start at each step (masking needs what came before: 电话号码是 …), so steps
# grow with the text: at least MIN_STEP new characters, or an eighth of what was shown. A 7,500-character
# answer streamed 4 characters a time is then masked 52 times, 72 ms in all, not 1,875 times.
MIN_STEP = 8


def _quiet(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" and char not in _NUMERALS


def settled_end(text: str, start: int = 0) -> int:
    """The last position after `start` that lies between two quiet characters (0 when there is none)."""
    for end in range(len(text) - 1, max(start, 0), -1):
        if _quiet(text[end - 1]) and _quiet(text[end]):
            return end
    return 0


class MaskedStream:
    """Wraps an `on_token` callback: what it passes on is always a prefix of the masked whole."""

    def __init__(self, on_token: Callable[[str], None]) -> None:
        self._on_token = on_token
        self._raw = ""
        self._settled = 0  # how much of the raw text was masked and passed on
        self._shown = ""  # the masked text passed on so far
        self._stopped = False
        self._scanned = 0  # the text's length at the last look for a settled point: what came before is not looked at again

    def __call__(self, piece: str) -> None:
        self._raw += piece
        if len(self._raw) - self._settled < max(MIN_STEP, self._settled // 8):
            return
        end = settled_end(self._raw, max(self._settled, self._scanned - 1))
        self._scanned = len(self._raw)
        if end > self._settled:
            self._settled = end
            self._show(redact_text(self._raw[:end]))

    def flush(self) -> None:
        """The stream ended: the rest, masked with the whole."""
        self._settled = len(self._raw)
        self._show(redact_text(self._raw))

    @property
    def shown(self) -> str:
        return self._shown

    def _show(self, masked: str) -> None:
        if self._stopped:
            return
        if not masked.startswith(self._shown):  # masking the longer text changed what is on screen
            self._stopped = True
            return
        if new := masked[len(self._shown):]:
            self._shown = masked
            self._on_token(new)
