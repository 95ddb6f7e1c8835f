"""Errors of the retrieval nodes. Each message names what is wrong and how to fix it::

    NodeOperationError
    └── RetrievalError              base: a retrieval sub-node or vector store failed
        ├── TextSplitterError       a splitter's settings cannot work (overlap not below the chunk size)
        ├── DocumentLoadError       a document loader cannot read its input (mime type, CSV column, PDF)
        ├── EmbeddingResponseError  an embedding endpoint answered with the wrong number or shape of vectors
        └── VectorDimensionError    vectors of another length than those the store already holds

Provider HTTP failures of an embedding call are :class:`~weft.ai.errors.ChatModelError` subclasses, shared with
the chat models (``Authorization failed - please check your credentials`` …).
"""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError


class RetrievalError(NodeOperationError):
    """A retrieval sub-node or vector store failed; raised without a node name, stamped by :meth:`for_node`."""

    def __init__(self, message: str, *, node_name: str = "", **context: Any) -> None:
        super().__init__(node_name, message, **context)

    def for_node(self, node_name: str) -> RetrievalError:
        """Name the node the error belongs to (kept if already set); returns ``self``."""
        if not self.node_name:
            self.node_name = node_name
        return self


class TextSplitterError(RetrievalError):
    """A text splitter's settings cannot work."""


class DocumentLoadError(RetrievalError):
    """A document loader cannot read its input."""


class EmbeddingResponseError(RetrievalError):
    """An embedding endpoint's answer does not fit the texts sent."""


class VectorDimensionError(RetrievalError):
    """Vectors whose length differs from the vectors a store already holds."""


__all__ = [
    "DocumentLoadError",
    "EmbeddingResponseError",
    "RetrievalError",
    "TextSplitterError",
    "VectorDimensionError",
]
