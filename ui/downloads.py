"""A file built when its button is clicked, with a refusal or a damaged store said in Chinese on the page.

Built at every run, a large workbook cost seconds a click anywhere on the page (review 364); built by
`st.download_button`'s deferred callable, an error reached the browser as Streamlit's English "Failed to generate
file for download" (review 366). So the button builds it in the page's run, and a download button then hands it over.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from rag_core import RagError
from ui.inert import escape_md


def built_on_click(label: str, build: Callable[[], bytes], file_name: str, key: str) -> None:
    """`label` builds the file (`build`); then 下载 hands it over without rerunning the page."""
    if not st.button(label, key=key, icon=":material/download:"):
        return
    try:
        with st.spinner("正在生成文件…"):
            data = build()
    except RagError as exc:
        st.error(f"导出失败：{escape_md(exc)}", icon=":material/error:")
        return
    st.download_button(f"下载 {file_name}", data, file_name=file_name, key=f"{key}_file", type="primary",
                       icon=":material/download:", on_click="ignore")
    st.caption(f"文件已生成（{len(data):,} 字节），点上面的按钮保存。")
