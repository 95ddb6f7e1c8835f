"""``@n8n/n8n-nodes-langchain.lmChatOpenAi``: OpenAI Chat Model (any OpenAI-compatible server via Base URL)."""

from __future__ import annotations

from weft.ai.models.openai import OPENAI_BASE_URL, OpenAIChatModel, OpenAISettings
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


class LmChatOpenAi(SettingsModelNode[OpenAISettings]):
    """Supplies an :class:`OpenAIChatModel`; typeVersion 1.3 uses the Responses API unless turned off."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatOpenAi",
        display_name="OpenAI Chat Model",
        versions=(1, 1.1, 1.2, 1.3),
        description="For advanced usage with an AI chain",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("openAiApi",),
    )

    model_type = OpenAIChatModel

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> OpenAISettings:
        """The adapter settings from the node's parameters and its ``openAiApi`` credential."""
        credentials = await ctx.get_credentials("openAiApi")
        version = float(ctx.node.typeVersion)
        options = node_options(ctx, item_index)
        responses = ctx.get_node_parameter("responsesApiEnabled", item_index, version >= 1.3)
        response_format = options.get("responseFormat")
        return OpenAISettings(
            model=model_name(ctx, item_index, "gpt-5-mini"),
            api_key=str(credentials.get("apiKey") or ""),
            base_url=str(options.get("baseURL") or credentials.get("url") or OPENAI_BASE_URL),
            api="responses" if responses and version >= 1.3 else "chat_completions",
            temperature=number(options, "temperature"),
            max_tokens=max_tokens(options),
            top_p=number(options, "topP"),
            frequency_penalty=number(options, "frequencyPenalty"),
            presence_penalty=number(options, "presencePenalty"),
            response_format=str(response_format) if response_format and response_format != "text" else None,
            reasoning_effort=options.get("reasoningEffort") or None,
            timeout=timeout_seconds(options),
            organization=str(credentials.get("organizationId") or "") or None,
            headers=custom_headers(credentials),
            retry=retry_policy(options),
        )
