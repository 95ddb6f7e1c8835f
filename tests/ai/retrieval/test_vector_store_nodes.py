"""The Simple Vector Store node with its sub-nodes in real workflows: failures are clear node errors and an insert
that fails writes nothing."""

from __future__ import annotations

import functools
from typing import Any

import weft.ai.nodes.retrieval.embeddings_openai as node_module
from weft.ai.models.base import NO_RETRIES
from weft.ai.nodes.retrieval.vector_store_in_memory import VectorStoreInMemory
from weft.ai.retrieval.embeddings import OpenAIEmbeddingSettings
from weft.ai.retrieval.vector_store import InMemoryStores
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.workflows import connect, node, workflow

from .conftest import EmbeddingEndpoint, failing, vectors

LC = "@n8n/n8n-nodes-langchain."
CREDENTIAL = {"openAiApi": {"id": "c1", "name": "Embeddings"}}


def insert_workflow(texts: list[str], key: str, *, batch: int = 200, clear: bool = False) -> dict[str, Any]:
    items = ", ".join(f"{{json: {{text: {t!r}}}}}" for t in texts)
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Data", "n8n-nodes-base.code", {"jsCode": f"return [{items}];"}, version=2),
        node(
            "Insert",
            LC + "vectorStoreInMemory",
            {
                "mode": "insert",
                "memoryKey": {"__rl": True, "mode": "id", "value": key},
                "clearStore": clear,
                "embeddingBatchSize": batch,
            },
            version=1.3,
        ),
        node(
            "Embeddings",
            LC + "embeddingsOpenAi",
            {"model": "text-embedding-3-small", "options": {"encodingFormat": "float"}},
            version=1.2,
            credentials=CREDENTIAL,
        ),
        node("Loader", LC + "documentDefaultDataLoader", {"options": {}}, version=1.1),
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    )


async def run(server: EmbeddingEndpoint, wf: dict[str, Any]) -> dict[str, Any]:
    services = LocalServices(credentials={"Embeddings": {"apiKey": "sk-test", "url": server.base_url}})
    return dict(await run_workflow(wf, registry=default_registry(), services=services))


def error_of(result: dict[str, Any]) -> dict[str, Any]:
    error: dict[str, Any] = result["data"]["resultData"]["error"]
    return error


async def test_a_failed_batch_writes_nothing(monkeypatch: Any) -> None:
    stores = InMemoryStores()
    monkeypatch.setattr(VectorStoreInMemory, "stores", stores)
    with EmbeddingEndpoint([vectors(4), failing(400, "This model's maximum context length is 8192 tokens")]) as server:
        result = await run(server, insert_workflow(["cats purr", "dogs bark", "x" * 50], "kb", batch=2))
    assert result["status"] == "error"
    error = error_of(result)
    assert "maximum context length is 8192 tokens" in error["message"]
    assert len(stores.get("kb")) == 0  # the first batch was embedded, but nothing was written
    embedding_runs = result["data"]["resultData"]["runData"]["Embeddings"]
    assert [r["executionStatus"] for r in embedding_runs] == ["success", "error"]


async def test_another_dimension_is_refused_before_writing(monkeypatch: Any) -> None:
    stores = InMemoryStores()
    monkeypatch.setattr(VectorStoreInMemory, "stores", stores)
    with EmbeddingEndpoint([vectors(4)]) as server:
        assert (await run(server, insert_workflow(["cats purr"], "kb")))["status"] == "success"
    with EmbeddingEndpoint([vectors(8)]) as server:
        result = await run(server, insert_workflow(["dogs bark", "birds sing"], "kb"))
    assert result["status"] == "error"
    assert error_of(result)["message"] == (
        "The new embeddings have 8 dimensions, but the vector store 'kb' holds vectors of 4"
    )
    assert [d.page_content for d in stores.get("kb").documents] == ["cats purr"]
    with EmbeddingEndpoint([vectors(8)]) as server:  # clearing the store first lets another model in
        assert (await run(server, insert_workflow(["dogs bark"], "kb", clear=True)))["status"] == "success"
    assert [d.page_content for d in stores.get("kb").documents] == ["dogs bark"]


async def test_an_unreachable_endpoint_is_a_clear_error(monkeypatch: Any) -> None:
    monkeypatch.setattr(VectorStoreInMemory, "stores", InMemoryStores())
    # connection failures are retried six times with back-off, as LangChain does; not in this test
    monkeypatch.setattr(
        node_module, "OpenAIEmbeddingSettings", functools.partial(OpenAIEmbeddingSettings, retry=NO_RETRIES)
    )
    with EmbeddingEndpoint([vectors(4)]) as server:
        url = server.base_url
    services = LocalServices(credentials={"Embeddings": {"apiKey": "sk-test", "url": url}})
    result = dict(await run_workflow(insert_workflow(["cats"], "kb"), registry=default_registry(), services=services))
    assert result["status"] == "error"
    assert error_of(result)["message"].startswith(f"Could not connect to OpenAI at {url!r}")
