"""``@n8n/n8n-nodes-langchain.lmChatMistralCloud``: Mistral Cloud Chat Model, through Mistral's
OpenAI-compatible chat completions (``https://api.mistral.ai/v1``, fixed as in n8n). Safe Mode and Random Seed
are Mistral's own fields (``safe_prompt``, ``random_seed``), sent beside the OpenAI ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from weft.ai.messages import Message, ToolDefinition
from weft.ai.models.base import ChatModel
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
from weft.ai.nodes.lm_chat_common import (
    MODEL_OUTPUTS,
    max_tokens,
    model_name,
    node_options,
    number,
    retry_policy,
    traced,
)
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext

MISTRAL_BASE_URL = "https://api.mistral.ai/v1"


@dataclass(frozen=True, kw_only=True)
class MistralSettings(OpenAISettings):
    """OpenAI settings plus the request fields only Mistral knows."""

    extra: dict[str, Any] = field(default_factory=dict)


class MistralChatModel(OpenAIChatModel):
    """:class:`OpenAIChatModel` whose chat requests carry :attr:`MistralSettings.extra`."""

    settings: MistralSettings

    def __init__(self, settings: MistralSettings) -> None:
        super().__init__(settings)

    def chat_request(self, messages: list[Message], tools: list[ToolDefinition], *, stream: bool) -> dict[str, Any]:
        body = super().chat_request(messages, tools, stream=stream)
        if self.settings.extra:
            body["extra_body"] = dict(self.settings.extra)
        return body


class LmChatMistralCloud(NodeType):
    """Supplies a :class:`MistralChatModel` (credential ``mistralCloudApi``: ``apiKey``)."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatMistralCloud",
        display_name="Mistral Cloud Chat Model",
        versions=(1,),
        description="For advanced usage with an AI chain",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("mistralCloudApi",),
    )

    base_url = MISTRAL_BASE_URL

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ChatModel:
        settings = await self.settings(ctx, item_index)
        return traced(ctx, MistralChatModel(settings), settings.describe())

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> MistralSettings:
        credentials = await ctx.get_credentials("mistralCloudApi")
        options = node_options(ctx, item_index)
        extra: dict[str, Any] = {}
        if options.get("safeMode") is True:
            extra["safe_prompt"] = True
        seed = number(options, "randomSeed")
        if seed is not None:
            extra["random_seed"] = int(seed)
        return MistralSettings(
            model=model_name(ctx, item_index, "mistral-small"),
            api_key=str(credentials.get("apiKey") or ""),
            base_url=self.base_url,
            temperature=number(options, "temperature"),
            max_tokens=max_tokens(options),
            top_p=number(options, "topP"),
            retry=retry_policy(options),
            provider="Mistral",
            credential_type="mistralCloudApi",
            extra=extra,
        )
