"""``@n8n/n8n-nodes-langchain.lmChatGroq``: Groq Chat Model, through Groq's OpenAI-compatible API
(``https://api.groq.com/openai/v1``, fixed as in n8n).

As n8n's LangChain ``ChatGroq`` (recorded: cases s920-s926 with n8n 2.41.1): Sampling Temperature 0.7 is sent when
not set, the token limit as ``max_completion_tokens``; the run data shows the options as LangChain logs them (without
the ``http_agent`` n8n adds when a proxy is set: a dump of a Node.js object)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import openai

from weft.ai.errors import ChatModelError
from weft.ai.messages import Message, ToolDefinition
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
from weft.ai.nodes.lm_chat_common import (
    MODEL_OUTPUTS,
    SettingsModelNode,
    max_tokens,
    model_name,
    node_options,
    number,
)
from weft.ai.nodes.lm_chat_errors import status_node_error
from weft.nodes.contract import NodeDescription, SupplyDataContext

GROQ_BASE_URL = "https://api.groq.com/openai/v1"


@dataclass(frozen=True, kw_only=True)
class GroqSettings(OpenAISettings):
    """Groq's settings; ``logged``: the options as n8n's run data shows them."""

    logged: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return dict(self.logged)


class GroqChatModel(OpenAIChatModel):
    """:class:`OpenAIChatModel` sending the token limit as ``max_completion_tokens``, as ``ChatGroq`` does; its
    failures read as n8n shows Groq's (n8n's message for the status, Groq's words as the description)."""

    def _error_from_sdk(self, exc: openai.APIError) -> ChatModelError:
        if not isinstance(exc, openai.APIStatusError):
            return super()._error_from_sdk(exc)
        body: dict[str, Any] = exc.body if isinstance(exc.body, dict) else {}
        inner = body.get("error")
        error: dict[str, Any] = inner if isinstance(inner, dict) else body
        said = str(error.get("message") or exc.message)
        return status_node_error(exc.status_code, "Groq", said)

    def chat_request(self, messages: list[Message], tools: list[ToolDefinition], *, stream: bool) -> dict[str, Any]:
        body = super().chat_request(messages, tools, stream=stream)
        if "max_tokens" in body:
            body["max_completion_tokens"] = body.pop("max_tokens")
        return body


class LmChatGroq(SettingsModelNode[GroqSettings]):
    """Supplies a :class:`GroqChatModel` (credential ``groqApi``: ``apiKey``)."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatGroq",
        display_name="Groq Chat Model",
        versions=(1,),
        description="Language Model Groq",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("groqApi",),
    )

    base_url = GROQ_BASE_URL

    model_type = GroqChatModel

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> GroqSettings:
        """The model, Maximum Number of Tokens (``maxTokensToSample``) and Sampling Temperature options."""
        credentials = await ctx.get_credentials("groqApi")
        options = node_options(ctx, item_index)
        model = model_name(ctx, item_index, "llama3-8b-8192")
        temperature = number(options, "temperature")
        limit = max_tokens(options, "maxTokensToSample")
        logged: dict[str, Any] = {"api_key": {"lc": 1, "type": "secret", "id": ["GROQ_API_KEY"]}, "model": model}
        logged["temperature"] = 0.7 if temperature is None else options["temperature"]
        if "maxTokensToSample" in options:
            logged["max_tokens"] = options["maxTokensToSample"]
        return GroqSettings(
            model=model,
            api_key=str(credentials.get("apiKey") or ""),
            base_url=self.base_url,
            temperature=0.7 if temperature is None else temperature,
            max_tokens=limit,
            provider="Groq",
            credential_type="groqApi",
            logged=logged,
        )
