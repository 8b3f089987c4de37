"""Zip checks shared by Word (.docx) and Excel (.xlsx): bombs refused from the zip directory alone.

Moved from `docx_format` (which still exports `check_zip`). These bound bytes, not elements: the element
budgets over the inflated XML are in `docx_bounds` (Word) and `spreadsheet_format` (Excel).
"""

from __future__ import annotations

import io
import zipfile

from ..errors import IngestError, OverBound

MB = 1024 * 1024
DOCX_MAX_UNCOMPRESSED = 200 * MB  # sum of member sizes declared in the zip directory
DOCX_MAX_RATIO = 100  # per member; real document.xml stays well below this
DOCX_MAX_MEMBERS = 5000
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

_KINDS = {
    "word/document.xml": ("Word 文档（.docx）", "旧版 Word（.doc）文件或已加密的文档，请在 Word 中另存为未加密的 .docx"),
    "xl/workbook.xml": ("Excel 工作簿（.xlsx）", "旧版 Excel（.xls）文件或已加密的工作簿，请在 Excel 中另存为未加密的 .xlsx"),
}


def check_zip(data: bytes, name: str, main_part: str = "word/document.xml") -> zipfile.ZipFile:
    """Open the zip and refuse bombs from the directory alone, before inflating anything."""
    kind, old_format = _KINDS[main_part]
    if data.startswith(_OLE_MAGIC):
        raise IngestError(name, f"这是{old_format}后再上传")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise IngestError(name, f"文件已损坏或不是有效的 {kind}") from exc
    if len(infos) > DOCX_MAX_MEMBERS:
        raise OverBound(name, f"压缩包内文件数 {len(infos)} 过多，疑似压缩炸弹，已拒绝")
    total = sum(info.file_size for info in infos)
    if total > DOCX_MAX_UNCOMPRESSED:
        raise OverBound(
            name, f"解压后大小 {total / MB:.0f} MB 超过上限 {DOCX_MAX_UNCOMPRESSED // MB} MB，疑似压缩炸弹，已拒绝"
        )
    for info in infos:
        if info.file_size > MB and info.file_size > DOCX_MAX_RATIO * max(info.compress_size, 1):
            ratio = info.file_size // max(info.compress_size, 1)
            raise OverBound(name, f"压缩比异常（{ratio}:1，上限 {DOCX_MAX_RATIO}:1），疑似压缩炸弹，已拒绝")
    if main_part not in archive.namelist():
        raise IngestError(name, f"文件已损坏或不是有效的 {kind}，缺少 {main_part}")
    return archive
