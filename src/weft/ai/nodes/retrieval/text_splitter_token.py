"""``@n8n/n8n-nodes-langchain.textSplitterTokenSplitter``: Token Splitter (cl100k_base tokens)."""

from __future__ import annotations

from typing import ClassVar

from weft.ai.nodes.retrieval._common import whole_number
from weft.ai.retrieval.connections import AI_TEXT_SPLITTER
from weft.ai.retrieval.errors import RetrievalError
from weft.ai.retrieval.token_splitter import TokenTextSplitter
from weft.ai.retrieval.traced import TracedSplitter
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


class TextSplitterTokenSplitter(NodeType):
    """Chunks of Chunk Size tokens overlapping by Chunk Overlap tokens (see :mod:`weft.ai.retrieval.token_splitter`)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.textSplitterTokenSplitter",
        display_name="Token Splitter",
        versions=(1,),
        description="Split text into chunks by tokens",
        inputs=(),
        outputs=(AI_TEXT_SPLITTER,),
        defaults={"chunkSize": 1000, "chunkOverlap": 0},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> TracedSplitter:
        size = whole_number(ctx, "chunkSize", item_index, 1000)
        overlap = whole_number(ctx, "chunkOverlap", item_index, 0)
        try:
            splitter = TokenTextSplitter(chunk_size=size, chunk_overlap=overlap)
        except RetrievalError as error:
            raise error.for_node(ctx.node.name) from None
        return TracedSplitter(splitter, ctx)


__all__ = ["TextSplitterTokenSplitter"]
