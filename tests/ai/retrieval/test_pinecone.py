"""The Pinecone Vector Store node against the fake Pinecone of ``weft.testing.saas.pinecone``, reached through the
fake as HTTPS proxy: the SDK's requests, namespaces, Clear Namespace, filters, scores, and n8n's errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from weft.ai.nodes.retrieval.vector_store_pinecone import pinecone_metadata
from weft.ai.retrieval.documents import Document
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.pinecone import DATA_HOST, KEY
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
CRED = {"pineconeApi": {"id": "p", "name": "P"}}
INDEX = {"__rl": True, "mode": "list", "value": "weft-docs"}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["pinecone"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def run(nodes: list[dict[str, Any]], links: list[Any], key: str = KEY) -> dict[str, Any]:
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Embeddings", "weft.embeddingsDemo", {"dimensions": 16}),
        *nodes,
        *links,
    )
    services = LocalServices(credentials={"P": {"apiKey": key}})
    return dict(await run_workflow(wf, registry=default_registry(), services=services))


def out(result: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [i["json"] for i in result["data"]["resultData"]["runData"][name][0]["data"]["main"][0]]


def load(parameters: dict[str, Any]) -> dict[str, Any]:
    base = {"mode": "load", "pineconeIndex": INDEX, "prompt": "dogs bark", "topK": 2}
    return node("Load", LC + "vectorStorePinecone", {**base, **parameters}, version=1.3, credentials=CRED)


async def test_load_queries_the_index_host_with_the_api_key(fake: FakeSaasServer) -> None:
    result = await run([load({})], [connect("Start", "Load"), connect("Embeddings", "Load", type_="ai_embedding")])
    assert result["status"] == "success", result["data"]["resultData"].get("error")
    hits = out(result, "Load")
    scores = [h["score"] for h in hits]  # a match scored 0 is dropped, as LangChain does
    assert 1 <= len(hits) <= 2 and all(s > 0 for s in scores) and scores == sorted(scores, reverse=True)
    assert "text" not in hits[0]["document"]["metadata"]
    describe, query = fake.requests
    assert (describe.host, describe.path) == ("api.pinecone.io", "/indexes/weft-docs")
    assert query.host == DATA_HOST and query.path == "/query" and query.headers["api-key"] == KEY
    assert query.body["topK"] == 2 and query.body["includeMetadata"] is True and query.body["namespace"] == ""


async def test_a_metadata_filter_and_a_namespace_reach_the_query(fake: FakeSaasServer) -> None:
    options = {"pineconeNamespace": "", "metadata": {"metadataValues": [{"name": "animal", "value": "cat"}]}}
    result = await run(
        [load({"options": options, "topK": 3})],
        [connect("Start", "Load"), connect("Embeddings", "Load", type_="ai_embedding")],
    )
    hits = out(result, "Load")
    assert [h["document"]["metadata"]["animal"] for h in hits] == ["cat"]
    assert fake.requests[-1].body["filter"] == {"animal": "cat"}


async def test_insert_clears_its_namespace_then_load_finds_the_documents(fake: FakeSaasServer) -> None:
    texts = ["dogs purr", "dogs bark loudly", "dogs swim"]
    items = ", ".join(f"{{json: {{text: {t!r}}}}}" for t in texts)
    options = {"pineconeNamespace": "t-insert", "clearNamespace": True}
    insert = {"mode": "insert", "pineconeIndex": INDEX, "options": options}
    nodes = [
        node("Data", "n8n-nodes-base.code", {"jsCode": f"return [{items}];"}, version=2),
        node("Insert", LC + "vectorStorePinecone", insert, version=1.3, credentials=CRED),
        node("Loader", LC + "documentDefaultDataLoader", {"options": {}}, version=1.1),
        node("One", "n8n-nodes-base.limit", {"maxItems": 1}, version=1),
        load({"options": {"pineconeNamespace": "t-insert"}, "topK": 5}),
    ]
    links = [
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Insert", "One"),
        connect("One", "Load"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Embeddings", "Load", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    ]
    for _ in range(2):  # cleared first: a second run finds the same three documents
        result = await run(nodes, links)
        assert result["status"] == "success", result["data"]["resultData"].get("error")
        assert sorted(h["document"]["pageContent"] for h in out(result, "Load")) == sorted(texts)
    paths = [(r.host, r.path) for r in fake.requests]
    assert ("api.pinecone.io", "/indexes") in paths and (DATA_HOST, "/vectors/delete") in paths
    upsert = next(r for r in fake.requests if r.path == "/vectors/upsert")
    assert upsert.body["namespace"] == "t-insert" and len(upsert.body["vectors"]) == 3
    assert upsert.body["vectors"][0]["metadata"]["text"] == "dogs purr"


async def test_an_unknown_index_on_insert_is_n8ns_error(fake: FakeSaasServer) -> None:
    insert = {"mode": "insert", "pineconeIndex": {"__rl": True, "mode": "id", "value": "nope"}, "options": {}}
    nodes = [
        node("Data", "n8n-nodes-base.code", {"jsCode": "return [{json: {text: 'a dog'}}];"}, version=2),
        node("Insert", LC + "vectorStorePinecone", insert, version=1.3, credentials=CRED),
        node("Loader", LC + "documentDefaultDataLoader", {"options": {}}, version=1.1),
    ]
    links = [
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    ]
    error = (await run(nodes, links))["data"]["resultData"]["error"]
    assert error["message"] == "Index nope not found" and error["node"]["name"] == "Insert"
    assert [r.path for r in fake.requests] == ["/indexes"]  # nothing written


async def test_a_wrong_key_is_an_api_error(fake: FakeSaasServer) -> None:
    links = [connect("Start", "Load"), connect("Embeddings", "Load", type_="ai_embedding")]
    error = (await run([load({})], links, key="wrong"))["data"]["resultData"]["error"]
    assert error["node"]["name"] == "Load"
    assert error["message"].startswith(
        "The API key you provided was rejected while calling https://api.pinecone.io/indexes/weft-docs."
    )


def test_metadata_is_flattened_as_langchain_does() -> None:
    document = Document(page_content="x", metadata={"a": {"b": 1}, "tags": ["t", "u"], "n": None, "e": {}})
    assert pinecone_metadata(document) == {"a.b": 1, "tags": ["t", "u"], "text": "x"}


async def test_update_upserts_one_document_under_the_items_id(fake: FakeSaasServer) -> None:
    params = {"mode": "update", "pineconeIndex": INDEX, "id": "t-doc", "options": {"pineconeNamespace": "t-update"}}
    nodes = [
        node("Data", "n8n-nodes-base.code", {"jsCode": "return [{json: {text: 'dogs bark'}}];"}, version=2),
        node("Update", LC + "vectorStorePinecone", params, version=1.3, credentials=CRED),
    ]
    links = [connect("Start", "Data"), connect("Data", "Update"), connect("Embeddings", "Update", type_="ai_embedding")]
    result = await run(nodes, links)
    assert result["status"] == "success", result["data"]["resultData"].get("error")
    assert [d["pageContent"] for d in out(result, "Update")] == ["dogs bark"]
    upsert = fake.requests[-1]
    assert upsert.path == "/vectors/upsert" and [v["id"] for v in upsert.body["vectors"]] == ["t-doc"]


async def test_update_refuses_an_item_that_makes_two_documents(fake: FakeSaasServer) -> None:
    params = {"mode": "update", "pineconeIndex": INDEX, "id": "t-doc", "options": {}}
    nodes = [
        node("Data", "n8n-nodes-base.code", {"jsCode": "return [{json: {a: 'one', b: 'two'}}];"}, version=2),
        node("Update", LC + "vectorStorePinecone", params, version=1.3, credentials=CRED),
    ]
    links = [connect("Start", "Data"), connect("Data", "Update"), connect("Embeddings", "Update", type_="ai_embedding")]
    error = (await run(nodes, links))["data"]["resultData"]["error"]
    assert error["message"] == "Single document per item expected" and error["node"]["name"] == "Update"
    assert not [r for r in fake.requests if r.path == "/vectors/upsert"]
