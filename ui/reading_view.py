"""How a file was read (tables, sheets, OCR'd pages, page furniture) and its chunks as the index sees them.

Used by the documents page after an upload, so HR can check that a table kept its
headers, which scanned pages were read with what confidence, and what was dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from rag_core import Chunk, IngestReport
from ui.inert import escape_md
from ui.trace_view import render_chunk_text

PREVIEW_CHUNKS = 6


def reading_lines(report: IngestReport) -> list[str]:
    """The reading in plain words, one fact a line ("" facts left out)."""
    r = report.reading
    if r is None:
        return []
    lines = []
    if r.sheets:
        lines.append(f"工作表：{'、'.join(r.sheets)}")
    if r.hidden_sheets:
        lines.append(f"已跳过的隐藏工作表：{'、'.join(r.hidden_sheets)}")
    lines.append(f"表格：{r.tables} 个（{r.table_rows} 行，每行连同表头编入索引）" if r.tables else "表格：未发现")
    if r.furniture_removed:
        lines.append(f"去掉的页眉、页脚和页码：{r.furniture_removed} 行，如 " + "、".join(f"「{x}」" for x in r.furniture))
    return lines


def ocr_frame(report: IngestReport) -> pd.DataFrame | None:
    r = report.reading
    if r is None or not r.ocr_pages:
        return None
    return pd.DataFrame(
        [
            {
                "页码": p.page,
                "置信度": round(p.confidence, 2),
                "识别字数": p.chars,
                "编入索引": "是" if p.indexed else "否（置信度不足，请核对原件）",
                "用时（秒）": p.seconds,
            }
            for p in r.ocr_pages
        ]
    )


def render_reading(report: IngestReport, chunks: Sequence[Chunk]) -> None:
    """One file's reading and the first chunks, inside an expander."""
    with st.expander(f"《{escape_md(report.filename)}》是怎样读取的", icon=":material/find_in_page:"):
        for line in reading_lines(report):
            st.markdown(f"- {escape_md(line)}")
        frame = ocr_frame(report)
        if frame is not None:
            st.markdown("**扫描页 OCR**（置信度低于 0.80 的页不编入索引）")
            st.dataframe(frame, hide_index=True, width="stretch")
        if chunks:
            st.markdown(f"**索引中的前 {min(len(chunks), PREVIEW_CHUNKS)} 块**（共 {len(chunks)} 块）")
            for chunk in list(chunks)[:PREVIEW_CHUNKS]:
                where = " · ".join(x for x in (chunk.section, f"第 {chunk.page} 页" if chunk.page else "") if x)
                st.caption(f"第 {chunk.index + 1} 块" + (f" · {escape_md(where)}" if where else ""))
                render_chunk_text(chunk.text)
