"""Vector stores: the :class:`VectorStore` protocol every backend implements, and the in-memory one.

A backend keeps documents with their vectors and answers nearest-neighbour searches with scores. Embedding is the
caller's (:func:`add_documents` embeds, then adds all at once, so a failed embedding writes nothing). PGVector,
Qdrant and the like plug in behind the same protocol.

:class:`InMemoryVectorStore` is LangChain's ``MemoryVectorStore`` as n8n's Simple Vector Store uses it, scores
included: cosine similarity accumulated dimension by dimension in double precision exactly as LangChain's
``cosine`` (``p / (sqrt(p2) * sqrt(q2))``), so the scores are n8n's to the last bit; results sorted by score,
highest first, ties in insertion order. Numpy does the arithmetic over all documents at once.
"""

from __future__ import annotations

import copy
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.embeddings import Embeddings, Vector
from weft.ai.retrieval.errors import VectorDimensionError

DocumentFilter = Callable[[Document], bool]


@dataclass(frozen=True, kw_only=True)
class ScoredDocument:
    document: Document
    score: float


@runtime_checkable
class VectorStore(Protocol):
    """Where documents and their vectors live; what the vector store nodes need of a backend."""

    async def add_vectors(self, vectors: Sequence[Vector], documents: Sequence[Document]) -> None:
        """Keep ``documents`` with their ``vectors`` (one each); all or nothing."""
        ...

    async def search(self, query: Vector, k: int, filter: Any = None) -> list[ScoredDocument]:
        """The ``k`` documents nearest to ``query``, best first."""
        ...


async def add_documents(store: VectorStore, embeddings: Embeddings, documents: Sequence[Document]) -> None:
    """Embed the documents' texts, then add them (LangChain's ``addDocuments``)."""
    vectors = await embeddings.embed_documents([d.page_content for d in documents])
    await store.add_vectors(vectors, documents)


async def similarity_search(store: VectorStore, embeddings: Embeddings, query: str, k: int) -> list[Document]:
    """LangChain's ``similaritySearch``: embed the query, return the nearest documents."""
    found = await store.search(await embeddings.embed_query(query), k)
    return [hit.document for hit in found]


def js_slice_count(count: int, k: float) -> int:
    """How many of ``count`` results ``Array.prototype.slice(0, k)`` keeps (a negative ``k`` counts from the end)."""
    if isinstance(k, float) and math.isnan(k):
        return 0
    end = math.trunc(k) if math.isfinite(k) else (count if k > 0 else 0)
    return max(count + end, 0) if end < 0 else min(end, count)


class InMemoryVectorStore:
    """LangChain's ``MemoryVectorStore``: documents and vectors in this process; numpy arrays column by column."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._documents: list[Document] = []
        self._columns: np.ndarray[Any, np.dtype[np.float64]] = np.zeros((0, 0))
        """Shape ``(dimensions, capacity)``: dimension ``i`` of every vector is the contiguous row ``i``."""
        self._norms = np.zeros(0)
        """Each vector's sum of squares, accumulated in dimension order (LangChain's ``q2``)."""
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._documents)

    @property
    def dimensions(self) -> int | None:
        return self._columns.shape[0] if self._documents else None

    @property
    def documents(self) -> list[Document]:
        return list(self._documents)

    async def add_vectors(self, vectors: Sequence[Vector], documents: Sequence[Document]) -> None:
        if len(vectors) != len(documents):
            raise VectorDimensionError(f"{len(vectors)} vectors were given for {len(documents)} documents")
        if not documents:
            return
        block = self._block(vectors)
        with self._lock:
            self._check_dimensions(block.shape[1], "The new documents' embeddings have")
            self._append(block, documents)

    def _block(self, vectors: Sequence[Vector]) -> np.ndarray[Any, np.dtype[np.float64]]:
        lengths = sorted({len(v) for v in vectors})
        if len(lengths) != 1 or lengths[0] == 0:
            raise VectorDimensionError(
                f"The embeddings to store have different numbers of dimensions ({', '.join(map(str, lengths))})",
                description="Every vector of a store must have the same length; use one embedding model.",
            )
        return np.asarray(vectors, dtype=np.float64)

    def _check_dimensions(self, dimensions: int, what: str) -> None:
        self.check_length(self.name, self.dimensions, dimensions, what)

    @staticmethod
    def check_length(name: str, current: int | None, dimensions: int, what: str = "The new embeddings have") -> None:
        """Refuse vectors of ``dimensions`` for a store holding vectors of ``current`` (``None``: empty)."""
        if current is not None and dimensions != current:
            named = f" {name!r}" if name else ""
            raise VectorDimensionError(
                f"{what} {dimensions} dimensions, but the vector store{named} holds vectors of {current}",
                description="Use the embedding model (and Dimensions option) the store was filled with, or clear "
                "the store (the insert mode's 'Clear Store' option) before inserting with another model.",
            )

    def _append(self, block: np.ndarray[Any, np.dtype[np.float64]], documents: Sequence[Document]) -> None:
        count, dims = len(self._documents), block.shape[1]
        if count == 0:
            self._columns = np.zeros((dims, max(16, len(documents))))
            self._norms = np.zeros(self._columns.shape[1])
        needed = count + len(documents)
        if needed > self._columns.shape[1]:
            capacity = max(needed, 2 * self._columns.shape[1])
            grown = np.zeros((dims, capacity))
            grown[:, :count] = self._columns[:, :count]
            self._columns = grown
            self._norms = np.resize(self._norms, capacity)
        self._columns[:, count:needed] = block.T
        norms = np.zeros(len(documents))
        for row in block.T * block.T:  # dimension by dimension, as LangChain's loop adds them
            norms += row
        self._norms[count:needed] = norms
        self._documents.extend(Document(page_content=d.page_content, metadata=d.metadata, id=d.id) for d in documents)

    def scores(self, query: Vector) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Every stored vector's cosine similarity to ``query``, as LangChain computes it."""
        count = len(self._documents)
        columns = self._columns
        dot = np.zeros(count)
        query_sq = 0.0
        for i, value in enumerate(query):  # dimension by dimension, as LangChain's loop adds them
            dot += value * columns[i, :count]
            query_sq += value * value
        with np.errstate(divide="ignore", invalid="ignore"):
            result: np.ndarray[Any, np.dtype[np.float64]] = dot / (math.sqrt(query_sq) * np.sqrt(self._norms[:count]))
        return result

    async def search(self, query: Vector, k: int, filter: Any = None) -> list[ScoredDocument]:
        with self._lock:
            if not self._documents:
                return []
            self._check_dimensions(len(query), "The query's embedding has")
            scores = self.scores(query)
            documents = list(self._documents)
        chosen = np.arange(len(documents))
        if callable(filter):
            chosen = np.array([i for i in chosen if filter(documents[i])], dtype=np.int64)
        order = chosen[np.argsort(-scores[chosen], kind="stable")]
        hits = order[: js_slice_count(len(order), k)]
        return [ScoredDocument(document=_copy(documents[i]), score=float(scores[i])) for i in hits]

    def clear(self) -> None:
        with self._lock:
            self._documents = []
            self._columns = np.zeros((0, 0))
            self._norms = np.zeros(0)


def _copy(document: Document) -> Document:
    return Document(page_content=document.page_content, metadata=copy.deepcopy(document.metadata), id=document.id)


class InMemoryStores:
    """The Simple Vector Store's stores by memory key, shared by every workflow of the process (n8n's
    ``MemoryVectorStoreManager``: kept until the process ends)."""

    def __init__(self) -> None:
        self._stores: dict[str, InMemoryVectorStore] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> InMemoryVectorStore:
        with self._lock:
            store = self._stores.get(key)
            if store is None:
                store = self._stores[key] = InMemoryVectorStore(key)
            return store

    def drop(self, key: str) -> None:
        """Forget the store under ``key`` (the insert mode's Clear Store)."""
        with self._lock:
            self._stores.pop(key, None)

    def keys(self) -> list[str]:
        with self._lock:
            return list(self._stores)


#: The process-wide stores of the Simple Vector Store.
PROCESS_STORES = InMemoryStores()

__all__ = [
    "PROCESS_STORES",
    "DocumentFilter",
    "InMemoryStores",
    "InMemoryVectorStore",
    "ScoredDocument",
    "VectorStore",
    "add_documents",
    "js_slice_count",
    "similarity_search",
]
