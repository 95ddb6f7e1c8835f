"""The connection types of the retrieval sub-nodes (n8n's ``NodeConnectionTypes``)."""

from __future__ import annotations

AI_EMBEDDING = "ai_embedding"
"""Embeddings → a vector store."""
AI_DOCUMENT = "ai_document"
"""A document loader → a vector store in insert mode."""
AI_TEXT_SPLITTER = "ai_textSplitter"
"""A text splitter → a document loader."""
AI_VECTOR_STORE = "ai_vectorStore"
"""A vector store in retrieve mode → a retriever or the Vector Store Question Answer Tool."""
AI_RETRIEVER = "ai_retriever"
"""A retriever → a chain."""

__all__ = ["AI_DOCUMENT", "AI_EMBEDDING", "AI_RETRIEVER", "AI_TEXT_SPLITTER", "AI_VECTOR_STORE"]
