"""Bytes of a text upload → text: BOM, UTF-16 by its NUL bytes, UTF-8, an HTML <meta> charset, legacy
Chinese (GB18030, Big5, Shift-JIS: `chinese_codecs`), then a lenient reading; binary is refused.

Every refusal is an `IngestError` with a Chinese reason.
"""

from __future__ import annotations

import codecs
import re
import unicodedata

from ..errors import IngestError
from .chinese_codecs import decode_legacy_chinese, decode_utf16_chinese

MAX_BAD_CHAR_RATIO = 0.01  # a mixed-encoding file decodes with U+FFFD only if >= 99% is clean

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_BINARY_REASON = "文件包含二进制内容，不是纯文本（可能只是改了扩展名）"
_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?([A-Za-z0-9_.:-]{2,40})""", re.I)
_GBK_ALIASES = {"gb2312", "gbk", "x-gbk", "cp936", "gb18030", "euc-cn", "hz-gb-2312"}
_CONTROL_BYTES = bytes(sorted(set(range(32)) - {9, 10, 11, 12, 13, 0x1A, 0x1B}))  # SUB/ESC appear in old text files


def _control_bytes(data: bytes) -> int:
    return len(data) - len(data.translate(None, _CONTROL_BYTES))


def _lenient(data: bytes, codec: str) -> tuple[str, float]:
    text = data.decode(codec, errors="replace")
    return text, text.count("\ufffd") / max(len(text), 1)


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    """UTF-16 text saved without a BOM (NUL bytes from ASCII); binary almost never decodes
    to only assigned, non-control characters, so a strict decode plus that check is enough."""
    if len(data) % 2:
        return None
    readings = []
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if not any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch not in "\t\n\r" for ch in text):
            readings.append((_plausible(text), text, codec))
    # both may decode ("#" read the wrong way round is U+2300): the reading of ASCII and Chinese wins
    return max(readings)[1:] if readings else None


def _plausible(text: str) -> int:
    """Characters a policy is written in: ASCII, CJK and their punctuation."""
    return sum(1 for ch in text if ch < "\x7f" or "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef")


def decode_text(data: bytes, name: str, *, html: bool = False) -> tuple[str, str]:
    """Decode text bytes; returns (text, encoding name). Order: BOM, UTF-16 by its NUL bytes, UTF-16
    Chinese without ASCII, UTF-8, <meta> charset (html only), GB18030 (superset of GBK/GB2312), Big5,
    Shift-JIS, lenient UTF-8/GB18030, charset-normalizer. `encoding_note` says every unusual one."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            text, bad = _lenient(data[len(bom) :], codec.replace("-sig", ""))
            if bad > MAX_BAD_CHAR_RATIO:
                raise IngestError(name, f"文件开头标记为 {codec} 编码，但内容有大量无法解码的字节，可能已损坏")
            return text, codec
    if b"\x00" in data:
        found = _utf16_without_bom(data)
        if found:
            return found
        raise IngestError(name, _BINARY_REASON)
    utf16 = decode_utf16_chinese(data)  # UTF-16 Chinese with no ASCII: no NUL byte gives it away
    if utf16:
        return utf16
    if _control_bytes(data) > max(2, len(data) // 100):
        raise IngestError(name, _BINARY_REASON)
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    declared = _META_CHARSET.search(data[:4096]) if html else None
    if declared:
        codec = declared.group(1).decode("ascii").lower()
        codec = "gb18030" if codec in _GBK_ALIASES else codec
        try:
            return data.decode(codec), codecs.lookup(codec).name
        except (LookupError, UnicodeDecodeError):
            pass
    legacy = decode_legacy_chinese(data, name)  # GB18030, Big5 or Shift-JIS (GB18030 misreads both)
    if legacy:
        return legacy
    best = min((_lenient(data, codec) + (codec,) for codec in ("utf-8", "gb18030")), key=lambda t: t[1])
    if best[1] <= MAX_BAD_CHAR_RATIO:
        return best[0], f"{best[2]}/replace"
    try:
        from charset_normalizer import from_bytes

        guess = from_bytes(data).best()
    except Exception:
        guess = None
    if guess is None or guess.encoding is None:
        raise IngestError(name, "无法识别文件编码：按 UTF-8 和 GB18030 解码均有超过 1% 的乱码，请另存为 UTF-8 后再上传")
    return str(guess), guess.encoding
