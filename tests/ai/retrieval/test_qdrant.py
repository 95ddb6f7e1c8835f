"""The Qdrant store and node on the official ``qdrant-client`` in local mode (``:memory:``; no Qdrant server in
tests): points, scores, Qdrant filters, and inserts of the wrong length refused with nothing written."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
import qdrant_client

from weft.ai.nodes.retrieval.vector_store_qdrant import VectorStoreQdrant
from weft.ai.nodes.retrieval.vector_store_qdrant import qdrant_client as make_client
from weft.ai.retrieval.backend_errors import VectorStoreBackendError
from weft.ai.retrieval.demo_embeddings import HashedEmbeddings
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.errors import VectorDimensionError
from weft.ai.retrieval.qdrant import QdrantSettings, QdrantStore
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
DOCS = [
    Document(page_content="cats purr and sleep", metadata={"animal": "cat"}),
    Document(page_content="dogs bark at the mailman", metadata={"animal": "dog"}),
    Document(page_content="dogs dig in the garden", metadata={"animal": "dog"}),
]


async def filled(client: Any, name: str = "kb") -> QdrantStore:
    store = QdrantStore(client, QdrantSettings(collection=name))
    await store.add_vectors(await HashedEmbeddings(32).embed_documents([d.page_content for d in DOCS]), DOCS)
    return store


async def test_insert_then_search_with_scores_and_a_filter() -> None:
    client = qdrant_client.AsyncQdrantClient(location=":memory:")
    store = await filled(client)
    query = await HashedEmbeddings(32).embed_query("dogs bark")
    hits = await store.search(query, 2)
    assert [h.document.page_content for h in hits] == ["dogs bark at the mailman", "dogs dig in the garden"]
    assert hits[0].score > hits[1].score  # cosine similarity: nearer is larger
    only_cats = {"must": [{"key": "metadata.animal", "match": {"value": "cat"}}]}
    assert [h.document.metadata for h in await store.search(query, 4, only_cats)] == [{"animal": "cat"}]


async def test_another_dimension_is_refused_and_nothing_is_written() -> None:
    client = qdrant_client.AsyncQdrantClient(location=":memory:")
    store = await filled(client)
    with pytest.raises(VectorDimensionError, match="16 dimensions, but the vector store 'kb' holds vectors of 32"):
        await store.add_vectors([[0.1] * 16], [Document(page_content="short")])
    assert (await client.count("kb")).count == 3
    with pytest.raises(VectorDimensionError, match="The query's embedding has 16 dimensions"):
        await store.search([0.1] * 16, 2)


async def test_a_bad_filter_is_a_clear_error() -> None:
    store = await filled(qdrant_client.AsyncQdrantClient(location=":memory:"))
    with pytest.raises(VectorStoreBackendError, match="the search filter is not a Qdrant filter"):
        await store.search([0.1] * 32, 2, {"must": "not a list"})


def test_the_credential_url_must_be_http() -> None:
    with pytest.raises(ValueError, match="Invalid Qdrant URL: qdrant:6333"):
        make_client({"qdrantUrl": "qdrant:6333"})
    client = make_client({"qdrantUrl": "https://qdrant.example:7000", "apiKey": "k"})
    assert client is not None


async def test_node_inserts_then_loads_with_a_search_filter(monkeypatch: Any) -> None:
    client = qdrant_client.AsyncQdrantClient(location=":memory:")
    seen: list[Mapping[str, Any]] = []

    def factory(credentials: Mapping[str, Any]) -> Any:
        seen.append(credentials)
        return client

    monkeypatch.setattr(VectorStoreQdrant, "client_factory", staticmethod(factory))
    items = ", ".join(f"{{json: {{text: {d.page_content!r}}}}}" for d in DOCS)
    cred = {"qdrantApi": {"id": "q", "name": "Q"}}
    collection = {"__rl": True, "mode": "id", "value": "kb"}
    search_filter = json.dumps({"must": [{"key": "content", "match": {"text": "garden"}}]})
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Data", "n8n-nodes-base.code", {"jsCode": f"return [{items}];"}, version=2),
        node(
            "Insert",
            LC + "vectorStoreQdrant",
            {"mode": "insert", "qdrantCollection": collection},
            version=1.3,
            credentials=cred,
        ),
        node("Embeddings", "weft.embeddingsDemo", {"dimensions": 32}),
        node("Loader", LC + "documentDefaultDataLoader", {"options": {}}, version=1.1),
        node("One", "n8n-nodes-base.limit", {"maxItems": 1}, version=1),
        node(
            "Load",
            LC + "vectorStoreQdrant",
            {
                "mode": "load",
                "qdrantCollection": collection,
                "prompt": "dogs",
                "topK": 3,
                "options": {"searchFilterJson": search_filter},
            },
            version=1.3,
            credentials=cred,
        ),
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Insert", "One"),
        connect("One", "Load"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Embeddings", "Load", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    )
    services = LocalServices(credentials={"Q": {"qdrantUrl": "http://127.0.0.1:6333", "apiKey": ""}})
    result = dict(await run_workflow(wf, registry=default_registry(), services=services))
    assert result["status"] == "success", result["data"]["resultData"].get("error")
    loaded = [i["json"] for i in result["data"]["resultData"]["runData"]["Load"][0]["data"]["main"][0]]
    assert [d["document"]["pageContent"] for d in loaded] == ["dogs dig in the garden"]
    assert seen[0]["qdrantUrl"] == "http://127.0.0.1:6333"
    assert (await client.count("kb")).count == 3
