"""What the vector stores supply to other nodes: a searchable store (``retrieve`` mode) and a retriever.

:class:`TracedStoreSearch` is a vector store as n8n's ``logWrapper`` hands it out: each ``similarity_search`` is a
run of the store node (``ai_vectorStore``), its query embedded by the connected embeddings.
:class:`TracedRetriever` is the Vector Store Retriever's ``asRetriever(topK)``: each ``get_relevant_documents``
is a run of the retriever node (``ai_retriever``).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from weft.ai.retrieval.connections import AI_VECTOR_STORE
from weft.ai.retrieval.documents import Document, documents_json
from weft.ai.retrieval.embeddings import Embeddings
from weft.ai.retrieval.traced import logged, response_item
from weft.ai.retrieval.vector_store import VectorStore, similarity_search
from weft.nodes.contract import SupplyDataContext


@runtime_checkable
class SearchesText(Protocol):
    """A store that finds the documents nearest to a text (LangChain's ``similaritySearch``)."""

    async def similarity_search(self, query: str, k: int, filter: Any = None) -> list[Document]: ...


class TracedStoreSearch:
    """A vector store searched by text; each search is a run of the store node."""

    def __init__(self, store: VectorStore, embeddings: Embeddings, ctx: SupplyDataContext) -> None:
        self.store = store
        self.embeddings = embeddings
        self._ctx = ctx

    async def similarity_search(self, query: str, k: int, filter: Any = None) -> list[Document]:
        request: dict[str, Any] = {"query": query, "k": k}
        if filter is not None:
            request["filter"] = filter
        return await logged(
            self._ctx,
            AI_VECTOR_STORE,
            [{"json": request}],
            lambda: similarity_search(self.store, self.embeddings, query, k),
            lambda docs: [response_item(documents_json(docs))],
        )


class StoreRetriever:
    """``store.asRetriever(k)``: the ``k`` nearest documents of a text.

    Its calls are not runs of the retriever node: n8n's ``logWrapper`` hooks ``getRelevantDocuments``, which the
    chains of n8n 2.41 no longer call (they ``invoke`` the retriever), so the recorded runs are the store's
    searches and the embeddings' calls only (recorded with a Question and Answer Chain, n8n 2.41.1).
    """

    def __init__(self, store: SearchesText, k: int) -> None:
        self.store = store
        self.k = k

    async def get_relevant_documents(self, query: str) -> list[Document]:
        return await self.store.similarity_search(query, self.k)


__all__ = ["SearchesText", "StoreRetriever", "TracedStoreSearch"]
