"""What every vector store node does, whatever its backend (n8n's ``createVectorStoreNode``).

Modes: ``insert`` (documents of the input items from the connected loader, embedded and stored; output: the
documents), ``load`` ("Get Many": the documents nearest to a prompt, with scores), ``retrieve`` (the store for a
retriever or the Question Answer Tool), ``retrieve-as-tool`` (a tool for an agent; run on the stack by agents of
version 3) and ``update`` (backends that support it). A backend subclass says how to reach its store
(:meth:`VectorStoreNode.store`) and how to write documents (:meth:`VectorStoreNode.write`).

Inserting embeds batch by batch as n8n does (each batch a run of the embeddings node) and writes only when every
batch is embedded, so a failed embedding call leaves the store as it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from weft.ai.nodes.retrieval._common import one_sub_node
from weft.ai.retrieval.connections import AI_DOCUMENT, AI_EMBEDDING, AI_VECTOR_STORE
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.embeddings import Embeddings, Vector
from weft.ai.retrieval.errors import RetrievalError
from weft.ai.retrieval.loaders import DocumentSource
from weft.ai.retrieval.retrievers import TracedStoreSearch
from weft.ai.retrieval.vector_store import ScoredDocument, VectorStore
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeContext, NodeType, SupplyDataContext, ToolSpec
from weft.nodes.tool_names import node_name_to_tool_name
from weft.workflow import AI_TOOL, MAIN, Item, NodeOutput
from weft.workflow.jsjson import js_json

#: The tool's argument (n8n's ``extraArgs``).
QUERY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"input": {"type": "string", "description": "Query to search for. Required"}},
    "required": ["input"],
    "additionalProperties": False,
}


def vector_store_inputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    mode = parameters.get("mode")
    inputs: tuple[str, ...] = (AI_EMBEDDING,)
    if mode == "retrieve-as-tool":
        return inputs
    if mode in ("insert", "load", "update"):
        inputs += (MAIN,)
    if mode == "insert":
        inputs += (AI_DOCUMENT,)
    return inputs


def vector_store_outputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    mode = parameters.get("mode") or "retrieve"
    if mode == "retrieve-as-tool":
        return (AI_TOOL,)
    if mode == "retrieve":
        return (AI_VECTOR_STORE,)
    return (MAIN,)


StoreT = TypeVar("StoreT", bound=VectorStore)


class NamedStore(Generic[StoreT]):
    """A backend store whose errors are stamped with the node's name, searched with the node's own filter merged
    under the caller's (n8n's extended store: retrieve mode too). PGVector and Qdrant wrap theirs in it."""

    def __init__(self, store: StoreT, node_name: str, default_filter: Any = None) -> None:
        self.store = store
        self.node_name = node_name
        self.default_filter = default_filter

    async def add_vectors(self, vectors: Any, documents: Any) -> None:
        try:
            await self.store.add_vectors(vectors, documents)
        except RetrievalError as error:
            raise error.for_node(self.node_name) from error.__cause__

    async def search(self, query: Vector, k: int, filter: Any = None) -> list[ScoredDocument]:
        merged = {**(self.default_filter or {}), **(filter if isinstance(filter, Mapping) else {})}
        try:
            return await self.store.search(query, k, merged or None)
        except RetrievalError as error:
            raise error.for_node(self.node_name) from error.__cause__


@dataclass(frozen=True, kw_only=True)
class EmbeddedBatch:
    """Documents embedded for an insert, not written yet; ``item_index`` is the item whose parameters apply."""

    documents: list[Document]
    vectors: list[Vector]
    item_index: int


class VectorStoreNode(NodeType):
    """Base of the vector store nodes; subclasses set ``description`` and implement the backend hooks."""

    supports_update: ClassVar[bool] = False

    # ------------------------------------------------------------------ backend hooks

    async def store(self, ctx: NodeContext, item_index: int) -> VectorStore:
        """The store to read (and, for ``update``, to write)."""
        raise NotImplementedError

    async def write(self, ctx: ExecuteContext, batches: list[EmbeddedBatch]) -> None:
        """Write the embedded batches of an insert, in order, all or nothing."""
        raise NotImplementedError

    def search_filter(self, ctx: NodeContext, item_index: int) -> Any:
        """The metadata filter of a search (``None``: every document)."""
        return None

    # ------------------------------------------------------------------ execute

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        mode = ctx.get_node_parameter("mode", 0, "retrieve")
        embeddings: Embeddings = await one_sub_node(ctx, AI_EMBEDDING, "an embeddings")
        items = ctx.get_input_data()
        if mode == "load":
            return [[hit for i in range(len(items)) for hit in await self._load(ctx, embeddings, i)]]
        if mode == "insert":
            return [await self._insert(ctx, embeddings)]
        if mode == "update":
            return [await self._update(ctx, embeddings)]
        if mode == "retrieve-as-tool":
            return [[await self._tool_item(ctx, embeddings, items[i], i) for i in range(len(items))]]
        raise NodeOperationError(
            ctx.node.name,
            'Only the "load", "update", "insert", and "retrieve-as-tool" operation modes are supported with execute',
        )

    async def _load(self, ctx: ExecuteContext, embeddings: Embeddings, item_index: int) -> list[Item]:
        hits = await self._search(ctx, embeddings, ctx.get_node_parameter("prompt", item_index), item_index)
        with_metadata = ctx.get_node_parameter("includeDocumentMetadata", item_index, True)
        out: list[Item] = []
        for hit in hits:
            document: dict[str, Any] = {"pageContent": hit.document.page_content}
            if with_metadata:
                document["metadata"] = hit.document.metadata
            out.append({"json": {"document": document, "score": hit.score}, "pairedItem": {"item": item_index}})
        return out

    async def _search(
        self, ctx: NodeContext, embeddings: Embeddings, query: Any, item_index: int
    ) -> list[ScoredDocument]:
        store = await self.store(ctx, item_index)
        top_k = ctx.get_node_parameter("topK", item_index, 4)
        if ctx.get_node_parameter("useReranker", item_index, False):
            raise NodeOperationError(
                ctx.node.name,
                "Rerank Results is not supported by Weft yet",
                description="Turn off 'Rerank Results' on the vector store node.",
                item_index=item_index,
            )
        vector = await embeddings.embed_query(query)
        return await store.search(vector, top_k, self.search_filter(ctx, item_index))

    async def _insert(self, ctx: ExecuteContext, embeddings: Embeddings) -> list[Item]:
        version = float(ctx.node.typeVersion)
        source: DocumentSource | list[Document] = await one_sub_node(ctx, AI_DOCUMENT, "a document loader")
        out: list[Item] = []
        pending: list[Document] = []
        batches: list[EmbeddedBatch] = []
        for index, item in enumerate(ctx.get_input_data()):
            ctx.check_cancelled()
            documents = await _documents(source, item, index)
            out.extend(_serialized(documents, index))
            pending.extend(documents)
            if version == 1:
                batches.append(await self._embed(embeddings, documents, index))
        if version >= 1.1:
            size = int(ctx.get_node_parameter("embeddingBatchSize", 0, 200) or 200)
            for start in range(0, len(pending), max(1, size)):
                batches.append(await self._embed(embeddings, pending[start : start + size], 0))
        await self.write(ctx, batches)
        return out

    @staticmethod
    async def _embed(embeddings: Embeddings, documents: list[Document], item_index: int) -> EmbeddedBatch:
        vectors = await embeddings.embed_documents([d.page_content for d in documents])
        return EmbeddedBatch(documents=documents, vectors=vectors, item_index=item_index)

    async def _update(self, ctx: ExecuteContext, embeddings: Embeddings) -> list[Item]:
        if not self.supports_update:
            raise NodeOperationError(ctx.node.name, "Update operation is not implemented for this Vector Store")
        raise NotImplementedError  # no backend supports it yet

    async def _tool_item(self, ctx: ExecuteContext, embeddings: Embeddings, item: Item, item_index: int) -> Item:
        query = item["json"].get("input")
        if not isinstance(query, str) or not query:
            raise NodeOperationError(
                ctx.node.name, 'Input data must contain a "input" field with the search query', item_index=item_index
            )
        hits = await self._search(ctx, embeddings, query, item_index)
        with_metadata = ctx.get_node_parameter("includeDocumentMetadata", item_index, True)
        response = [
            {"type": "text", "text": js_json(hit.document.to_json())}
            if with_metadata
            else {"type": "text", "pageContent": js_json({"pageContent": hit.document.page_content})}
            for hit in hits
        ]
        return {"json": {"response": response}, "pairedItem": {"item": item_index}}

    # ------------------------------------------------------------------ supply_data

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> Any:
        mode = ctx.get_node_parameter("mode", 0, "retrieve")
        embeddings: Embeddings = await one_sub_node(ctx, AI_EMBEDDING, "an embeddings")
        if mode == "retrieve":
            return TracedStoreSearch(await self.store(ctx, item_index), embeddings, ctx)
        if mode == "retrieve-as-tool":
            return self._tool_spec(ctx, embeddings, item_index)
        raise NodeOperationError(
            ctx.node.name, 'Only the "retrieve" and "retrieve-as-tool" operation mode is supported to supply data'
        )

    def _tool_spec(self, ctx: SupplyDataContext, embeddings: Embeddings, item_index: int) -> ToolSpec:
        description = str(ctx.get_node_parameter("toolDescription", item_index))
        if float(ctx.node.typeVersion) < 1.3:
            name = str(ctx.get_node_parameter("toolName", item_index))
        else:
            name = node_name_to_tool_name(ctx.node.name)
        spec = ToolSpec(name=name, description=description, parameters=QUERY_SCHEMA, source_node_name=ctx.node.name)

        async def invoke(arguments: dict[str, Any]) -> str:
            return await self._invoke_inline(ctx, embeddings, arguments, item_index)

        return dataclasses.replace(spec, invoke=invoke)

    async def _invoke_inline(
        self, ctx: SupplyDataContext, embeddings: Embeddings, arguments: dict[str, Any], item_index: int
    ) -> str:
        """The tool run inside an agent before version 3: a run of this node, ``{query}`` in, ``{response}`` out."""
        run = ctx.add_input_data(AI_TOOL, [[{"json": {"query": arguments}}]])
        try:
            query = arguments.get("input")
            if not isinstance(query, str):
                raise NodeOperationError(ctx.node.name, "Query must be of type string")
            hits = await self._search(ctx, embeddings, query, item_index)
        except Exception as error:
            ctx.add_output_data(AI_TOOL, run, error)
            return f'There was an error: "{getattr(error, "message", None) or error}"'
        with_metadata = ctx.get_node_parameter("includeDocumentMetadata", item_index, True)
        response = [
            {
                "type": "text",
                "text": js_json(h.document.to_json() if with_metadata else {"pageContent": h.document.page_content}),
            }
            for h in hits
        ]
        ctx.add_output_data(AI_TOOL, run, [[{"json": {"response": response}}]])
        return js_json(response)


async def _documents(source: DocumentSource | Sequence[Document], item: Item, item_index: int) -> list[Document]:
    """n8n's ``processDocument``: a loader reads the item; documents supplied as such are used as they are."""
    if isinstance(source, DocumentSource):
        return await source.process_item(item, item_index)
    return list(source)


def _serialized(documents: list[Document], item_index: int) -> list[Item]:
    return [
        {"json": {"metadata": d.metadata, "pageContent": d.page_content}, "pairedItem": {"item": item_index}}
        for d in documents
    ]


__all__ = [
    "QUERY_SCHEMA",
    "EmbeddedBatch",
    "NamedStore",
    "VectorStoreNode",
    "vector_store_inputs",
    "vector_store_outputs",
]
