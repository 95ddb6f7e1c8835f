"""``@n8n/n8n-nodes-langchain.vectorStorePGVector``: Postgres PGVector Store (credential ``postgres``).

Modes insert, load, retrieve and retrieve-as-tool over :class:`~weft.ai.retrieval.pgvector.PGVectorStore`: the
table (``tableName``, created when missing), Options > Collection (``useCollection``, ``collectionName``,
``collectionTableName``), Options > Column Names, Options > Distance Strategy and Options > Metadata Filter
(``{name: value}`` equality on the metadata, as n8n). Scores are distances (smaller is nearer), as in n8n. An
insert writes every batch in one transaction; vectors of another length than the table's are refused first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.ai.nodes.retrieval._common import options_of
from weft.ai.nodes.retrieval.vector_store_node import (
    EmbeddedBatch,
    NamedStore,
    VectorStoreNode,
    vector_store_inputs,
    vector_store_outputs,
)
from weft.ai.retrieval.backend_errors import VectorStoreBackendError
from weft.ai.retrieval.embeddings import Vector
from weft.ai.retrieval.pgvector import PGVectorColumns, PGVectorSettings, PGVectorStore
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeContext, NodeDescription
from weft.nodes.postgres_credential import connection_kwargs

DEFAULT_TABLE = "n8n_vectors"


def metadata_filter(ctx: NodeContext, item_index: int) -> dict[str, Any] | None:
    """n8n's ``getMetadataFiltersValues``: Options > Metadata Filter as ``{name: value}`` (later names win)."""
    values = (options_of(ctx, item_index).get("metadata") or {}).get("metadataValues") or []
    if not values:
        return None
    return {str(v.get("name", "")): v.get("value", "") for v in values if isinstance(v, Mapping)}


def pgvector_settings(ctx: NodeContext, item_index: int) -> PGVectorSettings:
    """The store's settings from the node's parameters (collection and columns read at item 0, as n8n)."""
    table = ctx.get_node_parameter("tableName", item_index, DEFAULT_TABLE)
    options = options_of(ctx, 0)
    collection = (options.get("collection") or {}).get("values") or {}
    columns = {
        "idColumnName": "id",
        "vectorColumnName": "embedding",
        "contentColumnName": "text",
        "metadataColumnName": "metadata",
        **((options.get("columnNames") or {}).get("values") or {}),
    }
    use_collection = collection.get("useCollection") is True
    return PGVectorSettings(
        table_name=str(table.get("value") if isinstance(table, Mapping) else table),
        collection_name=str(collection.get("collectionName") or "n8n") if use_collection else None,
        collection_table=str(collection.get("collectionTableName") or "n8n_vector_collections")
        if use_collection
        else None,
        columns=PGVectorColumns(
            id=str(columns["idColumnName"]),
            vector=str(columns["vectorColumnName"]),
            content=str(columns["contentColumnName"]),
            metadata=str(columns["metadataColumnName"]),
        ),
        distance_strategy=str(options.get("distanceStrategy") or "cosine"),
    )


class VectorStorePGVector(VectorStoreNode):
    """PGVector over the ``postgres`` credential's server (one connection per call, closed after it)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.vectorStorePGVector",
        display_name="Postgres PGVector Store",
        versions=(1, 1.1, 1.2, 1.3),
        description="Work with your data in Postgresql with the PGVector extension",
        inputs=vector_store_inputs,
        outputs=vector_store_outputs,
        credentials=("postgres",),
    )

    async def _pg_store(self, ctx: NodeContext, item_index: int) -> NamedStore[PGVectorStore]:
        credentials = await ctx.get_credentials("postgres")
        try:
            kwargs = connection_kwargs(credentials)
            store = PGVectorStore(pgvector_settings(ctx, item_index), connect=_connector(kwargs))
        except ValueError as error:
            raise NodeOperationError(
                ctx.node.name, f"The Postgres credential cannot be used: {error}", description="Fix the credential."
            ) from error
        except VectorStoreBackendError as error:
            raise error.for_node(ctx.node.name) from None
        return NamedStore(store, ctx.node.name, metadata_filter(ctx, item_index))

    async def store(self, ctx: NodeContext, item_index: int) -> NamedStore[PGVectorStore]:
        return await self._pg_store(ctx, item_index)

    async def write(self, ctx: ExecuteContext, batches: list[EmbeddedBatch]) -> None:
        """Every batch into its item's table, all in one transaction per table (n8n: one table per item)."""
        by_table: dict[str, tuple[NamedStore[PGVectorStore], list[Vector], list[Any]]] = {}
        for batch in batches:
            store = await self._pg_store(ctx, batch.item_index)
            key = store.store.settings.table_name
            entry = by_table.setdefault(key, (store, [], []))
            entry[1].extend(batch.vectors)
            entry[2].extend(batch.documents)
        for store, vectors, documents in by_table.values():
            await store.add_vectors(vectors, documents)

    def search_filter(self, ctx: NodeContext, item_index: int) -> Any:
        return metadata_filter(ctx, item_index)


def _connector(kwargs: dict[str, Any]) -> Any:
    async def connect() -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(**kwargs)

    return connect


__all__ = ["DEFAULT_TABLE", "VectorStorePGVector", "metadata_filter", "pgvector_settings"]
