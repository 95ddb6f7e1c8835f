"""Embeddings Google Gemini and Embeddings Mistral Cloud feeding the Simple Vector Store, against the fakes of
``weft.testing.saas`` reached through the fake as HTTPS proxy: request shapes, the key, API errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.oracle_openai import embed
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import gemini as gemini_fake
from weft.testing.saas import mistral as mistral_fake
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
TEXTS = ["cats purr\nsoftly", "dogs bark loudly"]
GEMINI = {"host": "https://generativelanguage.googleapis.com", "apiKey": gemini_fake.KEY}
MISTRAL = {"apiKey": mistral_fake.KEY}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["gemini", "mistral"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def insert(embeddings: dict[str, Any], credential: dict[str, Any]) -> dict[str, Any]:
    items = ", ".join(f"{{json: {{text: {t!r}}}}}" for t in TEXTS)
    store = {"mode": "insert", "memoryKey": {"__rl": True, "mode": "id", "value": "gm"}, "clearStore": True}
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Data", "n8n-nodes-base.code", {"jsCode": f"return [{items}];"}, version=2),
        node("Insert", LC + "vectorStoreInMemory", store, version=1.3),
        embeddings,
        node("Loader", LC + "documentDefaultDataLoader", {"options": {}}, version=1.1),
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    )
    services = LocalServices(credentials={"E": credential})
    return dict(await run_workflow(wf, registry=default_registry(), services=services))


def gemini(model: str = "models/text-embedding-004") -> dict[str, Any]:
    cred = {"googlePalmApi": {"id": "g", "name": "E"}}
    return node("Embeddings", LC + "embeddingsGoogleGemini", {"modelName": model}, version=1, credentials=cred)


def mistral(options: dict[str, Any] | None = None) -> dict[str, Any]:
    cred = {"mistralCloudApi": {"id": "m", "name": "E"}}
    parameters = {"model": "mistral-embed", "options": options or {}}
    return node("Embeddings", LC + "embeddingsMistralCloud", parameters, version=1, credentials=cred)


def inserted(result: dict[str, Any]) -> int:
    assert result["status"] == "success", result["data"]["resultData"].get("error")
    run_ = result["data"]["resultData"]["runData"]["Insert"][0]["data"]["main"][0]
    return len(run_)


async def test_gemini_embeds_the_documents_in_one_batch_with_the_key_header(fake: FakeSaasServer) -> None:
    assert inserted(await insert(gemini(), GEMINI)) == len(TEXTS)
    (request,) = fake.requests
    assert request.host == gemini_fake.HOST
    assert request.path == "/v1beta/models/text-embedding-004:batchEmbedContents"
    assert request.headers["x-goog-api-key"] == gemini_fake.KEY
    model = "models/text-embedding-004"
    assert request.body == {
        "requests": [
            {"content": {"role": "user", "parts": [{"text": "cats purr softly"}]}, "model": model},
            {"content": {"role": "user", "parts": [{"text": "dogs bark loudly"}]}, "model": model},
        ]
    }


async def test_a_gemini_model_without_its_prefix_gets_it(fake: FakeSaasServer) -> None:
    inserted(await insert(gemini("gemini-embedding-001"), GEMINI))
    assert fake.requests[0].path == "/v1beta/models/gemini-embedding-001:batchEmbedContents"


async def test_a_wrong_gemini_key_is_a_node_error_naming_the_node(fake: FakeSaasServer) -> None:
    result = await insert(gemini(), {**GEMINI, "apiKey": "wrong"})
    error = result["data"]["resultData"]["error"]
    assert error["node"]["name"] in {"Embeddings", "Insert"}
    assert "API key not valid" in str(error) and "400" in str(error)
    assert len(fake.requests) == 1  # a 400 is not retried


async def test_mistral_embeds_openai_style_with_the_bearer_key(fake: FakeSaasServer) -> None:
    assert inserted(await insert(mistral(), MISTRAL)) == len(TEXTS)
    (request,) = fake.requests
    assert (request.host, request.path) == (mistral_fake.HOST, "/v1/embeddings")
    assert request.headers["authorization"] == f"Bearer {mistral_fake.KEY}"
    assert request.body == {"model": "mistral-embed", "input": ["cats purr softly", "dogs bark loudly"]}


async def test_mistral_batch_size_and_new_lines_options(fake: FakeSaasServer) -> None:
    inserted(await insert(mistral({"batchSize": 1, "stripNewLines": False}), MISTRAL))
    assert sorted(r.body["input"][0] for r in fake.requests) == sorted(TEXTS)
    assert all(len(r.body["input"]) == 1 for r in fake.requests)


async def test_a_wrong_mistral_key_is_a_node_error_naming_the_node(fake: FakeSaasServer) -> None:
    result = await insert(mistral(), {"apiKey": "wrong"})
    error = result["data"]["resultData"]["error"]
    assert error["node"]["name"] in {"Embeddings", "Insert"}
    assert "Mistral Cloud" in str(error) and "401" in str(error)
    assert len(fake.requests) == 1


def test_the_fake_vectors_are_the_oracles() -> None:
    assert len(embed("cats purr")) == 16
