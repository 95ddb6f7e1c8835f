"""``@n8n/n8n-nodes-langchain.documentDefaultDataLoader``: Default Data Loader.

Makes documents of the vector store's input items: their JSON ("Load All Input Data", with JSON pointers), a
"Data" expression's value ("Load Specific Data"), or their files (text, CSV, JSON, PDF, DOCX by mime type). Text
splitting: typeVersion 1 always uses the connected splitter; 1.1 splits every 1000 characters overlapping by 200
("Simple", LangChain's Recursive Character splitter, separators kept) or with the connected one ("Custom").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.ai.nodes.retrieval._common import one_sub_node
from weft.ai.retrieval.connections import AI_DOCUMENT, AI_TEXT_SPLITTER
from weft.ai.retrieval.loaders import BinaryItemLoader, DocumentSource, JsonItemLoader, TracedDocumentSource
from weft.ai.retrieval.splitters import RecursiveCharacterTextSplitter, SplitsText
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


def _inputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    mode = parameters.get("textSplittingMode")
    return (AI_TEXT_SPLITTER,) if not mode or mode == "custom" else ()


class DocumentDefaultDataLoader(NodeType):
    """Supplies a :class:`DocumentSource` that the vector store asks once per input item."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.documentDefaultDataLoader",
        display_name="Default Data Loader",
        versions=(1, 1.1),
        description="Load data from previous step in the workflow",
        inputs=_inputs,
        outputs=(AI_DOCUMENT,),
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> DocumentSource:
        data_type = ctx.get_node_parameter("dataType", item_index, "json")
        splitter = await self._splitter(ctx, item_index)
        source: DocumentSource
        if data_type == "binary":
            key = str(ctx.get_node_parameter("binaryDataKey", item_index, ""))
            source = BinaryItemLoader(ctx, key, splitter)
        else:
            source = JsonItemLoader(ctx, splitter)
        return TracedDocumentSource(source, ctx)

    async def _splitter(self, ctx: SupplyDataContext, item_index: int) -> SplitsText | None:
        if float(ctx.node.typeVersion) == 1.1:
            mode = ctx.get_node_parameter("textSplittingMode", item_index, "simple")
            if mode == "simple":
                return RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)
            if mode != "custom":
                return None
        splitter: SplitsText = await one_sub_node(ctx, AI_TEXT_SPLITTER, "a text splitter")
        return splitter


__all__ = ["DocumentDefaultDataLoader"]
