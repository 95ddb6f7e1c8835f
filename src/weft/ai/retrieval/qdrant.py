"""Qdrant: documents as points of a Qdrant collection (LangChain's ``QdrantVectorStore``, official ``qdrant-client``).

A point is ``{id: uuid4, vector, payload: {content: text, metadata: {…}}}`` (payload keys configurable). The
collection is created when missing, by an insert or a search as LangChain does, with the vectors' length and
cosine distance unless a collection config is given. Searches answer Qdrant's scores (cosine similarity: larger
is nearer) and take Qdrant's own filter (``{"must": [{"key": "metadata.x", "match": {"value": 1}}]}``).

Unlike LangChain, vectors whose length differs from the collection's are refused before the upsert, and every
point goes in one upsert request, so a refused insert writes nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from weft.ai.retrieval.backend_errors import VectorStoreBackendError
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.embeddings import Vector
from weft.ai.retrieval.errors import VectorDimensionError
from weft.ai.retrieval.vector_store import InMemoryVectorStore, ScoredDocument


@dataclass(frozen=True, kw_only=True)
class QdrantSettings:
    collection: str
    content_key: str = "content"
    metadata_key: str = "metadata"
    collection_config: Mapping[str, Any] = field(default_factory=dict)
    """``createCollection``'s body (n8n's Collection Config option); empty: the vectors' size, cosine."""


class QdrantStore:
    """A :class:`~weft.ai.retrieval.vector_store.VectorStore` over a ``qdrant_client.AsyncQdrantClient``."""

    def __init__(self, client: Any, settings: QdrantSettings) -> None:
        if not settings.collection:
            raise VectorStoreBackendError(
                "No Qdrant collection is set", description="Choose or type the collection's name."
            )
        self.client = client
        self.settings = settings

    async def _ensure_collection(self, dimensions: int) -> int | None:
        """Create the collection when missing; the length of its (unnamed) vectors, when it says one."""
        from qdrant_client import models

        name = self.settings.collection
        if not await self._call(self.client.collection_exists(name)):
            config = dict(self.settings.collection_config) or {"vectors": {"size": dimensions, "distance": "Cosine"}}
            vectors = config.get("vectors")
            params = models.VectorParams(**vectors) if isinstance(vectors, Mapping) and "size" in vectors else vectors
            await self._call(self.client.create_collection(name, vectors_config=params))
        info = await self._call(self.client.get_collection(name))
        vectors = info.config.params.vectors
        return int(vectors.size) if isinstance(vectors, models.VectorParams) else None

    async def add_vectors(self, vectors: Sequence[Vector], documents: Sequence[Document]) -> None:
        from qdrant_client import models

        if len(vectors) != len(documents):
            raise VectorDimensionError(f"{len(vectors)} vectors were given for {len(documents)} documents")
        if not vectors:
            return
        lengths = sorted({len(v) for v in vectors})
        if len(lengths) != 1:
            raise VectorDimensionError(
                f"The embeddings to store have different numbers of dimensions ({', '.join(map(str, lengths))})",
                description="Every vector of a store must have the same length; use one embedding model.",
            )
        current = await self._ensure_collection(lengths[0])
        InMemoryVectorStore.check_length(self.settings.collection, current, lengths[0])
        points = [
            models.PointStruct(
                id=document.id or str(uuid.uuid4()),
                vector=list(vector),
                payload={
                    self.settings.content_key: document.page_content,
                    self.settings.metadata_key: document.metadata,
                },
            )
            for vector, document in zip(vectors, documents, strict=True)
        ]
        await self._call(self.client.upsert(self.settings.collection, points=points, wait=True))

    async def search(self, query: Vector, k: int, filter: Any = None) -> list[ScoredDocument]:

        current = await self._ensure_collection(len(query))
        InMemoryVectorStore.check_length(self.settings.collection, current, len(query), "The query's embedding has")
        query_filter = self._filter(filter)
        keys = [self.settings.metadata_key, self.settings.content_key]
        answer = await self._call(
            self.client.query_points(
                self.settings.collection,
                query=list(query),
                limit=max(int(k), 1),
                query_filter=query_filter,
                with_payload=keys,
                with_vectors=False,
            )
        )
        return [
            ScoredDocument(
                document=Document(
                    page_content=(p.payload or {}).get(self.settings.content_key) or "",
                    metadata=(p.payload or {}).get(self.settings.metadata_key) or {},
                    id=str(p.id),
                ),
                score=float(p.score),
            )
            for p in answer.points[: max(int(k), 0)]
        ]

    def _filter(self, filter: Any) -> Any:
        from qdrant_client import models

        if not isinstance(filter, Mapping) or not filter:
            return None
        try:
            return models.Filter(**filter)
        except ValueError as error:  # pydantic's ValidationError
            raise VectorStoreBackendError(
                f"Qdrant collection {self.settings.collection!r}: the search filter is not a Qdrant filter",
                description="Write it as Qdrant's filter JSON, e.g. "
                '{"must": [{"key": "metadata.source", "match": {"value": "a.md"}}]}. ' + str(error).splitlines()[0],
            ) from error

    async def _call(self, call: Any) -> Any:
        try:
            return await call
        except VectorStoreBackendError:
            raise
        except Exception as error:  # the client raises its own, httpx's and pydantic's errors
            said = str(error).splitlines()[0] if str(error) else repr(error)
            raise VectorStoreBackendError(
                f"Qdrant collection {self.settings.collection!r}: {said}",
                description="Check the Qdrant URL and API key, the collection's name and its vector size.",
            ) from error


__all__ = ["QdrantSettings", "QdrantStore"]
