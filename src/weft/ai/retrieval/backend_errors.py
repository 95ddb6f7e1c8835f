"""The error of a vector store backend (PostgreSQL, Qdrant): a failed statement or request, or a setting that
cannot work, raised without a node name and stamped by the node (:meth:`RetrievalError.for_node`)."""

from __future__ import annotations

from weft.ai.retrieval.errors import RetrievalError


class VectorStoreBackendError(RetrievalError):
    """A vector store's database refused a statement or request, or its settings cannot work."""


__all__ = ["VectorStoreBackendError"]
