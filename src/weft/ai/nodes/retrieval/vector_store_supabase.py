"""``@n8n/n8n-nodes-langchain.vectorStoreSupabase``: Supabase Vector Store (credential ``supabaseApi``: ``host``,
``serviceRole``).

Modes insert, load, retrieve and retrieve-as-tool over PostgREST, as LangChain's ``SupabaseVectorStore`` and
supabase-js send it: an insert upserts rows ``{content, embedding, metadata}`` into the table (``POST
/rest/v1/<table>?select=*``, 500 rows a request), a search calls the RPC of Options > Query Name (default
``match_documents``) with ``query_embedding``, ``match_count`` and ``filter`` (Options > Metadata Filter). Scores
are the function's ``similarity``. A table the project lacks fails with n8n's "Table … not found".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar
from urllib.parse import quote

from weft.ai.nodes.retrieval._common import options_of
from weft.ai.nodes.retrieval.vector_store_node import (
    EmbeddedBatch,
    NamedStore,
    VectorStoreNode,
    vector_store_inputs,
    vector_store_outputs,
)
from weft.ai.nodes.retrieval.vector_store_pgvector import metadata_filter
from weft.ai.nodes.retrieval.vector_store_update import update_by_id
from weft.ai.retrieval.backend_errors import VectorStoreBackendError
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.embeddings import Embeddings, Vector
from weft.ai.retrieval.vector_store import ScoredDocument
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeContext, NodeDescription
from weft.workflow import Item

UPSERT_BATCH = 500


class SupabaseStore:
    """One table (and match function) of the credential's Supabase project."""

    def __init__(self, ctx: NodeContext, table: str, query_name: str, item_index: int) -> None:
        if not table:
            raise VectorStoreBackendError(
                "No Supabase table is set", description="Choose or type the table's name in 'Table Name'."
            )
        self.ctx = ctx
        self.table = table
        self.query_name = query_name or "match_documents"
        self.item_index = item_index

    async def _request(self, path: str, body: Any, headers: Mapping[str, str], qs: Any = None) -> dict[str, Any]:
        """supabase-js's request: the full response, whatever its status (the caller words the error)."""
        credentials = await self.ctx.get_credentials("supabaseApi")
        host = str(credentials.get("host") or "").rstrip("/")
        options: dict[str, Any] = {
            "method": "POST",
            "url": f"{host}/rest/v1/{path}",
            "body": body,
            "json": True,
            "headers": {"Content-Type": "application/json", **headers},
            "returnFullResponse": True,
            "ignoreHttpStatusErrors": True,
        }
        if qs:
            options["qs"] = qs
        async with ApiRequests(self.ctx) as api:  # type: ignore[arg-type]  # any node context sends
            response: dict[str, Any] = await api.request("supabaseApi", options, self.item_index)
        return response

    async def add_vectors(self, vectors: Sequence[Vector], documents: Sequence[Document]) -> None:
        rows = [
            {**({"id": d.id} if d.id else {}), "content": d.page_content, "embedding": list(v), "metadata": d.metadata}
            for v, d in zip(vectors, documents, strict=True)
        ]
        prefer = {"Prefer": "resolution=merge-duplicates,return=representation"}
        table = quote(self.table, safe="")
        for start in range(0, len(rows), UPSERT_BATCH):
            response = await self._request(table, rows[start : start + UPSERT_BATCH], prefer, {"select": "*"})
            if int(response.get("statusCode") or 0) >= 300:
                said = _said(response)
                message = _js(said["message"]) if "message" in said else "undefined"
                if message == "undefined" and response.get("statusCode") == 404:
                    raise VectorStoreBackendError(
                        f"Table {self.table} not found",
                        description="Please check that the table exists in your vector store",
                    )
                raise VectorStoreBackendError(
                    f"Error inserting: {message} {response.get('statusCode')} {response.get('statusMessage')}"
                )

    async def search(self, query: Vector, k: int, filter: Any = None) -> list[ScoredDocument]:
        body = {
            "query_embedding": list(query),
            "filter": dict(filter) if isinstance(filter, Mapping) else {},
            "match_count": int(k),
        }
        response = await self._request(f"rpc/{quote(self.query_name, safe='')}", body, {})
        if int(response.get("statusCode") or 0) >= 300:
            said = _said(response)
            raise VectorStoreBackendError(
                "Error searching for documents: "
                + " ".join(_js(said[key]) if key in said else "undefined" for key in ("code", "message", "details"))
            )
        rows = response.get("body")
        return [_scored(row) for row in (rows if isinstance(rows, list) else []) if isinstance(row, Mapping)]


def _scored(row: Mapping[str, Any]) -> ScoredDocument:
    """One row of the match function as LangChain reads it: content, metadata, similarity."""
    content: Any = row.get("content")
    metadata: Any = row.get("metadata")
    similarity: Any = row.get("similarity")
    return ScoredDocument(document=Document(page_content=content, metadata=metadata), score=similarity)


def _said(response: Mapping[str, Any]) -> Mapping[str, Any]:
    body = response.get("body")
    return body if isinstance(body, Mapping) else {}


def _js(value: Any) -> str:
    """A present value in a JS template string (``null`` spelled out)."""
    return "null" if value is None else str(value)


class VectorStoreSupabase(VectorStoreNode):
    """Supabase (PostgREST + a match function) through the kit's HTTP layer."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.vectorStoreSupabase",
        display_name="Supabase Vector Store",
        versions=(1, 1.1, 1.2, 1.3),
        description="Work with your data in Supabase Vector Store",
        inputs=vector_store_inputs,
        outputs=vector_store_outputs,
        credentials=("supabaseApi",),
    )
    supports_update: ClassVar[bool] = True

    def _supabase(self, ctx: NodeContext, item_index: int) -> SupabaseStore:
        table = ctx.get_node_parameter("tableName", item_index, "")
        if isinstance(table, Mapping):
            table = table.get("value", "")
        query_name = options_of(ctx, item_index).get("queryName") or "match_documents"
        try:
            return SupabaseStore(ctx, str(table or ""), str(query_name), item_index)
        except VectorStoreBackendError as error:
            raise error.for_node(ctx.node.name) from None

    async def store(self, ctx: NodeContext, item_index: int) -> NamedStore[Any]:
        return NamedStore(self._supabase(ctx, item_index), ctx.node.name, metadata_filter(ctx, item_index))

    async def write(self, ctx: ExecuteContext, batches: list[EmbeddedBatch]) -> None:
        for batch in batches:
            store = NamedStore(self._supabase(ctx, batch.item_index), ctx.node.name)
            await store.add_vectors(batch.vectors, batch.documents)

    async def _update(self, ctx: ExecuteContext, embeddings: Embeddings) -> list[Item]:
        return await update_by_id(ctx, embeddings, self.store)

    def search_filter(self, ctx: NodeContext, item_index: int) -> Any:
        return metadata_filter(ctx, item_index)


__all__ = ["SupabaseStore", "VectorStoreSupabase"]
