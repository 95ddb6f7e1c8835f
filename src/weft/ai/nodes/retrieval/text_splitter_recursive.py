"""``@n8n/n8n-nodes-langchain.textSplitterRecursiveCharacterTextSplitter``: Recursive Character Text Splitter."""

from __future__ import annotations

from typing import ClassVar

from weft.ai.nodes.retrieval._common import whole_number
from weft.ai.retrieval.code_separators import SEPARATORS
from weft.ai.retrieval.connections import AI_TEXT_SPLITTER
from weft.ai.retrieval.errors import RetrievalError
from weft.ai.retrieval.splitters import RecursiveCharacterTextSplitter
from weft.ai.retrieval.traced import TracedSplitter
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext

#: The Split Code languages n8n offers (LangChain knows ``sol`` too, n8n does not offer it).
LANGUAGES = tuple(language for language in SEPARATORS if language != "sol")


class TextSplitterRecursiveCharacterTextSplitter(NodeType):
    """Splits on paragraphs, then lines, then words, then characters (or a language's separators: Split Code).

    n8n passes ``keepSeparator: false``: separators are dropped between merged pieces.
    """

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.textSplitterRecursiveCharacterTextSplitter",
        display_name="Recursive Character Text Splitter",
        versions=(1,),
        description="Split text into chunks by characters recursively, recommended for most use cases",
        inputs=(),
        outputs=(AI_TEXT_SPLITTER,),
        defaults={"chunkSize": 1000, "chunkOverlap": 0},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> TracedSplitter:
        size = whole_number(ctx, "chunkSize", item_index, 1000)
        overlap = whole_number(ctx, "chunkOverlap", item_index, 0)
        language = ctx.get_node_parameter("options.splitCode", item_index, None)
        try:
            if isinstance(language, str) and language in LANGUAGES:
                splitter = RecursiveCharacterTextSplitter.for_language(
                    language, chunk_size=size, chunk_overlap=overlap, keep_separator=False
                )
            else:
                splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap, keep_separator=False)
        except RetrievalError as error:
            raise error.for_node(ctx.node.name) from None
        return TracedSplitter(splitter, ctx)


__all__ = ["LANGUAGES", "TextSplitterRecursiveCharacterTextSplitter"]
