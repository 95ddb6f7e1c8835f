"""The Supabase Vector Store node against the fake of ``weft.testing.saas.supabase_vectors`` (through the fake as
HTTPS proxy): PostgREST upserts, the ``match_documents`` RPC with its filter, similarities, and n8n's errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.supabase import HOST, KEY
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
CRED = {"supabaseApi": {"id": "s", "name": "S"}}
TABLE = {"__rl": True, "mode": "list", "value": "documents"}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["supabase", "supabase_vectors"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def run(nodes: list[dict[str, Any]], links: list[Any]) -> dict[str, Any]:
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Embeddings", "weft.embeddingsDemo", {"dimensions": 16}),
        *nodes,
        *links,
    )
    services = LocalServices(credentials={"S": {"host": f"https://{HOST}", "serviceRole": KEY}})
    return dict(await run_workflow(wf, registry=default_registry(), services=services))


def out(result: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [i["json"] for i in result["data"]["resultData"]["runData"][name][0]["data"]["main"][0]]


def load(parameters: dict[str, Any]) -> dict[str, Any]:
    base = {"mode": "load", "tableName": TABLE, "prompt": "dogs bark", "topK": 2}
    return node("Load", LC + "vectorStoreSupabase", {**base, **parameters}, version=1.3, credentials=CRED)


LOAD_LINKS = [connect("Start", "Load"), connect("Embeddings", "Load", type_="ai_embedding")]


async def test_load_calls_match_documents_with_the_key(fake: FakeSaasServer) -> None:
    result = await run([load({})], LOAD_LINKS)
    assert result["status"] == "success", result["data"]["resultData"].get("error")
    hits = out(result, "Load")
    assert len(hits) == 2 and hits[0]["score"] >= hits[1]["score"]
    assert set(hits[0]["document"]) == {"pageContent", "metadata"}
    (request,) = fake.requests
    assert (request.host, request.path) == (HOST, "/rest/v1/rpc/match_documents")
    assert request.headers["apikey"] == KEY and request.headers["authorization"] == f"Bearer {KEY}"
    assert (
        request.body["match_count"] == 2 and request.body["filter"] == {} and len(request.body["query_embedding"]) == 16
    )


async def test_the_metadata_filter_goes_to_the_function(fake: FakeSaasServer) -> None:
    options = {"metadata": {"metadataValues": [{"name": "animal", "value": "bird"}]}}
    hits = out(await run([load({"options": options})], LOAD_LINKS), "Load")
    assert [h["document"]["metadata"]["animal"] for h in hits] == ["bird"]
    assert fake.requests[0].body["filter"] == {"animal": "bird"}


async def test_an_unknown_query_name_is_langchains_search_error(fake: FakeSaasServer) -> None:
    error = (await run([load({"options": {"queryName": "nope"}})], LOAD_LINKS))["data"]["resultData"]["error"]
    assert error["message"].startswith("Error searching for documents: PGRST202 Could not find the function")
    assert error["node"]["name"] == "Load"


async def test_insert_upserts_rows_and_outputs_the_documents(fake: FakeSaasServer) -> None:
    nodes = [
        node(
            "Data",
            "n8n-nodes-base.code",
            {"jsCode": "return [{json: {text: 'dogs bark'}}, {json: {text: 'cats purr'}}];"},
            version=2,
        ),
        node(
            "Insert", LC + "vectorStoreSupabase", {"mode": "insert", "tableName": TABLE}, version=1.3, credentials=CRED
        ),
        node("Loader", LC + "documentDefaultDataLoader", {"options": {}}, version=1.1),
    ]
    links = [
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    ]
    result = await run(nodes, links)
    assert result["status"] == "success", result["data"]["resultData"].get("error")
    assert len(out(result, "Insert")) == 2
    (request,) = fake.requests
    assert request.path == "/rest/v1/documents" and request.query == {"select": "*"}
    assert "return=representation" in request.headers["prefer"]
    assert [sorted(row) for row in request.body] == [["content", "embedding", "metadata"]] * 2


async def test_an_unknown_table_on_insert_is_n8ns_error(fake: FakeSaasServer) -> None:
    table = {"__rl": True, "mode": "id", "value": "missing"}
    nodes = [
        node("Data", "n8n-nodes-base.code", {"jsCode": "return [{json: {text: 'dogs'}}];"}, version=2),
        node(
            "Insert", LC + "vectorStoreSupabase", {"mode": "insert", "tableName": table}, version=1.3, credentials=CRED
        ),
        node("Loader", LC + "documentDefaultDataLoader", {"options": {}}, version=1.1),
    ]
    links = [
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    ]
    error = (await run(nodes, links))["data"]["resultData"]["error"]
    assert error["node"]["name"] == "Insert"
    assert error["message"].startswith("Error inserting: ") and error["message"].endswith(" 404 Not Found")


async def test_update_upserts_the_row_with_the_items_id(fake: FakeSaasServer) -> None:
    params = {"mode": "update", "tableName": TABLE, "id": "3", "options": {}}
    nodes = [
        node("Data", "n8n-nodes-base.code", {"jsCode": "return [{json: {text: 'parrots talk'}}];"}, version=2),
        node("Update", LC + "vectorStoreSupabase", params, version=1.3, credentials=CRED),
    ]
    links = [connect("Start", "Data"), connect("Data", "Update"), connect("Embeddings", "Update", type_="ai_embedding")]
    result = await run(nodes, links)
    assert result["status"] == "success", result["data"]["resultData"].get("error")
    assert [d["pageContent"] for d in out(result, "Update")] == ["parrots talk"]
    (request,) = fake.requests
    assert request.path == "/rest/v1/documents" and request.body[0]["id"] == "3"
