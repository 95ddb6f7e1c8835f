"""Retrieval node types: embeddings, the Default Data Loader, text splitters, the Simple Vector Store, the Vector
Store Retriever and the Vector Store Question Answer Tool (one module each; the logic is in
:mod:`weft.ai.retrieval`)."""
