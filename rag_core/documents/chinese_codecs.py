"""GB18030, Big5 or Shift-JIS? Legacy East Asian bytes that are not UTF-8.

Almost every Big5 byte pair is also a valid GB18030 pair, so a strict GB18030
decode of a Big5 file "succeeds" and indexes mojibake (員工 → 叫安). Real
simplified text decoded as GB18030 is almost entirely GB2312 characters (the
common 6,763 hanzi and punctuation: 1.00 on the real regulation corpora); Big5
misread as GB18030 is not (0.47 on a traditional-Chinese leave policy), because
Big5 trail bytes 0x40-0x7E and its lead rows land on kana, Greek and rare
characters. Below the threshold the file is read as Big5 when Big5 decodes it
into Chinese text; GB18030 text with rare characters (𠮷, 䶮) that Big5 cannot
decode stays GB18030.

Shift-JIS also decodes as GB18030, into characters GB2312 never holds (就業規則 → 廇嬈婯懃,
a GB2312 share of 0.0), so it is tried after Big5: taken when its reading is Japanese (kana,
or some kana and only common JIS level-1 kanji; kanji alone cannot be told from GBK's
extension area). EUC-JP kana are GB2312's kana rows, so a GB18030 reading full of kana is
tried as EUC-JP first. GB18030 text below half GB2312 that is neither Big5 nor
Japanese is refused with a reason instead of indexed as mojibake.
"""

from __future__ import annotations

from ..errors import IngestError

GB2312_SHARE_MIN = 0.9  # share of non-ASCII characters that GB2312 holds, for text read as GB18030
GB2312_SHARE_RARE = 0.5  # below this, a GB18030 reading is not "Chinese with rare characters" but mojibake
KANA_SHARE_MIN = 0.15  # Japanese prose is some 40-60% kana; Chinese misread as Shift-JIS has none
JIS_LEVEL1_END = b"\x98\x73"  # Shift-JIS codes below this: punctuation, kana and the 2,965 common kanji


def _gb2312_share(text: str) -> float:
    wide = [ch for ch in text if ord(ch) > 127]
    if not wide:
        return 1.0
    held = 0
    for ch in wide:
        if "\u2010" <= ch <= "\u2027":  # dashes and quotes GBK writes with GB2312's codes (—— is A1AA)
            held += 1
            continue
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


def _kana_share(text: str) -> float:
    wide = [ch for ch in text if ord(ch) > 127]
    return sum(1 for ch in wide if "\u3040" <= ch <= "\u30ff") / len(wide) if wide else 0.0


def _japanese(text: str) -> bool:
    """Does a Shift-JIS reading look like Japanese: enough kana, or almost only common kanji?"""
    wide = [ch for ch in text if ord(ch) > 127]
    if not wide:
        return False
    kana = _kana_share(text)
    if kana >= KANA_SHARE_MIN:
        return True
    if not kana:  # kanji only: GBK's extension area reads as level-1 kanji too, so it cannot be told apart
        return False
    common = 0
    for ch in wide:
        try:
            code = ch.encode("cp932")
        except UnicodeEncodeError:
            continue
        common += len(code) == 2 and code < JIS_LEVEL1_END
    return common / len(wide) >= GB2312_SHARE_MIN


def _strict(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


def decode_legacy_chinese(data: bytes, name: str) -> tuple[str, str] | None:
    """(text, codec) for GB18030, Big5 or Shift-JIS bytes; None when none decodes them strictly.

    Raises IngestError when GB18030 reads only unlikely characters, Big5 reads something
    other than Chinese text, Shift-JIS reads something other than Japanese, and so no
    reading can be trusted.
    """
    text = _strict(data, "gb18030")
    if text is not None and _kana_share(text) >= KANA_SHARE_MIN:  # GB2312 has the kana rows EUC-JP uses
        japanese = _strict(data, "euc_jp")
        if japanese is not None and _japanese(japanese):
            return japanese, "euc_jp"
    if text is not None and _gb2312_share(text) >= GB2312_SHARE_MIN:
        return text, "gb18030"
    big5_read = False
    for codec in ("big5", "cp950"):  # cp950: Big5 with Microsoft's extensions
        big5 = _strict(data, codec)
        if big5 is None:
            continue
        if _chinese_share(big5) >= GB2312_SHARE_MIN:
            return big5, codec
        big5_read = True
    for codec in ("shift_jis", "cp932"):  # cp932: Shift-JIS with Microsoft's extensions
        japanese = _strict(data, codec)
        if japanese is not None and _japanese(japanese):
            return japanese, codec
    if text is not None and not big5_read and _gb2312_share(text) >= GB2312_SHARE_RARE:
        return text, "gb18030"  # Chinese with rare characters (𠮷, 䶮) that Big5 cannot hold
    if text is not None or big5_read:
        raise IngestError(
            name, "无法确定文件编码：按 GB18030、Big5 和 Shift-JIS 解码都像乱码。请另存为 UTF-8 后再上传"
        )
    return None


def decode_utf16_chinese(data: bytes) -> tuple[str, str] | None:
    """UTF-16 without a BOM and without NUL bytes: Chinese text with no ASCII at all (员 = 58 54).

    GB18030 bytes read as UTF-16 land on Hangul, surrogates and private use, never on common
    hanzi, so a reading that is almost only common simplified Chinese is trusted. Bytes that are
    valid UTF-8 are left to UTF-8: a short UTF-8 text (b倖) also reads as two common hanzi (拥肖).
    """
    if len(data) % 2 or len(data) < 4 or _strict(data, "utf-8") is not None:
        return None
    for codec in ("utf-16-le", "utf-16-be"):
        text = _strict(data, codec)
        if text is None or any(ord(ch) < 32 and ch not in "\t\n\r" for ch in text):
            continue
        wide = sum(1 for ch in text if ord(ch) > 127)
        if wide * 2 >= len(text) and _chinese_share(text) >= GB2312_SHARE_MIN and _gb2312_share(text) >= GB2312_SHARE_MIN:
            return text, codec
    return None


ENCODING_NAMES = {
    "big5": "繁体中文 Big5", "cp950": "繁体中文 Big5", "shift_jis": "日文 Shift-JIS", "cp932": "日文 Shift-JIS",
    "euc_jp": "日文 EUC-JP",
    "utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "utf-32-le": "UTF-32", "utf-32-be": "UTF-32",
}
PLAIN_ENCODINGS = {"utf-8", "utf-8-sig", "ascii", "gb18030"}  # the usual ones: nothing to say


def encoding_note(codec: str | None, text: str) -> str | None:
    """The upload report's line on how a text file was decoded; None when it was plain UTF-8 or GBK.

    Never silent about a guess: a lossy or statistical decoding says so, so mojibake is caught by a person.
    """
    if not codec or codec in PLAIN_ENCODINGS:
        return None
    if codec.endswith("/replace"):
        bad = text.count("\ufffd")
        return (f"文件里有 {bad} 处无法按 {codec.split('/')[0].upper()} 解码的字节，已替换为 �；"
                "请核对这些位置，最好另存为 UTF-8 后重新上传")
    if codec in ENCODING_NAMES:
        return f"文件编码识别为 {ENCODING_NAMES[codec]}，已转换为 UTF-8"
    return (f"文件编码按统计推测为 {codec}，可能不准确：如果分块预览里有乱码，请另存为 UTF-8 后重新上传")
