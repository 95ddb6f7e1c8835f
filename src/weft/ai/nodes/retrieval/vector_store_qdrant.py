"""``@n8n/n8n-nodes-langchain.vectorStoreQdrant``: Qdrant Vector Store (credential ``qdrantApi``: ``qdrantUrl``,
``apiKey``), over :class:`~weft.ai.retrieval.qdrant.QdrantStore` and the official ``qdrant-client``.

Parameters as n8n's: the collection (resource locator ``qdrantCollection``), Options > Content / Metadata Payload
Key, Options > Collection Config (insert) and Options > Search Filter (Qdrant's filter JSON). Scores are Qdrant's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, ClassVar
from urllib.parse import urlsplit

from weft.ai.nodes.retrieval._common import options_of
from weft.ai.nodes.retrieval.vector_store_node import (
    EmbeddedBatch,
    NamedStore,
    VectorStoreNode,
    vector_store_inputs,
    vector_store_outputs,
)
from weft.ai.retrieval.embeddings import Vector
from weft.ai.retrieval.errors import RetrievalError
from weft.ai.retrieval.qdrant import QdrantSettings, QdrantStore
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeContext, NodeDescription


def qdrant_client(credentials: Mapping[str, Any]) -> Any:
    """n8n's ``createQdrantClient``: host, port (80/443 by the scheme) and API key of the credential's URL."""
    from qdrant_client import AsyncQdrantClient

    url = str(credentials.get("qdrantUrl") or "")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"Invalid Qdrant URL: {url}. Please provide a valid URL with protocol (http/https)")
    https = parts.scheme == "https"
    return AsyncQdrantClient(
        host=parts.hostname,
        port=parts.port or (443 if https else 80),
        https=https,
        api_key=str(credentials.get("apiKey") or "") or None,
        check_compatibility=False,  # no request until the node uses the client
    )


def _json_option(ctx: NodeContext, name: str, item_index: int) -> Any:
    value = options_of(ctx, item_index).get(name)
    if isinstance(value, str):
        if not value.strip():
            return None
        try:
            value = json.loads(value)
        except ValueError as error:
            raise NodeOperationError(
                ctx.node.name, f"The option '{name}' is not valid JSON", description=str(error), item_index=item_index
            ) from error
    if value is not None and not isinstance(value, Mapping):
        raise NodeOperationError(ctx.node.name, f"The option '{name}' must be a JSON object", item_index=item_index)
    return value


class VectorStoreQdrant(VectorStoreNode):
    """Qdrant; ``client_factory`` makes the client from the credential (tests may give a local-mode client)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.vectorStoreQdrant",
        display_name="Qdrant Vector Store",
        versions=(1, 1.1, 1.2, 1.3),
        description="Work with your data in a Qdrant collection",
        inputs=vector_store_inputs,
        outputs=vector_store_outputs,
        credentials=("qdrantApi",),
    )
    client_factory: ClassVar[Callable[[Mapping[str, Any]], Any]] = staticmethod(qdrant_client)

    async def _store(self, ctx: NodeContext, item_index: int, insert: bool = False) -> NamedStore[QdrantStore]:
        collection = ctx.get_node_parameter("qdrantCollection", item_index, "")
        if isinstance(collection, Mapping):
            collection = collection.get("value", "")
        options = options_of(ctx, item_index)
        for key in ("contentPayloadKey", "metadataPayloadKey"):
            if not isinstance(options.get(key, ""), str):
                raise NodeOperationError(ctx.node.name, f'Parameter "{key}" is not a string', item_index=item_index)
        credentials = await ctx.get_credentials("qdrantApi")
        try:
            client = type(self).client_factory(credentials)
        except ValueError as error:
            raise NodeOperationError(
                ctx.node.name, str(error), description="Fix the Qdrant credential's URL."
            ) from error
        settings = QdrantSettings(
            collection=str(collection or ""),
            content_key=options.get("contentPayloadKey") or "content",
            metadata_key=options.get("metadataPayloadKey") or "metadata",
            collection_config=(_json_option(ctx, "collectionConfig", item_index) or {}) if insert else {},
        )
        try:
            search_filter = None if insert else _json_option(ctx, "searchFilterJson", item_index)
            return NamedStore(QdrantStore(client, settings), ctx.node.name, search_filter)
        except RetrievalError as error:
            raise error.for_node(ctx.node.name) from None

    async def store(self, ctx: NodeContext, item_index: int) -> NamedStore[QdrantStore]:
        return await self._store(ctx, item_index)

    async def write(self, ctx: ExecuteContext, batches: list[EmbeddedBatch]) -> None:
        """All batches of a collection in one upsert (refused whole when a vector's length does not fit)."""
        grouped: dict[str, tuple[NamedStore[QdrantStore], list[Vector], list[Any]]] = {}
        for batch in batches:
            store = await self._store(ctx, batch.item_index, insert=True)
            entry = grouped.setdefault(store.store.settings.collection, (store, [], []))
            entry[1].extend(batch.vectors)
            entry[2].extend(batch.documents)
        for store, vectors, documents in grouped.values():
            await store.add_vectors(vectors, documents)

    def search_filter(self, ctx: NodeContext, item_index: int) -> Any:
        return _json_option(ctx, "searchFilterJson", item_index)


__all__ = ["VectorStoreQdrant", "qdrant_client"]
