"""``@n8n/n8n-nodes-langchain.lmChatAnthropic``: Anthropic Chat Model."""

from __future__ import annotations

from weft.ai.models.anthropic import ANTHROPIC_BASE_URL, AnthropicChatModel, AnthropicSettings
from weft.ai.nodes.lm_chat_common import (
    MODEL_OUTPUTS,
    SettingsModelNode,
    custom_headers,
    max_tokens,
    model_name,
    node_options,
    number,
    retry_policy,
    timeout_seconds,
)
from weft.nodes.contract import NodeDescription, SupplyDataContext

#: n8n's default model per typeVersion (the parameter is absent from workflow JSON when left at its default).
_DEFAULT_MODEL = {1: "claude-2", 1.1: "claude-3-sonnet-20240229", 1.2: "claude-3-5-sonnet-20240620"}
_NEWEST_DEFAULT = "claude-sonnet-4-5-20250929"


class LmChatAnthropic(SettingsModelNode[AnthropicSettings]):
    """Supplies an :class:`AnthropicChatModel`."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatAnthropic",
        display_name="Anthropic Chat Model",
        versions=(1, 1.1, 1.2, 1.3),
        description="Language Model Anthropic",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("anthropicApi",),
    )

    model_type = AnthropicChatModel

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> AnthropicSettings:
        """The adapter settings from the node's parameters and its ``anthropicApi`` credential.

        n8n's node has no Timeout or Max Retries options; the ``options`` keys are honoured when present.
        """
        credentials = await ctx.get_credentials("anthropicApi")
        options = node_options(ctx, item_index)
        top_k = number(options, "topK")
        default_model = _DEFAULT_MODEL.get(float(ctx.node.typeVersion), _NEWEST_DEFAULT)
        return AnthropicSettings(
            model=model_name(ctx, item_index, default_model),
            api_key=str(credentials.get("apiKey") or ""),
            base_url=str(credentials.get("url") or ANTHROPIC_BASE_URL),
            max_tokens=max_tokens(options, "maxTokensToSample") or 4096,
            temperature=number(options, "temperature"),
            top_p=number(options, "topP"),
            top_k=int(top_k) if top_k is not None and top_k > 0 else None,
            timeout=timeout_seconds(options),
            headers=custom_headers(credentials),
            retry=retry_policy(options),
        )
