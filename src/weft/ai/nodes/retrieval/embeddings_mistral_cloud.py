"""``@n8n/n8n-nodes-langchain.embeddingsMistralCloud``: Embeddings Mistral Cloud (``POST /v1/embeddings``)."""

from __future__ import annotations

from typing import ClassVar

from weft.ai.nodes.retrieval._common import options_of
from weft.ai.retrieval.connections import AI_EMBEDDING
from weft.ai.retrieval.embeddings_cloud import MistralEmbeddings, MistralEmbeddingSettings
from weft.ai.retrieval.traced import TracedEmbeddings
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


class EmbeddingsMistralCloud(NodeType):
    """Supplies :class:`MistralEmbeddings` (credential ``mistralCloudApi``: ``apiKey``).

    Options: Batch Size (texts a request, default 512), Strip New Lines (default on).
    """

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.embeddingsMistralCloud",
        display_name="Embeddings Mistral Cloud",
        versions=(1,),
        description="Use Embeddings Mistral Cloud",
        inputs=(),
        outputs=(AI_EMBEDDING,),
        credentials=("mistralCloudApi",),
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> TracedEmbeddings:
        credentials = await ctx.get_credentials("mistralCloudApi")
        options = options_of(ctx, item_index)
        batch = options.get("batchSize")
        model = ctx.get_node_parameter("model", item_index, "mistral-embed")
        settings = MistralEmbeddingSettings(
            model=str(model or "mistral-embed"),
            api_key=str(credentials.get("apiKey") or ""),
            batch_size=int(batch)
            if isinstance(batch, int | float) and not isinstance(batch, bool) and batch >= 1
            else 512,
            strip_new_lines=options.get("stripNewLines", True) is not False,
        )
        return TracedEmbeddings(MistralEmbeddings(settings), ctx)


__all__ = ["EmbeddingsMistralCloud"]
