"""OpenAI chat models on the official ``openai`` SDK: Chat Completions and the Responses API.

Any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio) works through ``base_url``. The SDK's own
retries are off (``max_retries=0``); :func:`~weft.ai.models.base.with_retries` applies the node's Max Retries
to the errors that are worth retrying, the same way for every provider.

The SDK sends through the kit's HTTP client (:func:`weft.ai.models.http_client.ai_http_client`, given as its
``http_client``): the environment's proxies as n8n reads them (``HTTPS_PROXY``, ``NO_PROXY``, …) and the extra CAs
of ``WEFT_EXTRA_CA_CERTS``, as for the HTTP Request node; ``.netrc`` is never read. (The SDK is built on
``httpx2`` but accepts an ``httpx`` client, which is what the kit's layer is.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import openai

from weft.ai.errors import ChatModelError
from weft.ai.messages import Message, ModelResponse, ToolDefinition
from weft.ai.models import _openai_wire as wire
from weft.ai.models._http_errors import Endpoint
from weft.ai.models._sdk_model import SdkChatModel, pass_on_stream
from weft.ai.models.base import RetryPolicy, StreamCallback
from weft.ai.models.http_client import ai_http_client

OPENAI_BASE_URL = "https://api.openai.com/v1"


@dataclass(frozen=True, kw_only=True)
class OpenAISettings:
    """Everything an :class:`OpenAIChatModel` needs; built by the node from its parameters and credential."""

    model: str
    api_key: str = ""
    base_url: str = OPENAI_BASE_URL
    api: Literal["chat_completions", "responses"] = "chat_completions"
    """``responses`` is lmChatOpenAi 1.3's "Use Responses API" (``/v1/responses``)."""
    temperature: float | None = None
    max_tokens: int | None = None
    """``None`` (n8n's -1) lets the server decide."""
    top_p: float | None = None
    frequency_penalty: float | None = None
    presence_penalty: float | None = None
    response_format: str | None = None
    """``json_object`` for JSON mode (Chat Completions only)."""
    reasoning_effort: str | None = None
    timeout: float = 60.0
    """Seconds per request (n8n's Timeout option is in milliseconds, default 60000)."""
    organization: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    provider: str = "OpenAI"
    """Names the service in error messages (``Ollama`` for the Ollama node)."""
    credential_type: str = "openAiApi"

    def describe(self) -> dict[str, Any]:
        """The settings as n8n logs the model's LangChain kwargs in the run data (no secret; recorded: cases
        a020-a022, a031): sampling options only when set, Timeout (ms) only when not the default."""
        data: dict[str, Any] = {}
        if self.provider == "OpenAI":
            data["openai_api_key"] = {"lc": 1, "type": "secret", "id": ["OPENAI_API_KEY"]}
        data["model"] = self.model
        for key in ("frequency_penalty", "max_tokens", "presence_penalty", "temperature", "top_p"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.timeout != 60.0:
            data["timeout"] = int(self.timeout * 1000)
        data["max_retries"] = self.retry.max_retries
        data["configuration"] = {"baseURL": self.base_url}
        data["model_kwargs"] = {"response_format": {"type": self.response_format}} if self.response_format else {}
        data["supports_strict_tool_calling"] = False
        if self.api == "responses":
            data["use_responses_api"] = True
        return data


class OpenAIChatModel(SdkChatModel[OpenAISettings]):
    """A :class:`~weft.ai.models.base.ChatModel` speaking the OpenAI API."""

    def __init__(self, settings: OpenAISettings) -> None:
        endpoint = Endpoint(
            provider=settings.provider, credential_type=settings.credential_type, base_url=settings.base_url
        )
        super().__init__(settings, endpoint)

    async def _call(
        self, messages: list[Message], tools: list[ToolDefinition], callback: StreamCallback | None
    ) -> ModelResponse:
        s = self.settings
        send = self._send_responses if s.api == "responses" else self._send_chat
        try:
            async with openai.AsyncOpenAI(
                api_key=s.api_key or "none",
                base_url=s.base_url,
                organization=s.organization or None,
                timeout=s.timeout,
                max_retries=0,
                default_headers=s.headers or None,
                # The SDK types ``http_client`` as ``httpx2.AsyncClient`` but takes an ``httpx.AsyncClient`` too
                # (its documented legacy-httpx path: timeouts, errors and streaming are mapped for it).
                http_client=ai_http_client(s.timeout),  # type: ignore[arg-type]
            ) as client:
                return await send(client, messages, tools, callback)
        except openai.APIError as exc:
            raise self._error_from_sdk(exc) from exc

    # ------------------------------------------------------------------ chat completions

    def chat_request(self, messages: list[Message], tools: list[ToolDefinition], *, stream: bool) -> dict[str, Any]:
        """The JSON body sent to ``/chat/completions``."""
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "messages": wire.chat_messages(messages), "stream": stream}
        if tools:
            body["tools"] = wire.chat_tools(tools)
        _put(body, "temperature", s.temperature)
        _put(body, "max_tokens", s.max_tokens)
        _put(body, "top_p", s.top_p)
        _put(body, "frequency_penalty", s.frequency_penalty)
        _put(body, "presence_penalty", s.presence_penalty)
        _put(body, "reasoning_effort", s.reasoning_effort)
        if s.response_format:
            body["response_format"] = {"type": s.response_format}
        if stream:
            body["stream_options"] = {"include_usage": True}
        return body

    async def _send_chat(
        self,
        client: openai.AsyncOpenAI,
        messages: list[Message],
        tools: list[ToolDefinition],
        callback: StreamCallback | None,
    ) -> ModelResponse:
        body = self.chat_request(messages, tools, stream=callback is not None)
        result: Any = await client.chat.completions.create(**body)
        if callback is None:
            return wire.from_sdk_chat_completion(result)
        return await pass_on_stream(result, wire.ChatStreamAccumulator(), callback)

    # ------------------------------------------------------------------ responses API

    def responses_request(
        self, messages: list[Message], tools: list[ToolDefinition], *, stream: bool
    ) -> dict[str, Any]:
        """The JSON body sent to ``/responses``."""
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "input": wire.responses_input(messages), "stream": stream}
        if tools:
            body["tools"] = wire.responses_tools(tools)
        _put(body, "temperature", s.temperature)
        _put(body, "max_output_tokens", s.max_tokens)
        _put(body, "top_p", s.top_p)
        if s.reasoning_effort:
            body["reasoning"] = {"effort": s.reasoning_effort}
        return body

    async def _send_responses(
        self,
        client: openai.AsyncOpenAI,
        messages: list[Message],
        tools: list[ToolDefinition],
        callback: StreamCallback | None,
    ) -> ModelResponse:
        body = self.responses_request(messages, tools, stream=callback is not None)
        result: Any = await client.responses.create(**body)
        if callback is None:
            return wire.from_sdk_response(result)
        return await _consume_response_events(result, callback, self.settings.provider)

    # ------------------------------------------------------------------ errors

    def _error_from_sdk(self, exc: openai.APIError) -> ChatModelError:
        return self._sdk_error(exc, openai, _status_detail)


def _status_detail(exc: openai.APIStatusError) -> tuple[str, str | None]:
    """OpenAI's message and error code, from its answer (else the SDK's)."""
    body = exc.body if isinstance(exc.body, dict) else {}
    code = body.get("code") or exc.code
    return str(body.get("message") or exc.message), str(code) if code else None


async def _consume_response_events(
    events: Any, callback: Callable[[str], Awaitable[None]], provider: str
) -> ModelResponse:
    final: Any = None
    async for event in events:
        kind = getattr(event, "type", "")
        if kind == "response.output_text.delta" and event.delta:
            await callback(event.delta)
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            final = event.response
    if final is None:
        raise ChatModelError(
            f"The {provider} response stream ended before the response was complete; try again or turn off streaming.",
            provider=provider,
        )
    return wire.from_sdk_response(final)


def _put(body: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        body[key] = value


__all__ = ["OPENAI_BASE_URL", "OpenAIChatModel", "OpenAISettings"]
