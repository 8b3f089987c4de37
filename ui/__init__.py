"""Streamlit helpers shared by the pages: the cached facade, session state and trace rendering.

Kept out of `rag_core` on purpose: the engine must not depend on Streamlit.
"""
