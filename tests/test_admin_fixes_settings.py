"""A damaged settings.json nested too deep (admin review; failed before the fix)."""

from __future__ import annotations

from fakes import fake_assistant


def test_a_deeply_nested_settings_json_does_not_stop_the_start(tmp_path):
    data_dir = tmp_path / "store"
    data_dir.mkdir()
    (data_dir / "settings.json").write_text("[" * 100_000, encoding="utf-8")
    notices = fake_assistant(data_dir).store_notices
    assert any("settings.json" in n and "无法读取" in n and "嵌套层数过多" in n for n in notices), notices
