"""``@n8n/n8n-nodes-langchain.vectorStoreInMemory``: Simple Vector Store, documents kept in this process.

The store is chosen by its Memory Key: typeVersions 1 and 1.1 prefix it with the workflow id
(``<workflow id>__<key>``, each workflow its own stores); from 1.2 the key (a resource locator) is shared by every
workflow of the instance, as in n8n. Stores last until the process ends. "Clear Store" empties the store before
each batch is written, as n8n does (so with more documents than the batch size only the last batch remains).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from weft.ai.nodes.retrieval.vector_store_node import (
    EmbeddedBatch,
    VectorStoreNode,
    vector_store_inputs,
    vector_store_outputs,
)
from weft.ai.retrieval.vector_store import PROCESS_STORES, InMemoryStores, InMemoryVectorStore
from weft.nodes.contract import ExecuteContext, NodeContext, NodeDescription

DEFAULT_MEMORY_KEY = "vector_store_key"


def memory_key(ctx: NodeContext, item_index: int) -> str:
    """The store's key: ``<workflow id>__<key>`` up to typeVersion 1.1, the key itself from 1.2."""
    if float(ctx.node.typeVersion) <= 1.1:
        key = ctx.get_node_parameter("memoryKey", item_index, DEFAULT_MEMORY_KEY)
        return f"{ctx.workflow.id}__{key}"
    value = ctx.get_node_parameter("memoryKey", item_index, {"mode": "list", "value": DEFAULT_MEMORY_KEY})
    return str(value.get("value") if isinstance(value, Mapping) else value)


class VectorStoreInMemory(VectorStoreNode):
    """The Simple Vector Store over :class:`InMemoryVectorStore` (``stores``: the process-wide ones)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.vectorStoreInMemory",
        display_name="Simple Vector Store",
        versions=(1, 1.1, 1.2, 1.3),
        description="The easiest way to experiment with vector stores, without external setup.",
        inputs=vector_store_inputs,
        outputs=vector_store_outputs,
    )
    stores: ClassVar[InMemoryStores] = PROCESS_STORES

    async def store(self, ctx: NodeContext, item_index: int) -> InMemoryVectorStore:
        return self.stores.get(memory_key(ctx, item_index))

    async def write(self, ctx: ExecuteContext, batches: list[EmbeddedBatch]) -> None:
        steps = [
            (memory_key(ctx, b.item_index), bool(ctx.get_node_parameter("clearStore", b.item_index, False)), b)
            for b in batches
        ]
        self._check(steps)
        for key, clear, batch in steps:
            if clear:
                self.stores.drop(key)
            await self.stores.get(key).add_vectors(batch.vectors, batch.documents)

    def _check(self, steps: list[tuple[str, bool, EmbeddedBatch]]) -> None:
        """Refuse, before anything is written, vectors whose length would not fit their store."""
        dims: dict[str, int | None] = {}
        for key, clear, batch in steps:
            if key not in dims or clear:
                dims[key] = None if clear else self.stores.get(key).dimensions
            for vector in batch.vectors:
                InMemoryVectorStore.check_length(key, dims[key], len(vector))
                dims[key] = len(vector)


__all__ = ["DEFAULT_MEMORY_KEY", "VectorStoreInMemory", "memory_key"]
