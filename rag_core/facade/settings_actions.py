"""Settings actions: the settings page's changes put in force now and kept in settings.json for every start.

Only the knobs in `settings.LIMITS` change at run time; the data dir, the models and the LLM come from .env and a
restart. The save merges with settings.json as it is now (`shared_settings`), so another replica's saves are kept.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from ..errors import SettingsError
from ..settings import LIMITS, SAVED_FILE, Settings, shown_number
from ..storage import saved_settings as saved_file  # settings.json: the settings page's changes
from ..types import Principal
from .core import FacadeCore
from .shared_settings import on_file_now, saving


class SettingsActions(FacadeCore):
    """Mixin of `Assistant`: the settings page's save and clear (one audit row each)."""

    def update_settings(self, *, actor: Principal | None = None, **changes) -> bool:
        """Apply validated changes now; True when chunking changed (re-index needed). One audit row.

        The save merges with settings.json as it is now (`shared_settings`): another replica's saves are kept."""
        actor = self._acting(actor, "settings")
        try:
            if fixed := sorted(set(changes) - set(LIMITS)):  # the data dir, the models, the LLM: .env and a restart
                raise SettingsError(f"这些设置不能在运行中修改：{'、'.join(fixed)}；请改 .env 后重启")
            # the file and what is in force change together: put in force after the lock, another admin's save
            # made meanwhile was overwritten by this one's older view (on disk, not in force)
            with saving(self._settings.data_dir):  # another replica's saves since this start are kept
                was = self._settings  # the audit row's old values
                base, saved = on_file_now(self._env_settings, self._settings, self._saved)
                new = base.with_changes(**changes)
                kept = saved_file.save_changes(new, saved | set(changes), self._env_settings)
                self._saved = saved | set(changes)
                needs_reindex = self._put_in_force(new)
                self._saved_file_handled(kept)
        except Exception as exc:
            self._audit(actor, "settings.change", ", ".join(sorted(changes)), "failed", str(exc))
            raise
        self._audit(actor, "settings.change", ", ".join(sorted(changes)), "ok", change_detail(was, changes, kept))
        return needs_reindex

    def _saved_file_handled(self, kept: str) -> None:
        """settings.json was rewritten or removed: the start's notice about it is stale, and the copy is named."""
        with suppress(ValueError):  # another session's save took it out between a look and a remove
            self.store_notices.remove(self._saved_notice)
        self.settings_notice = kept_notice(kept)

    def _put_in_force(self, new: Settings) -> bool:
        """Put `new` in force now; True when chunking changed (re-index needed)."""
        needs_reindex = (new.chunk_size, new.chunk_overlap) != (self._settings.chunk_size, self._settings.chunk_overlap)
        self._settings = new
        if self._memory is not None:
            self._memory.half_life_days = new.memory_half_life_days
            self._memory.threshold = new.memory_threshold
            self._memory.top_k = new.memory_top_k
        return needs_reindex

    shown_setting = staticmethod(shown_number)  # a knob's value as the settings page and the audit trail say it

    @property
    def env_settings(self) -> dict[str, object]:
        """The knobs .env (or the environment) sets away from the built-in defaults: the page says where a value
        comes from, and that 恢复默认值 would write over it (review 395 #3)."""
        defaults = Settings()
        return {name: getattr(self._env_settings, name) for name in LIMITS
                if getattr(self._env_settings, name, None) != getattr(defaults, name, None)}

    @property
    def saved_settings(self) -> dict[str, object]:
        """The knobs the settings page changed, which override .env at every start (`<data dir>/settings.json`)."""
        return {name: getattr(self._settings, name) for name in sorted(self._saved)}

    def forget_saved_settings(self, *, actor: Principal | None = None) -> bool:
        """Back to .env and the defaults: the page's saved changes are removed; True when chunking changed."""
        actor = self._acting(actor, "settings")
        forgotten, was = sorted(self._saved), self._settings
        try:  # a file the start could not use whole is kept aside, not deleted
            with saving(self._settings.data_dir):  # as a save: the file and what is in force change together
                kept = saved_file.forget_changes(self._env_settings)
                self._saved = frozenset()
                needs_reindex = self._put_in_force(self._env_settings)
                self._saved_file_handled(kept)
        except SettingsError as exc:
            self._audit(actor, "settings.change", ", ".join(forgotten), "failed", str(exc))
            raise
        back = change_detail(was, {k: getattr(self._env_settings, k) for k in forgotten}, "")  # review 395 #5
        self._audit(actor, "settings.change", ", ".join(forgotten), "ok", "清除设置页保存的修改，改回 .env 和默认值"
                    + (f"：{back}" if back else "") + (f"；{self.settings_notice}" if kept else ""))
        return needs_reindex


def change_detail(old: Settings, changes: dict[str, Any], kept: str) -> str:
    """The audit row of a settings change: each knob's old → new value (a secret masked), and where the old file went."""
    shown = {k: ("***", "***") if "key" in k or "secret" in k else (shown_number(getattr(old, k, "")), shown_number(v))
             for k, v in changes.items()}
    return "；".join(f"{k}: {was} → {now}" for k, (was, now) in shown.items()) + (f"；{kept_notice(kept)}" if kept else "")


def kept_notice(kept: str) -> str:
    """The Chinese line naming the copy a save or a clear kept ("" when none was)."""
    return f"原来的 {SAVED_FILE} 已原样另存为 {kept}，没有丢失；其中不在新设置里的值如仍需要，请在设置页重新设置" if kept else ""
