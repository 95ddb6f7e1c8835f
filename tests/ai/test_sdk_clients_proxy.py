"""Every AI provider client sends through the kit's HTTP settings (:mod:`weft.ai.models.http_client`), as the chat
models' ``openai`` SDK does (``test_model_client_proxy.py``): the environment's proxy (``HTTPS_PROXY``,
``NO_PROXY``) and the extra CAs of ``WEFT_EXTRA_CA_CERTS``. The fake SaaS server plays a company's TLS-inspecting
proxy: it answers ``CONNECT host:443`` with a certificate of its own CA, which only ``WEFT_EXTRA_CA_CERTS`` makes
trusted. Before the fix, the Anthropic SDK, the OpenAI embeddings' SDK and the Ollama adapters built their own
clients: each of these calls was a connection error (no proxy CA), or went around the proxy."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx2
import pytest

from weft.ai.errors import ChatModelError
from weft.ai.messages import HumanMessage
from weft.ai.models.anthropic import AnthropicChatModel, AnthropicSettings
from weft.ai.models.base import RetryPolicy
from weft.ai.models.http_client import ai_http_client, ai_httpx2_client
from weft.ai.models.ollama import OllamaChatModel
from weft.ai.retrieval.embeddings import (
    OllamaEmbeddings,
    OllamaEmbeddingSettings,
    OpenAIEmbeddings,
    OpenAIEmbeddingSettings,
)
from weft.testing.fake_api import ApiReply, ApiRequest
from weft.testing.oracle_openai import embed
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import ollama as ollama_fake

OLLAMA_URL = f"https://{ollama_fake.HOST}"
_NO_RETRY = RetryPolicy(max_retries=0)


def _anthropic_message(request: ApiRequest) -> ApiReply:
    keys = {request.headers.get("x-api-key"), request.headers.get("authorization", "").removeprefix("Bearer ")}
    if "sk-ant-test" not in keys:
        body = {"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}
        return ApiReply(status=401, body=body)
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": request.body["model"],
               "content": [{"type": "text", "text": "Hello from Claude"}], "stop_reason": "end_turn",
               "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 4}}  # fmt: skip
    return ApiReply(body=message)


def _openai_embeddings(request: ApiRequest) -> ApiReply:
    texts = request.body["input"]
    data = [{"object": "embedding", "index": i, "embedding": embed(t)} for i, t in enumerate(texts)]
    return ApiReply(body={"object": "list", "data": data, "model": request.body["model"], "usage": {}})


@pytest.fixture
def proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["ollama"]) as server:
        server.route("POST", r"/v1/messages", _anthropic_message, host="api.anthropic.com")
        server.route("POST", r"/v1/embeddings", _openai_embeddings, host="api.openai.com")
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        for name in ("http_proxy", "https_proxy", "no_proxy", "all_proxy", "ALL_PROXY"):
            monkeypatch.delenv(name, raising=False)
        yield server


async def _anthropic() -> Any:
    model = AnthropicChatModel(AnthropicSettings(model="claude-test", api_key="sk-ant-test"))
    return (await model.generate([HumanMessage(content="Hi")], [])).message.content


async def _openai_embed() -> Any:
    settings = OpenAIEmbeddingSettings(api_key="sk-test", encoding_format="float", retry=_NO_RETRY)
    return await OpenAIEmbeddings(settings).embed_documents(["purring cats"])


async def _ollama_embed() -> Any:
    settings = OllamaEmbeddingSettings(model="nomic-embed-text", base_url=OLLAMA_URL, retry=_NO_RETRY)
    return await OllamaEmbeddings(settings).embed_documents(["purring cats"])


async def _ollama_chat() -> Any:
    model = OllamaChatModel("llama3.2", base_url=OLLAMA_URL, retry=_NO_RETRY)
    return (await model.generate([HumanMessage(content="Hello")], [])).message.content


Call = Callable[[], Awaitable[Any]]
#: Each client: how to call it, the host and path it must reach, what it answers through the proxy.
CLIENTS: dict[str, tuple[Call, str, str, Any]] = {
    "anthropic": (_anthropic, "api.anthropic.com", "/v1/messages", "Hello from Claude"),
    "openai-embeddings": (_openai_embed, "api.openai.com", "/v1/embeddings", [embed("purring cats")]),
    "ollama-embeddings": (_ollama_embed, ollama_fake.HOST, "/api/embed", [embed("purring cats")]),
    "ollama-chat": (_ollama_chat, ollama_fake.HOST, "/v1/chat/completions", "Echo: Hello"),
}
NAMES = sorted(CLIENTS)


@pytest.mark.parametrize("name", NAMES)
async def test_the_client_goes_through_the_proxy_trusting_the_extra_ca(proxy: FakeSaasServer, name: str) -> None:
    call, host, path, answer = CLIENTS[name]
    assert await call() == answer
    (request,) = proxy.requests
    assert (request.host, request.path) == (host, path)


@pytest.mark.parametrize("name", NAMES)
async def test_without_the_extra_ca_the_proxys_certificate_is_refused(
    proxy: FakeSaasServer, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.delenv("WEFT_EXTRA_CA_CERTS")
    with pytest.raises(ChatModelError):
        await CLIENTS[name][0]()
    assert proxy.requests == []  # the tunnel was opened, the TLS handshake refused: no request reached the API


@pytest.mark.parametrize("name", NAMES)
async def test_no_proxy_sends_directly(proxy: FakeSaasServer, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    host = CLIENTS[name][1]
    monkeypatch.setenv("NO_PROXY", "." + host.split(".", 1)[1])
    with pytest.raises(ChatModelError):  # no network here: a direct connection to the host fails
        await CLIENTS[name][0]()
    assert proxy.requests == []


async def test_the_httpx2_client_reads_the_proxy_when_each_request_is_sent(
    proxy: FakeSaasServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The MCP client's ``httpx2`` flavour: the same rules, read per request (not when the client is built)."""
    async with ai_httpx2_client(10.0) as client:
        answer = await client.get(f"{OLLAMA_URL}/api/tags")
        assert [m["name"] for m in answer.json()["models"]] == list(ollama_fake.MODELS)
        monkeypatch.setenv("NO_PROXY", f"127.0.0.1,{ollama_fake.HOST}")
        with pytest.raises(httpx2.ConnectError):  # no network here: the direct connection fails
            await client.get(f"{OLLAMA_URL}/api/tags")
    assert len(proxy.requests) == 1


async def test_neither_flavour_reads_netrc(
    proxy: FakeSaasServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    netrc = tmp_path / ".netrc"
    netrc.write_text(f"machine {ollama_fake.HOST} login someone password secret\n")
    monkeypatch.setenv("NETRC", str(netrc))
    async with ai_http_client(10.0) as one, ai_httpx2_client(10.0) as two:
        await one.get(f"{OLLAMA_URL}/api/tags")
        await two.get(f"{OLLAMA_URL}/api/tags")
    assert [r.headers.get("authorization") for r in proxy.requests] == [None, None]
