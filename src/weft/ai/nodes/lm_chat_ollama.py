"""``@n8n/n8n-nodes-langchain.lmChatOllama``: Ollama Chat Model, through Ollama's OpenAI-compatible API."""

from __future__ import annotations

from weft.ai.models.base import ChatModel
from weft.ai.models.ollama import OllamaChatModel
from weft.ai.nodes.lm_chat_common import (
    MODEL_OUTPUTS,
    custom_headers,
    max_tokens,
    model_name,
    node_options,
    number,
    retry_policy,
    timeout_seconds,
    traced,
)
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


class LmChatOllama(NodeType):
    """Supplies an :class:`OllamaChatModel` (credential ``ollamaApi``: ``baseUrl``, optional ``apiKey``).

    Ollama-only options (``numCtx``, ``keepAlive``, ``format`` …) have no OpenAI-API equivalent and are ignored.
    """

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatOllama",
        display_name="Ollama Chat Model",
        versions=(1,),
        description="Language Model Ollama",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("ollamaApi",),
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ChatModel:
        credentials = await ctx.get_credentials("ollamaApi")
        options = node_options(ctx, item_index)
        model = OllamaChatModel(
            model_name(ctx, item_index, "llama3.2"),
            base_url=str(credentials.get("baseUrl") or "") or None,
            api_key=str(credentials.get("apiKey") or ""),
            retry=retry_policy(options),
            timeout=timeout_seconds(options, default_ms=300_000),
            temperature=number(options, "temperature"),
            top_p=number(options, "topP"),
            frequency_penalty=number(options, "frequencyPenalty"),
            presence_penalty=number(options, "presencePenalty"),
            max_tokens=max_tokens(options, "numPredict"),
            headers=custom_headers(credentials),
        )
        return traced(ctx, model, model.settings.describe())
