"""``@n8n/n8n-nodes-langchain.lmChatMistralCloud``: Mistral Cloud Chat Model, through Mistral's
OpenAI-compatible chat completions (``https://api.mistral.ai/v1``, fixed as in n8n). Safe Mode and Random Seed
are Mistral's own fields (``safe_prompt``, ``random_seed``), sent beside the OpenAI ones."""

from __future__ import annotations

from typing import Any

from weft.ai.models.base import ChatModel
from weft.ai.nodes.lm_chat_common import (
    MODEL_OUTPUTS,
    max_tokens,
    model_name,
    node_options,
    number,
    retry_policy,
    traced,
)
from weft.ai.nodes.lm_chat_compatible import ExtraBodyChatModel, ExtraBodySettings
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext

MISTRAL_BASE_URL = "https://api.mistral.ai/v1"


#: Mistral's own request fields (``safe_prompt``, ``random_seed``) ride in the shared extra-body settings.
MistralSettings = ExtraBodySettings
MistralChatModel = ExtraBodyChatModel


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
