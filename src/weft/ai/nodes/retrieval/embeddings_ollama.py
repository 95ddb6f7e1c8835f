"""``@n8n/n8n-nodes-langchain.embeddingsOllama``: Embeddings Ollama (``POST /api/embed`` of the credential's server)."""

from __future__ import annotations

from typing import ClassVar

from weft.ai.nodes.lm_chat_common import model_name
from weft.ai.retrieval.connections import AI_EMBEDDING
from weft.ai.retrieval.embeddings import OllamaEmbeddings, OllamaEmbeddingSettings
from weft.ai.retrieval.traced import TracedEmbeddings
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


class EmbeddingsOllama(NodeType):
    """Supplies :class:`OllamaEmbeddings` (credential ``ollamaApi``: ``baseUrl``, optional ``apiKey``)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.embeddingsOllama",
        display_name="Embeddings Ollama",
        versions=(1,),
        description="Use Ollama Embeddings",
        inputs=(),
        outputs=(AI_EMBEDDING,),
        credentials=("ollamaApi",),
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> TracedEmbeddings:
        credentials = await ctx.get_credentials("ollamaApi")
        settings = OllamaEmbeddingSettings(
            model=model_name(ctx, item_index, "llama3.2"),
            base_url=str(credentials.get("baseUrl") or "http://127.0.0.1:11434"),
            api_key=str(credentials.get("apiKey") or ""),
        )
        return TracedEmbeddings(OllamaEmbeddings(settings), ctx)


__all__ = ["EmbeddingsOllama"]
