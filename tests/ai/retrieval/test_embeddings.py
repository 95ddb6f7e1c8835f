"""The embedding adapters over real HTTP (the official ``openai`` SDK; httpx for Ollama) on 127.0.0.1."""

from __future__ import annotations

import pytest

from weft.ai.errors import ChatModelAuthError, ChatModelBadRequestError
from weft.ai.models.base import NO_RETRIES
from weft.ai.retrieval.embeddings import (
    OllamaEmbeddings,
    OllamaEmbeddingSettings,
    OpenAIEmbeddings,
    OpenAIEmbeddingSettings,
)
from weft.ai.retrieval.errors import EmbeddingResponseError
from weft.testing import OracleOpenAIServer
from weft.testing.oracle_openai import embed

from .conftest import EmbeddingEndpoint, failing, ollama_vectors, vectors


def settings(base_url: str, **kwargs: object) -> OpenAIEmbeddingSettings:
    return OpenAIEmbeddingSettings(api_key="sk-test", base_url=base_url, retry=NO_RETRIES, **kwargs)  # type: ignore[arg-type]


async def test_batches_and_base64_as_n8n_sends_them() -> None:
    with OracleOpenAIServer([]) as server:
        model = OpenAIEmbeddings(settings(server.base_url, batch_size=2))
        got = await model.embed_documents(["cats\npurr", "dogs bark", "birds sing"])
        query = await model.embed_query("cats purr")
        requests = [entry["request"] for entry in server.log]
    assert got == [embed("cats purr"), embed("dogs bark"), embed("birds sing")]
    assert query == embed("cats purr")
    batches = sorted(r["input"] for r in requests[:2])  # the two batches are sent concurrently: either may come first
    assert batches == [["birds sing"], ["cats purr", "dogs bark"]] and requests[2]["input"] == "cats purr"
    assert all(r["encoding_format"] == "base64" and r["model"] == "text-embedding-3-small" for r in requests)


async def test_options_reach_the_request() -> None:
    with OracleOpenAIServer([]) as server:
        model = OpenAIEmbeddings(
            settings(server.base_url, strip_new_lines=False, dimensions=256, encoding_format="float")
        )
        await model.embed_documents(["a\nb"])
        (entry,) = server.log
    assert entry["request"] == {
        "model": "text-embedding-3-small",
        "input": ["a\nb"],
        "dimensions": 256,
        "encoding_format": "float",
    }


async def test_a_rejected_key_is_an_auth_error() -> None:
    with EmbeddingEndpoint([failing(401, "Incorrect API key provided")]) as server:
        with pytest.raises(ChatModelAuthError, match="Authorization failed - please check your credentials"):
            await OpenAIEmbeddings(settings(server.base_url)).embed_query("x")


async def test_a_document_too_large_names_the_limit() -> None:
    message = "This model's maximum context length is 8192 tokens, however you requested 9000 tokens"
    with EmbeddingEndpoint([failing(400, message)]) as server:
        with pytest.raises(ChatModelBadRequestError, match="maximum context length is 8192 tokens"):
            await OpenAIEmbeddings(settings(server.base_url)).embed_documents(["x" * 40000])


async def test_wrong_shapes_are_refused() -> None:
    def too_few(body: dict[str, object]) -> object:
        from weft.testing._fake_http import Reply

        return Reply(body={"object": "list", "data": [{"index": 0, "embedding": [1.0]}], "model": "m"})

    with EmbeddingEndpoint([too_few]) as server:  # type: ignore[list-item]
        with pytest.raises(EmbeddingResponseError, match="answered 1 vectors for 2 texts"):
            await OpenAIEmbeddings(settings(server.base_url, encoding_format="float")).embed_documents(["a", "b"])
    with EmbeddingEndpoint([vectors(3), vectors(4)]) as server:
        with pytest.raises(EmbeddingResponseError, match="different lengths"):
            model = OpenAIEmbeddings(settings(server.base_url, batch_size=1, encoding_format="float"))
            await model.embed_documents(["a", "b"])


async def test_ollama_embeds_every_text_at_once() -> None:
    with EmbeddingEndpoint([ollama_vectors(3)]) as server:
        model = OllamaEmbeddings(
            OllamaEmbeddingSettings(model="nomic-embed-text", base_url=server.root_url, retry=NO_RETRIES)
        )
        assert await model.embed_documents(["a", "b"]) == [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]
        assert await model.embed_query("c") == [1.0, 1.0, 1.0]
        assert server.bodies[0] == {"model": "nomic-embed-text", "input": ["a", "b"], "truncate": False}
        assert server.requests[0].path == "/api/embed"
