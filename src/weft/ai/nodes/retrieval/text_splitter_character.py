"""``@n8n/n8n-nodes-langchain.textSplitterCharacterTextSplitter``: Character Text Splitter."""

from __future__ import annotations

from typing import ClassVar

from weft.ai.nodes.retrieval._common import whole_number
from weft.ai.retrieval.connections import AI_TEXT_SPLITTER
from weft.ai.retrieval.errors import RetrievalError
from weft.ai.retrieval.splitters import CharacterTextSplitter
from weft.ai.retrieval.traced import TracedSplitter
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


class TextSplitterCharacterTextSplitter(NodeType):
    """Splits on the Separator (none: between characters), merging into Chunk Size characters with Chunk Overlap."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.textSplitterCharacterTextSplitter",
        display_name="Character Text Splitter",
        versions=(1,),
        description="Split text into chunks by characters",
        inputs=(),
        outputs=(AI_TEXT_SPLITTER,),
        defaults={"separator": "", "chunkSize": 1000, "chunkOverlap": 0},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> TracedSplitter:
        separator = str(ctx.get_node_parameter("separator", item_index, ""))
        size = whole_number(ctx, "chunkSize", item_index, 1000)
        overlap = whole_number(ctx, "chunkOverlap", item_index, 0)
        try:
            splitter = CharacterTextSplitter(separator=separator, chunk_size=size, chunk_overlap=overlap)
        except RetrievalError as error:
            raise error.for_node(ctx.node.name) from None
        return TracedSplitter(splitter, ctx)


__all__ = ["TextSplitterCharacterTextSplitter"]
