"""``@n8n/n8n-nodes-langchain.lmChatGoogleGemini``: Google Gemini Chat Model, through Gemini's OpenAI-compatible
endpoint (``<credential host>/v1beta/openai``; n8n itself speaks Gemini's native ``generateContent`` API).
n8n's model names (``models/gemini-2.5-flash``) are sent without the ``models/`` prefix. Top K and the safety
settings have no OpenAI-API equivalent and are ignored. Versions 1.1 and 1.2 differ only in the default model."""

from __future__ import annotations

from weft.ai.models.base import ChatModel
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
from weft.ai.nodes.lm_chat_common import MODEL_OUTPUTS, max_tokens, node_options, number, traced
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext

GEMINI_HOST = "https://generativelanguage.googleapis.com"


def gemini_openai_url(host: str) -> str:
    """The OpenAI-compatible base URL of a Gemini API host."""
    return (host or GEMINI_HOST).rstrip("/") + "/v1beta/openai"


class LmChatGoogleGemini(NodeType):
    """Supplies an :class:`OpenAIChatModel` on Gemini (credential ``googlePalmApi``: ``host``, ``apiKey``)."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatGoogleGemini",
        display_name="Google Gemini Chat Model",
        versions=(1, 1.1, 1.2),
        description="Chat Model Google Gemini",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("googlePalmApi",),
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ChatModel:
        settings = await self.settings(ctx, item_index)
        return traced(ctx, OpenAIChatModel(settings), settings.describe())

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> OpenAISettings:
        credentials = await ctx.get_credentials("googlePalmApi")
        options = node_options(ctx, item_index)
        default = "models/gemini-2.5-flash" if float(ctx.node.typeVersion) < 1.1 else "models/gemini-3-flash-preview"
        name = str(ctx.get_node_parameter("modelName", item_index, default) or "").strip()
        if not name:
            raise NodeOperationError(ctx.node.name, "No model is set. Choose a model in the node's 'Model' parameter.")
        model = name.removeprefix("models/")
        return OpenAISettings(
            model=model,
            api_key=str(credentials.get("apiKey") or ""),
            base_url=gemini_openai_url(str(credentials.get("host") or "")),
            temperature=number(options, "temperature"),
            max_tokens=max_tokens(options, "maxOutputTokens"),
            top_p=number(options, "topP"),
            provider="Google Gemini",
            credential_type="googlePalmApi",
        )
