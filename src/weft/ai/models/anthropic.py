"""Anthropic chat models on the official ``anthropic`` SDK (the Messages API).

The SDK sends through the kit's HTTP settings (:func:`weft.ai.models.http_client.ai_httpx2_client`: the
environment's proxies as n8n reads them, the extra CAs of ``WEFT_EXTRA_CA_CERTS``, no ``.netrc``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anthropic

from weft.ai.errors import ChatModelError
from weft.ai.messages import Message, ModelResponse, ToolDefinition
from weft.ai.models import _anthropic_wire as wire
from weft.ai.models._http_errors import Endpoint
from weft.ai.models._sdk_model import SdkChatModel, pass_on_stream
from weft.ai.models.base import RetryPolicy, StreamCallback
from weft.ai.models.http_client import ai_httpx2_client

ANTHROPIC_BASE_URL = "https://api.anthropic.com"


@dataclass(frozen=True, kw_only=True)
class AnthropicSettings:
    """Everything an :class:`AnthropicChatModel` needs; built by the node from its parameters and credential."""

    model: str
    api_key: str = ""
    base_url: str = ANTHROPIC_BASE_URL
    max_tokens: int = 4096
    """Required by the API; n8n's "Maximum Number of Tokens" defaults to 4096."""
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    timeout: float = 60.0
    headers: dict[str, str] = field(default_factory=dict)
    retry: RetryPolicy = field(default_factory=RetryPolicy)

    def describe(self) -> dict[str, Any]:
        """The settings without secrets, for the model node's run data."""
        data: dict[str, Any] = {
            "model": self.model,
            "base_url": self.base_url,
            "max_tokens": self.max_tokens,
            "timeout": self.timeout,
            "max_retries": self.retry.max_retries,
        }
        for key in ("temperature", "top_p", "top_k"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


class AnthropicChatModel(SdkChatModel[AnthropicSettings]):
    """A :class:`~weft.ai.models.base.ChatModel` speaking Anthropic's Messages API."""

    def __init__(self, settings: AnthropicSettings) -> None:
        super().__init__(
            settings, Endpoint(provider=wire.PROVIDER, credential_type="anthropicApi", base_url=settings.base_url)
        )

    def request(self, messages: list[Message], tools: list[ToolDefinition], *, stream: bool) -> dict[str, Any]:
        """The JSON body sent to ``/v1/messages``."""
        s = self.settings
        body: dict[str, Any] = {
            "model": s.model,
            "max_tokens": s.max_tokens,
            "messages": wire.messages_json(messages),
            "stream": stream,
        }
        system = wire.system_text(messages)
        if system:
            body["system"] = system
        if tools:
            body["tools"] = wire.tools_json(tools)
        for key in ("temperature", "top_p", "top_k"):
            if getattr(s, key) is not None:
                body[key] = getattr(s, key)
        return body

    async def _call(
        self, messages: list[Message], tools: list[ToolDefinition], callback: StreamCallback | None
    ) -> ModelResponse:
        s = self.settings
        body = self.request(messages, tools, stream=callback is not None)
        # The SDK types only the documented fields; sampling settings travel in the body as they are.
        known = {k: body.pop(k) for k in ("model", "max_tokens", "messages", "stream", "system", "tools") if k in body}
        try:
            async with anthropic.AsyncAnthropic(
                api_key=s.api_key or "none",
                base_url=s.base_url,
                timeout=s.timeout,
                max_retries=0,
                default_headers=s.headers or None,
                http_client=ai_httpx2_client(s.timeout),
            ) as client:
                result: Any = await client.messages.create(**known, extra_body=body or None)
                if callback is None:
                    return wire.from_sdk_message(result)
                return await pass_on_stream(result, wire.StreamAccumulator(), callback)
        except anthropic.APIError as exc:
            raise self._error_from_sdk(exc) from exc

    def _error_from_sdk(self, exc: anthropic.APIError) -> ChatModelError:
        return self._sdk_error(exc, anthropic, _status_detail)


def _status_detail(exc: anthropic.APIStatusError) -> tuple[str, str | None]:
    """Anthropic's message and error type, from the ``error`` object of its answer."""
    body = exc.body if isinstance(exc.body, dict) else {}
    nested = body.get("error")
    error: dict[str, Any] = nested if isinstance(nested, dict) else body
    return str(error.get("message") or exc.message), error.get("type")


__all__ = ["ANTHROPIC_BASE_URL", "AnthropicChatModel", "AnthropicSettings"]
