"""``weft.embeddingsDemo``: Demo Embeddings, a keyless deterministic embedding (Weft only, n8n has no such node).

Supplies :class:`~weft.ai.retrieval.demo_embeddings.HashedEmbeddings` (parameter ``dimensions``, default 256) to a
vector store, so retrieval workflows run with no API key and no network: examples, tests, first steps. Offered only
with ``WEFT_DEMO_NODES`` on (a demo model: ``weft.nodes.catalog.DEMO_NODE_TYPES``).
"""

from __future__ import annotations

from typing import ClassVar

from weft.ai.nodes.retrieval._common import whole_number
from weft.ai.retrieval.connections import AI_EMBEDDING
from weft.ai.retrieval.demo_embeddings import DEFAULT_DIMENSIONS, HashedEmbeddings
from weft.ai.retrieval.traced import TracedEmbeddings
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext

MAX_DIMENSIONS = 16_000


class EmbeddingsDemo(NodeType):
    """Supplies :class:`HashedEmbeddings` of ``dimensions`` (1 to 16,000)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.embeddingsDemo",
        display_name="Demo Embeddings",
        versions=(1,),
        description="Embeddings that need no key: a deterministic hashed bag of words, for demos and tests",
        inputs=(),
        outputs=(AI_EMBEDDING,),
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> TracedEmbeddings:
        dimensions = whole_number(ctx, "dimensions", item_index, DEFAULT_DIMENSIONS)
        if not 1 <= dimensions <= MAX_DIMENSIONS:
            raise NodeOperationError(
                ctx.node.name,
                f"The parameter 'dimensions' must be between 1 and {MAX_DIMENSIONS}",
                description=f"It is {dimensions}; the default, {DEFAULT_DIMENSIONS}, suits small document sets.",
            )
        return TracedEmbeddings(HashedEmbeddings(dimensions), ctx)


__all__ = ["EmbeddingsDemo"]
