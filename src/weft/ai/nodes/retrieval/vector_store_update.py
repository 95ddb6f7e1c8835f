"""The ``update`` mode of the stores that write by id (n8n's ``handleUpdateOperation``): each input item, read by
the JSON loader (every string of the item's JSON), must make one document, written under the item's ``id``."""

from __future__ import annotations

from typing import Any

from weft.ai.retrieval.embeddings import Embeddings
from weft.ai.retrieval.json_loader import extract_strings, text_documents
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item


async def update_by_id(ctx: ExecuteContext, embeddings: Embeddings, store_of: Any) -> list[Item]:
    """``store_of(ctx, item_index)``: the item's store (awaitable), with ``add_vectors``."""
    out: list[Item] = []
    for item_index, item in enumerate(ctx.get_input_data()):
        ctx.check_cancelled()
        document_id = ctx.get_node_parameter("id", item_index, "")
        if isinstance(document_id, dict):
            document_id = document_id.get("value", "")
        store = await store_of(ctx, item_index)
        documents = text_documents(extract_strings(item["json"], [[]]), "application/json") if item else []
        if len(documents) != 1:
            raise NodeOperationError(
                ctx.node.name,
                "Single document per item expected",
                description="In update mode each input item must make exactly one document.",
                item_index=item_index,
            )
        document = documents[0]
        out.append(
            {
                "json": {"metadata": document.metadata, "pageContent": document.page_content},
                "pairedItem": {"item": item_index},
            }
        )
        document.id = str(document_id)
        vectors = await embeddings.embed_documents([document.page_content])
        await store.add_vectors(vectors, [document])
    return out


__all__ = ["update_by_id"]
