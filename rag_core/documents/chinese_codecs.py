"""GB18030 or Big5? Legacy Chinese bytes that are not UTF-8.

Almost every Big5 byte pair is also a valid GB18030 pair, so a strict GB18030
decode of a Big5 file "succeeds" and indexes mojibake (員工 → 叫安). Real
simplified text decoded as GB18030 is almost entirely GB2312 characters (the
common 6,763 hanzi and punctuation: 1.00 on the real regulation corpora); Big5
misread as GB18030 is not (0.47 on a traditional-Chinese leave policy), because
Big5 trail bytes 0x40-0x7E and its lead rows land on kana, Greek and rare
characters. Below the threshold the file is read as Big5 when Big5 decodes it
into Chinese text; GB18030 text with rare characters (𠮷, 䶮) that Big5 cannot
decode stays GB18030.
"""

from __future__ import annotations

from ..errors import IngestError

GB2312_SHARE_MIN = 0.9  # share of non-ASCII characters that GB2312 holds, for text read as GB18030


def _gb2312_share(text: str) -> float:
    wide = [ch for ch in text if ord(ch) > 127]
    if not wide:
        return 1.0
    held = 0
    for ch in wide:
        try:
            ch.encode("gb2312")
        except UnicodeEncodeError:
            continue
        held += 1
    return held / len(wide)


def _chinese_share(text: str) -> float:
    wide = [ch for ch in text if ord(ch) > 127]
    chinese = sum(1 for ch in wide if "\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef")
    return chinese / len(wide) if wide else 1.0


def decode_legacy_chinese(data: bytes, name: str) -> tuple[str, str] | None:
    """(text, codec) for GB18030 or Big5 bytes; None when neither decodes them strictly.

    Raises IngestError when GB18030 reads only unlikely characters, Big5 reads something
    other than Chinese text, and so neither reading can be trusted.
    """
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        text = None
    if text is not None and _gb2312_share(text) >= GB2312_SHARE_MIN:
        return text, "gb18030"
    for codec in ("big5", "cp950"):  # cp950: Big5 with Microsoft's extensions
        try:
            big5 = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if _chinese_share(big5) >= GB2312_SHARE_MIN:
            return big5, codec
        if text is not None:
            raise IngestError(
                name, "无法确定文件编码：按 GB18030 和 Big5 解码都像乱码。请另存为 UTF-8 后再上传"
            )
    return (text, "gb18030") if text is not None else None
