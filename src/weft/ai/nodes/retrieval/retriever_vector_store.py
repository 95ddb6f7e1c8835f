"""``@n8n/n8n-nodes-langchain.retrieverVectorStore``: Vector Store Retriever (a vector store as a retriever)."""

from __future__ import annotations

from typing import ClassVar

from weft.ai.nodes.retrieval._common import one_sub_node
from weft.ai.retrieval.connections import AI_RETRIEVER, AI_VECTOR_STORE
from weft.ai.retrieval.retrievers import SearchesText, StoreRetriever
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


class RetrieverVectorStore(NodeType):
    """Supplies a :class:`StoreRetriever` over the connected store (in ``retrieve`` mode): the Limit nearest
    documents of a query, for a chain that retrieves (Weft has no such chain yet).

    n8n 2.8.4 fails here when the store comes from another copy of ``@langchain/core`` than its own (its
    ``instanceof VectorStore`` check; the ``reranker`` branch then reads an undefined store); Weft does what n8n's
    source means and what 2.41 does.
    """

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.retrieverVectorStore",
        display_name="Vector Store Retriever",
        versions=(1,),
        description="Use a Vector Store as Retriever",
        inputs=(AI_VECTOR_STORE,),
        outputs=(AI_RETRIEVER,),
        defaults={"topK": 4},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> StoreRetriever:
        top_k = ctx.get_node_parameter("topK", item_index, 4)
        store: SearchesText = await one_sub_node(ctx, AI_VECTOR_STORE, "a vector store", item_index)
        return StoreRetriever(store, int(top_k))


__all__ = ["RetrieverVectorStore"]
