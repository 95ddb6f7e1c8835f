"""What n8n's OpenAI-compatible chat-model nodes share (OpenRouter, DeepSeek): LangChain's ``ChatOpenAI`` on the
credential's ``url`` with the options Frequency Penalty, Maximum Number of Tokens, Response Format, Presence
Penalty, Sampling Temperature, Timeout, Max Retries and Top P, plus provider-specific request fields."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.ai.messages import Message, ToolDefinition
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
from weft.ai.nodes.lm_chat_common import max_tokens, model_name, node_options, number, retry_policy, timeout_seconds
from weft.nodes.contract import SupplyDataContext


@dataclass(frozen=True, kw_only=True)
class ExtraBodySettings(OpenAISettings):
    """OpenAI settings plus request fields only the provider knows (sent in the request body)."""

    extra: dict[str, Any] = field(default_factory=dict)


class ExtraBodyChatModel(OpenAIChatModel):
    """:class:`OpenAIChatModel` whose chat requests carry :attr:`ExtraBodySettings.extra`."""

    settings: ExtraBodySettings

    def __init__(self, settings: ExtraBodySettings) -> None:
        super().__init__(settings)

    def chat_request(self, messages: list[Message], tools: list[ToolDefinition], *, stream: bool) -> dict[str, Any]:
        body = super().chat_request(messages, tools, stream=stream)
        if self.settings.extra:
            body["extra_body"] = dict(self.settings.extra)
        return body


def compatible_settings(
    ctx: SupplyDataContext,
    item_index: int,
    credentials: Mapping[str, Any],
    *,
    default_url: str,
    default_model: str,
    provider: str,
    credential_type: str,
    extra: dict[str, Any] | None = None,
) -> ExtraBodySettings:
    """The settings of an OpenAI-compatible model node from its parameters and credential (``apiKey``, ``url``)."""
    options = node_options(ctx, item_index)
    response_format = options.get("responseFormat")
    return ExtraBodySettings(
        model=model_name(ctx, item_index, default_model),
        api_key=str(credentials.get("apiKey") or ""),
        base_url=str(credentials.get("url") or default_url).rstrip("/"),
        temperature=number(options, "temperature"),
        max_tokens=max_tokens(options),
        top_p=number(options, "topP"),
        frequency_penalty=number(options, "frequencyPenalty"),
        presence_penalty=number(options, "presencePenalty"),
        response_format=str(response_format) if response_format and response_format != "text" else None,
        timeout=timeout_seconds(options),
        retry=retry_policy(options),
        provider=provider,
        credential_type=credential_type,
        extra=extra or {},
    )


__all__ = ["ExtraBodyChatModel", "ExtraBodySettings", "compatible_settings"]
