"""``@n8n/n8n-nodes-langchain.embeddingsGoogleGemini``: Embeddings Google Gemini (``batchEmbedContents``)."""

from __future__ import annotations

from typing import ClassVar

from weft.ai.retrieval.connections import AI_EMBEDDING
from weft.ai.retrieval.embeddings_cloud import GEMINI_HOST, GeminiEmbeddings, GeminiEmbeddingSettings
from weft.ai.retrieval.traced import TracedEmbeddings
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext

DEFAULT_MODEL = "models/gemini-embedding-001"


class EmbeddingsGoogleGemini(NodeType):
    """Supplies :class:`GeminiEmbeddings` (credential ``googlePalmApi``: ``host``, ``apiKey``)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.embeddingsGoogleGemini",
        display_name="Embeddings Google Gemini",
        versions=(1,),
        description="Use Google Gemini Embeddings",
        inputs=(),
        outputs=(AI_EMBEDDING,),
        credentials=("googlePalmApi",),
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> TracedEmbeddings:
        credentials = await ctx.get_credentials("googlePalmApi")
        model = ctx.get_node_parameter("modelName", item_index, DEFAULT_MODEL)
        settings = GeminiEmbeddingSettings(
            model=str(model or DEFAULT_MODEL),
            api_key=str(credentials.get("apiKey") or ""),
            host=str(credentials.get("host") or GEMINI_HOST),
        )
        return TracedEmbeddings(GeminiEmbeddings(settings), ctx)


__all__ = ["EmbeddingsGoogleGemini"]
