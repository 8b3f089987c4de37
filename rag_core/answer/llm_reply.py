"""What an OpenAI-compatible reply holds and what of its address may be shown: plain functions of the answer
step's client (`answer/llm.py`), apart so that file stays about the calls."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def text_of(content: object) -> str | None:
    """A message's text: a string, or the text parts of a list (some gateways send
    `[{"type": "text", "text": …}]`); None when it is neither, so the reply is unreadable."""
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        return None
    texts = []
    for part in content:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict):
            if part.get("type", "text") == "text" and isinstance(part.get("text"), str):
                texts.append(part["text"])  # other parts (an image) carry no answer text
        else:
            return None
    return "".join(texts)


def redact_url(url: str) -> str:
    """`url` without its user:password@, query and fragment: safe to show (a page shows LLM_BASE_URL with it)."""
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        port = parts.port  # 80800 or 8o80 raise here, not at urlsplit (review 357)
    except ValueError:
        return "(无效地址)"
    host = parts.hostname or ""
    if port:
        host = f"{host}:{port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))
