"""Ollama embeddings against the fake Ollama server (:mod:`weft.testing.saas.ollama`, its plain port): the request
LangChain's ``OllamaEmbeddings`` sends (n8n's node), the API key only when set, and failures worded as the
``ollama`` library words them, which n8n shows as they are (recorded: s953-s955)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from weft.ai.errors import ChatModelAuthError, ChatModelBadRequestError, ChatModelServerError
from weft.ai.models.base import NO_RETRIES
from weft.ai.models.sdk_errors import ollama_response_error
from weft.ai.retrieval.embeddings import OllamaEmbeddings, OllamaEmbeddingSettings
from weft.testing.oracle_openai import embed
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import ollama as ollama_fake


@pytest.fixture
def server() -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["ollama"]) as fake:
        yield fake


def model(
    server: FakeSaasServer, name: str = "nomic-embed-text", path: str = "/ollama", key: str = ""
) -> OllamaEmbeddings:
    base = f"{server.url}{path}"
    return OllamaEmbeddings(OllamaEmbeddingSettings(model=name, base_url=base, api_key=key, retry=NO_RETRIES))


async def test_every_text_in_one_request_without_a_key(server: FakeSaasServer) -> None:
    texts = ["Cats purr.", "Rockets launch\nsatellites."]
    assert await model(server).embed_documents(texts) == [embed(t) for t in texts]
    assert await model(server).embed_query("Which pets purr?") == embed("Which pets purr?")
    first, second = server.requests
    assert (first.path, first.body) == (
        "/ollama/api/embed",
        {"model": "nomic-embed-text", "input": texts, "truncate": False},
    )
    assert second.body["input"] == ["Which pets purr?"]
    assert "authorization" not in first.headers


async def test_the_api_key_is_sent_as_a_bearer_token(server: FakeSaasServer) -> None:
    vectors = await model(server, path="/ollama-webui/", key=ollama_fake.KEY).embed_documents(["a cat"])
    assert vectors == [embed("a cat")]
    assert server.requests[0].headers["authorization"] == f"Bearer {ollama_fake.KEY}"


async def test_a_model_not_pulled_is_ollamas_own_message(server: FakeSaasServer) -> None:
    with pytest.raises(ChatModelBadRequestError) as caught:
        await model(server, name="missing-embed").embed_documents(["a cat"])
    assert caught.value.message == 'model "missing-embed" not found, try pulling it first'
    assert "ollama pull" in str(caught.value.description)
    assert len(server.requests) == 1  # a 404 is not retried


async def test_a_key_the_reverse_proxy_refuses(server: FakeSaasServer) -> None:
    with pytest.raises(ChatModelAuthError) as caught:
        await model(server, path="/ollama-webui", key="wrong").embed_query("a cat")
    assert caught.value.message == "unauthorized"


def test_answers_without_a_json_error_are_worded_as_the_library_words_them() -> None:
    assert ollama_response_error(502, "text/html", "<h1>Bad gateway</h1>", {}).message == "<h1>Bad gateway</h1>"
    assert ollama_response_error(500, "application/json", "{}", {}).message == "Error 500: Internal Server Error"
    assert isinstance(ollama_response_error(503, None, "", {}), ChatModelServerError)
