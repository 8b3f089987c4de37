"""What the sidebar and the settings page say of the models in use, in words (kept apart from `assistant.py`)."""

from __future__ import annotations

from typing import Any

from ..answer.llm import redact_url
from ..settings import Settings
from .core import FacadeCore


class ModelStatus(FacadeCore):
    """Mixin of `Assistant`: the models' lines for the pages."""

    llm: Any  # the answer step's client, or None (offline)
    second: Any  # the second ranking model, or None
    settings: Settings

    @property
    def llm_status(self) -> str:
        """One line for the sidebar: which model answers (and that it is paused after a call ran out its time:
        `answer.llm_pause`), or the offline answerer."""
        if self.llm is None:
            settings = self.settings
            if settings.llm_base_url or settings.llm_model_id or settings.llm_api_key:  # half set up: say what is
                missing = [name for name, value in (("LLM_API_KEY", settings.llm_api_key),  # missing (388 #1, 389 #5)
                                                    ("LLM_MODEL_ID", settings.llm_model_id)) if not value]
                if missing:
                    key = "；本地服务不校验密钥时 LLM_API_KEY 可填任意值，如 local" if "LLM_API_KEY" in missing else ""
                    return f"离线抽取式回答（大模型没有配置完整：缺少 {'、'.join(missing)}{key}）"
            return "离线抽取式回答（未配置大模型）"
        paused = self._paused_for()
        return f"大模型：{self.llm.name}（无回应，暂停调用约 {max(1, round(paused))} 秒，先用离线回答）" if paused else \
            f"大模型：{self.llm.name}"

    @property
    def llm_paused(self) -> bool:
        """The model did not answer within its time lately and is left alone for a while (`answer.llm_pause`)."""
        return self._paused_for() > 0

    def _paused_for(self) -> float:
        paused = getattr(self.llm, "paused_for", 0) if self.llm is not None else 0  # a client without a pause: 0
        return float(paused) if isinstance(paused, int | float) else 0.0

    @property
    def llm_address(self) -> str:
        """The model service's address as a page may show it: without a user:password, query or fragment."""
        return redact_url(self.settings.llm_base_url) or "（未设置）"

    @property
    def second_model_status(self) -> str:
        """What the settings page shows for the second ranking model."""
        return f"{self.second.embedder.model_id}（只用于排序）" if self.second is not None else "（不用）"
