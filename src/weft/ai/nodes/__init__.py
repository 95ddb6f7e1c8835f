"""AI node types. ``CATALOG`` lists the chat-model and chain nodes for the ``weft.nodes`` entry point.

Register it in ``pyproject.toml``::

    [project.entry-points."weft.nodes"]
    ai-models = "weft.ai.nodes:CATALOG"
"""

from __future__ import annotations

_LC = "@n8n/n8n-nodes-langchain."

#: The retrieval node types: ``{n8n name: "module:Class"}`` under ``weft.ai.nodes.retrieval``.
_RETRIEVAL = {
    "embeddingsOpenAi": "embeddings_openai:EmbeddingsOpenAi",
    "embeddingsOllama": "embeddings_ollama:EmbeddingsOllama",
    "embeddingsGoogleGemini": "embeddings_google_gemini:EmbeddingsGoogleGemini",
    "embeddingsMistralCloud": "embeddings_mistral_cloud:EmbeddingsMistralCloud",
    "documentDefaultDataLoader": "document_default_data_loader:DocumentDefaultDataLoader",
    "textSplitterRecursiveCharacterTextSplitter": "text_splitter_recursive:TextSplitterRecursiveCharacterTextSplitter",
    "textSplitterCharacterTextSplitter": "text_splitter_character:TextSplitterCharacterTextSplitter",
    "textSplitterTokenSplitter": "text_splitter_token:TextSplitterTokenSplitter",
    "vectorStoreInMemory": "vector_store_in_memory:VectorStoreInMemory",
    "vectorStorePGVector": "vector_store_pgvector:VectorStorePGVector",
    "vectorStoreQdrant": "vector_store_qdrant:VectorStoreQdrant",
    "vectorStorePinecone": "vector_store_pinecone:VectorStorePinecone",
    "vectorStoreSupabase": "vector_store_supabase:VectorStoreSupabase",
    "retrieverVectorStore": "retriever_vector_store:RetrieverVectorStore",
    "retrieverWorkflow": "retriever_workflow:RetrieverWorkflow",
    "toolVectorStore": "tool_vector_store:ToolVectorStore",
}

#: Weft's keyless demo and test models. The registry keeps them (``weft.nodes.catalog.DEMO_NODE_TYPES``) out of
#: the catalog, and never imports their modules, unless ``WEFT_DEMO_NODES`` is on: production offers no canned model.
DEMO_CATALOG: dict[str, str] = {
    "weft.lmChatScripted": "weft.ai.nodes.lm_chat_scripted:LmChatScripted",
    "weft.lmChatDemo": "weft.ai.nodes.lm_chat_demo:LmChatDemo",
    "weft.embeddingsDemo": "weft.ai.nodes.retrieval.embeddings_demo:EmbeddingsDemo",
}

#: ``{type name: "module:Class"}`` of the chat-model and chain node types (imported on first use), with the demo
#: models of :data:`DEMO_CATALOG`.
CATALOG: dict[str, str] = {
    _LC + "lmChatOpenAi": "weft.ai.nodes.lm_chat_openai:LmChatOpenAi",
    _LC + "lmChatAnthropic": "weft.ai.nodes.lm_chat_anthropic:LmChatAnthropic",
    _LC + "lmChatOllama": "weft.ai.nodes.lm_chat_ollama:LmChatOllama",
    _LC + "lmChatGoogleGemini": "weft.ai.nodes.lm_chat_gemini:LmChatGoogleGemini",
    _LC + "lmChatMistralCloud": "weft.ai.nodes.lm_chat_mistral:LmChatMistralCloud",
    _LC + "lmChatGroq": "weft.ai.nodes.lm_chat_groq:LmChatGroq",
    _LC + "lmChatOpenRouter": "weft.ai.nodes.lm_chat_openrouter:LmChatOpenRouter",
    _LC + "lmChatDeepSeek": "weft.ai.nodes.lm_chat_deepseek:LmChatDeepSeek",
    _LC + "openAi": "weft.ai.nodes.openai_node:OpenAi",
    _LC + "chainLlm": "weft.ai.nodes.chains.chain_llm:ChainLlm",
    _LC + "informationExtractor": "weft.ai.nodes.chains.information_extractor:InformationExtractor",
    _LC + "textClassifier": "weft.ai.nodes.chains.text_classifier:TextClassifier",
    _LC + "sentimentAnalysis": "weft.ai.nodes.chains.sentiment_analysis:SentimentAnalysis",
    _LC + "chainRetrievalQa": "weft.ai.nodes.chains.retrieval_qa:ChainRetrievalQa",
    _LC + "chainSummarization": "weft.ai.nodes.chains.summarization:ChainSummarization",
    # retrieval: embeddings, loader, splitters, vector stores (weft.ai.nodes.retrieval)
    **{_LC + name: "weft.ai.nodes.retrieval." + target for name, target in _RETRIEVAL.items()},
    **DEMO_CATALOG,
}

__all__ = ["CATALOG", "DEMO_CATALOG"]
