"""Streamlit's own table download (the hover toolbar) writes cells as shown: a document named =HYPERLINK(…) would
open in Excel as a formula. The app turns it off; the pages' CSV/Excel buttons neutralise formulas (review 173)."""

import tomllib
from pathlib import Path

CONFIG = Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml"


def test_the_tables_own_download_is_off():
    assert tomllib.loads(CONFIG.read_text(encoding="utf-8"))["client"]["disableDataExport"] is True


def test_streamlit_reads_the_option_from_the_apps_config(monkeypatch):
    from streamlit import config

    monkeypatch.chdir(CONFIG.parent.parent)
    config.get_config_options(force_reparse=True)
    try:
        assert config.get_option("client.disableDataExport") is True
    finally:
        config.get_config_options(force_reparse=True)
