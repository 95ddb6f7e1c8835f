"""``@n8n/n8n-nodes-langchain.lmChatGroq``: Groq Chat Model, through Groq's OpenAI-compatible API
(``https://api.groq.com/openai/v1``, fixed as in n8n)."""

from __future__ import annotations

from weft.ai.models.base import ChatModel
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
from weft.ai.nodes.lm_chat_common import MODEL_OUTPUTS, max_tokens, model_name, node_options, number, traced
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext

GROQ_BASE_URL = "https://api.groq.com/openai/v1"


class LmChatGroq(NodeType):
    """Supplies an :class:`OpenAIChatModel` on Groq (credential ``groqApi``: ``apiKey``)."""

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

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ChatModel:
        settings = await self.settings(ctx, item_index)
        return traced(ctx, OpenAIChatModel(settings), settings.describe())

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> OpenAISettings:
        """The model, Maximum Number of Tokens (``maxTokensToSample``) and Sampling Temperature options."""
        credentials = await ctx.get_credentials("groqApi")
        options = node_options(ctx, item_index)
        return OpenAISettings(
            model=model_name(ctx, item_index, "llama3-8b-8192"),
            api_key=str(credentials.get("apiKey") or ""),
            base_url=self.base_url,
            temperature=number(options, "temperature"),
            max_tokens=max_tokens(options, "maxTokensToSample"),
            provider="Groq",
            credential_type="groqApi",
        )
