"""Optional LLM answerer over any OpenAI-compatible chat endpoint.

The engine works without an LLM (see `answer_extractive`); this module is only
used when both an API key and a model id are configured. Every failure is turned
into `LLMError` with a Chinese message that never contains the API key, so the
UI can show it as-is.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..errors import RagError
from ..text.pii import redact_text
from .cut_number import number_in_progress, without_cut_number
from .deadline import Deadline, DeadlinePassed, Register, within
from .llm_reply import redact_url, text_of
from .llm_retry import retry_pause, waited
from .prompt import NOT_IN_POLICY  # noqa: F401  (re-exported: the refusal line has one owner, prompt.py)

if TYPE_CHECKING:
    import openai

    from ..settings import Settings


def _sdk():
    """The openai package, imported when a client is used: the offline answerer never pays its 0.4-0.6 s import."""
    import openai

    return openai


_MAX_DETAIL_CHARS = 200
_KEY_PIECE = 6  # a run this long of a server's text that is part of the key is taken for the key
# The most an answer may run to: a policy answer quotes a few clauses (a few hundred characters), so 1024
# tokens leave room for a long one while a model that repeats itself stops within seconds, not at its context.
ANSWER_MAX_TOKENS = 1024
CUT_BY_SERVICE = frozenset({"content_filter", "error", "abort", "cancelled"})
# what ends an answer the model stopped for its length (finish_reason "length") or the engine cut
CUT_NOTE = "（回答过长，已在此截断；完整内容请查看所引条款原文。）"
# A call for a short reply (at most SHORT_REPLY_TOKENS: a follow-up rewritten as a question) only helps the
# search, and rules stand in for it: it may take SHORT_CALL_S at most, not the whole `llm_timeout_s`.
SHORT_REPLY_TOKENS = 128
SHORT_CALL_S = 6.0
# Each piece of answer text gives a streamed answer its limit again, but the whole answer may take at most this
# many limits (3 min at the default 60 s): a server dripping a character just inside each limit is cut there.
WHOLE_ANSWER_LIMITS = 3


class LLMError(RagError):
    """The LLM call failed; the message is safe to show (no secrets)."""

    def __init__(self, message: str, *, status_code: int | None = None, kind: str = "error"):
        super().__init__(message)
        self.status_code = status_code
        self.kind = kind  # "auth", "timeout", "connection", "status", "response", "error"


@runtime_checkable
class LLMClient(Protocol):
    """What the answer step needs from a model: a name for the trace, text in, text out."""

    name: str

    def complete(self, prompt: str) -> str: ...

    def stream(self, prompt: str) -> Iterator[str]: ...


class OpenAICompatibleClient:
    """Chat-completions client; one user message, temperature 0 for repeatable answers.

    The prompt built by the engine already carries the guardrails, so `system`
    is optional and only sent when given.
    """

    def __init__(
        self,
        api_key: str,
        model: str,
        base_url: str = "",
        timeout_s: float = 60.0,
        system: str | None = None,
        max_retries: int = 1,
    ) -> None:
        openai = _sdk()
        if not api_key:
            raise LLMError("未配置大模型 API 密钥(LLM_API_KEY)", kind="config")
        if not model:
            raise LLMError("未配置大模型名称(LLM_MODEL_ID)", kind="config")
        self.name = model
        self.model = model
        self.base_url = base_url
        self.system = system
        self.timeout_s = timeout_s
        self._secret = api_key
        self.retries = max_retries  # ours (`_opened`): the SDK's own ran on after the caller's deadline (363 #7)
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url or None, timeout=timeout_s, max_retries=0)

    @classmethod
    def from_settings(cls, settings: Settings, system: str | None = None) -> OpenAICompatibleClient:
        return cls(
            api_key=settings.llm_api_key,
            model=settings.llm_model_id,
            base_url=settings.llm_base_url,
            timeout_s=settings.llm_timeout_s,
            system=system,
        )

    def __repr__(self) -> str:  # never show the key in logs or debuggers
        return f"OpenAICompatibleClient(model={self.model!r}, base_url={self._scrub(redact_url(self.base_url))!r})"

    # -- calls -------------------------------------------------------------

    def _messages(self, prompt: str) -> list[dict[str, str]]:
        messages = []
        if self.system:
            messages.append({"role": "system", "content": self.system})
        messages.append({"role": "user", "content": prompt})
        return messages

    def _create(self, prompt: str, options: dict[str, object]):
        """The request, its body read as it comes (`within` closes it at the deadline)."""
        return self._client.chat.completions.with_streaming_response.create(
            model=self.model, messages=self._messages(prompt), temperature=0, **options)  # type: ignore[arg-type]

    def _opened(self, prompt: str, options: dict[str, object], register: Register) -> tuple[ExitStack, object]:
        """The response (closed with the stack), its request tried again `retries` times after a transient failure
        while the caller still waits: the SDK's own retry ran on past the deadline, a second request to a server
        that never answered (review 363 #7)."""
        attempt = 0
        while True:
            stack = ExitStack()
            try:
                return stack, stack.enter_context(self._create(prompt, options))
            except Exception as exc:
                stack.close()
                pause = None if attempt >= self.retries or register.gave_up() else retry_pause(exc)
                if pause is None or not waited(pause, register):  # no request nobody waits for (378 #3)
                    raise
            attempt += 1

    def _deadline(self, max_tokens: int | None, deadline_s: float | None) -> float:
        """The call's wall-clock limit: `deadline_s`, else `SHORT_CALL_S` for a short reply, else the timeout; never
        more than the timeout (memory extraction's 6 s once waited 6 s on a 3 s setting, review 363)."""
        if deadline_s is not None:
            return min(deadline_s, self.timeout_s)
        if max_tokens is not None and max_tokens <= SHORT_REPLY_TOKENS:
            return min(self.timeout_s, SHORT_CALL_S)
        return self.timeout_s

    def complete(self, prompt: str, max_tokens: int | None = None, deadline_s: float | None = None) -> str:
        """One reply; `max_tokens` bounds it (the answer step sends `ANSWER_MAX_TOKENS`, a rewrite far fewer).

        A blank reply, a body that is not a chat completion (an HTML page with status 200) or one the service cut
        (`CUT_BY_SERVICE`) is an LLMError; one stopped for its length ends with `CUT_NOTE`. No finish reason is a
        whole reply (some servers send none; valid JSON read to its end was not cut, unlike a stream). The call ends
        by `deadline_s` (`_deadline`) even when the server sends the body a byte at a time: an LLMError too."""
        openai = _sdk()
        bound = {"max_tokens": max_tokens} if max_tokens else {}

        def produce(register: Register) -> Iterator[object]:
            stack, raw = self._opened(prompt, bound, register)
            with stack:
                register(raw.http_response)  # closed at the deadline: the body's read ends
                yield raw.json()

        call = within(self._deadline(max_tokens, deadline_s), produce)
        try:
            response = next(call)
        except DeadlinePassed:
            raise self._timeout() from None
        except openai.OpenAIError as exc:
            raise self._translate(exc) from None
        except ValueError:  # json.JSONDecodeError: a proxy's error page instead of JSON
            raise self._unreadable() from None
        except Exception as exc:  # the HTTP layer's own errors while the body is read
            raise self._broken(exc) from None
        finally:
            call.close()
        text, finish = self._reply_of(response)
        if not text.strip():
            raise self._blank()
        if finish in CUT_BY_SERVICE:
            raise self._cut_by_service(finish)
        return f"{without_cut_number(text)}\n\n{CUT_NOTE}" if finish == "length" else text

    def _reply_of(self, data: object) -> tuple[str, object]:
        """(text, finish reason) of a chat completion's JSON; an LLMError when it is none."""
        try:
            choices = data["choices"]  # type: ignore[index]
            if not choices:
                raise LLMError(f"大模型 {self.model} 没有返回任何内容", kind="response")
            text, finish = text_of(choices[0]["message"].get("content")), choices[0].get("finish_reason")
        except (AttributeError, TypeError, IndexError, KeyError):  # JSON, but not a chat completion
            raise self._unreadable() from None
        if text is None:  # a content that is neither text nor text parts
            raise self._unreadable()
        return text, finish

    def stream(
        self, prompt: str, max_tokens: int | None = ANSWER_MAX_TOKENS, deadline_s: float | None = None
    ) -> Iterator[str]:
        """Yield text deltas as they arrive; errors surface on iteration as LLMError.

        Only a stream the model finished (finish_reason "stop") is a whole answer. One that ends without
        a finish reason was cut off (a dropped connection, a proxy's timeout): LLMError, so the caller does
        not store half an answer as a whole one. One the model stopped for its length ends with `CUT_NOTE`:
        what came is a real answer, only shortened, less a number it was cut inside (so a number at the end
        of a piece is held back until the next one). A blank stream is an LLMError, and so is one that shows no
        answer text for the whole limit (`_deadline`): chunks without it (a reasoning model's thinking) do not
        keep it open, while each piece of answer text gives the limit again (a slow model writing a long answer),
        up to `WHOLE_ANSWER_LIMITS` limits for the whole answer: past that it is an LLMError too, so the caller
        gives its offline answer instead of a model's answer cut where the time ran out. A server that ignores
        `stream: true` and answers with one JSON completion is read as `complete` reads it (one piece); an event stream
        labelled application/json is still read as a stream (told by its body)."""
        openai = _sdk()
        bound = {"max_tokens": max_tokens} if max_tokens else {}

        def produce(register: Register) -> Iterator[object]:
            stack, raw = self._opened(prompt, {**bound, "stream": True}, register)
            with stack:
                register(raw.http_response)  # closed at the deadline, or when the caller stops reading
                # labelled JSON: one whole completion, or an event stream some gateways label so (read whole, by body)
                if "json" in raw.headers.get("content-type", "").lower() and raw.read().lstrip().startswith(b"{"):
                    yield raw.json()
                else:
                    yield from raw.parse()

        finish, written, held, chunks = None, False, "", 0
        seconds = self._deadline(max_tokens, deadline_s)
        limit = Deadline(seconds, whole=seconds * WHOLE_ANSWER_LIMITS)  # renewed by each piece of answer text
        calls = within(limit, produce)
        try:
            for chunk in calls:
                chunks += 1
                if isinstance(chunk, dict):  # the whole reply at once; no finish reason is whole, as in `complete`
                    held, finish = self._reply_of(chunk)
                    finish, written = finish or "stop", bool(held.strip())
                    continue
                if not chunk.choices:  # type: ignore[attr-defined]  # e.g. a trailing usage-only chunk
                    continue
                choice = chunk.choices[0]  # type: ignore[attr-defined]
                finish = choice.finish_reason or finish
                piece = text_of(choice.delta.content) if choice.delta is not None else ""
                if piece is None:
                    raise self._unreadable()
                if piece:
                    if piece.strip():
                        limit.renew()
                    written = written or bool(piece.strip())
                    held += piece
                    ready = number_in_progress(held)
                    if ready:
                        yield held[:ready]
                        held = held[ready:]
        except LLMError:
            raise
        except DeadlinePassed:
            raise (self._too_slow(seconds * WHOLE_ANSWER_LIMITS) if limit.spent else self._timeout()) from None
        except openai.OpenAIError as exc:
            raise self._translate(exc) from None
        except Exception as exc:  # the HTTP layer can raise its own read errors mid-stream
            raise self._broken(exc) from None
        finally:
            calls.close()
        if finish is None and not chunks:  # an empty body, or one the SSE reader found no event in
            raise LLMError(f"大模型 {self.model} 的流式回复没有任何内容：该服务可能不支持流式输出", kind="response")
        if finish is None:
            raise LLMError(f"大模型 {self.model} 的流式回复没有正常结束（连接被中断），回答不完整", kind="connection")
        if not written:
            raise self._blank()
        if finish == "length":
            yield f"{without_cut_number(held)}\n\n{CUT_NOTE}"
        elif finish in CUT_BY_SERVICE:  # the service cut the answer; other reasons (eos_token, stop_sequence) end it
            raise self._cut_by_service(finish)
        elif held:
            yield held

    # -- errors --------------------------------------------------------------

    def _where(self) -> str:
        """The service's address as messages show it: no user:password, no query, and no API key in its path."""
        return self._scrub(redact_url(self.base_url)) or "默认 OpenAI 地址"

    def _cut_by_service(self, finish: object) -> LLMError:
        reason = redact_text(self._scrub(str(finish)[:200], partial=True))[:40]  # the server's text: scrubbed, masked
        return LLMError(f"大模型 {self.model} 的回复被服务中止（{reason}），回答不完整", kind="response")

    def _timeout(self) -> LLMError:
        return LLMError(f"大模型 {self.model} 响应超时({self._where()}),请稍后重试或调大超时时间", kind="timeout")

    def _too_slow(self, whole_s: float) -> LLMError:
        return LLMError(f"大模型 {self.model} 写回答超时({self._where()}):{whole_s:g} 秒内没有写完,回答不完整,"
                        "请稍后重试或调大超时时间", kind="timeout")

    def _broken(self, exc: Exception) -> LLMError:
        return LLMError(self._scrub(f"大模型 {self.model} 的回复中断:{type(exc).__name__}"), kind="connection")

    def _blank(self) -> LLMError:
        return LLMError(f"大模型 {self.model} 返回了空白回复", kind="response")

    def _unreadable(self) -> LLMError:
        return LLMError(f"大模型服务({self._where()})返回的内容无法解析，不是有效的回复，请检查 LLM_BASE_URL", kind="response")

    def _scrub(self, text: str, partial: bool = False) -> str:
        """Remove the key from anything we show; `partial` also hides its visible ends.

        Servers often echo a masked key ("sk-abc***wxyz") or a key split by their own formatting ("sk--abc…");
        from server-provided text, where a false match costs nothing, its last 4 characters and every run of
        `_KEY_PIECE` or more that is part of the key are stripped too.
        """
        key = self._secret
        if key:
            text = text.replace(key, "***")
            if partial and len(key) >= 8:
                text = _without_pieces(text.replace(key[-4:], "***"), key)
        return text

    def _translate(self, exc: openai.OpenAIError) -> LLMError:
        openai = _sdk()
        where = self._where()
        model = self.model
        if isinstance(exc, openai.APITimeoutError):
            return self._timeout()
        if isinstance(exc, openai.APIConnectionError):
            return LLMError(f"无法连接大模型服务({where}),请检查 LLM_BASE_URL 和网络", kind="connection")
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            detail = self._server_detail(exc)
            if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
                msg = f"大模型服务拒绝了 API 密钥(HTTP {status}),请检查 LLM_API_KEY"
                kind = "auth"
            elif isinstance(exc, openai.NotFoundError):
                msg = f"大模型服务找不到模型 {model} 或接口(HTTP {status}),请检查 LLM_MODEL_ID 和 LLM_BASE_URL"
                kind = "status"
            elif isinstance(exc, openai.RateLimitError):
                msg = f"大模型服务限流或额度不足(HTTP {status}),请稍后重试"
                kind = "status"
            else:
                msg = f"大模型服务返回错误(HTTP {status})"
                kind = "status"
            if detail:
                msg = f"{msg}:{detail}"
            return LLMError(self._scrub(msg), status_code=status, kind=kind)
        return LLMError(self._scrub(f"调用大模型 {model} 失败:{type(exc).__name__}"), kind="error")

    def _server_detail(self, exc: openai.APIStatusError) -> str:
        """The server's own error text, scrubbed of the key and masked (it may echo a prompt's personal data into
        the turn's trace), then shortened, to help fix configuration."""
        body = exc.body
        text = ""
        if isinstance(body, dict):
            inner = body.get("error", body)
            if isinstance(inner, dict):
                text = str(inner.get("message") or "")
            elif isinstance(inner, str):
                text = inner
        # masked before it is cut: a number cut short would be too short for the masking to know it
        text = redact_text(self._scrub(" ".join(text[: _MAX_DETAIL_CHARS * 5].split()), partial=True))
        if len(text) > _MAX_DETAIL_CHARS:
            text = text[:_MAX_DETAIL_CHARS] + "…"
        return text


def _without_pieces(text: str, key: str) -> str:
    """`text` with every run of `_KEY_PIECE` or more characters that also stands in `key` written ***."""
    parts, start = [], 0
    while start < len(text):
        length = 0
        while start + length < len(text) and text[start : start + length + 1] in key:
            length += 1
        if length >= _KEY_PIECE:
            parts.append("***")
            start += length
        else:
            parts.append(text[start])
            start += 1
    return "".join(parts)


def make_llm(settings: Settings, system: str | None = None) -> LLMClient | None:
    """The configured LLM (paused for a while after a call ran out its time: `llm_pause`), or None so the caller
    falls back to the extractive answerer."""
    if not settings.llm_configured:
        return None
    from .llm_pause import PausingLLM

    return PausingLLM(OpenAICompatibleClient.from_settings(settings, system=system))
