"""The chat models' ``openai`` SDK clients send through the kit's HTTP layer, as the HTTP Request node does: the
environment's proxy (``HTTPS_PROXY``, ``NO_PROXY``) and the extra CAs of ``WEFT_EXTRA_CA_CERTS``. The fake SaaS
server plays a company's TLS-inspecting proxy: it answers ``CONNECT api.groq.com:443`` with a certificate of its
own CA, which only ``WEFT_EXTRA_CA_CERTS`` makes trusted (the SDK's default client trusts certifi's bundle alone,
so before the fix every call was a connection error)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from weft.ai.errors import ChatModelError
from weft.ai.messages import HumanMessage
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import groq as groq_fake


@pytest.fixture
def proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["groq"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        for name in ("http_proxy", "https_proxy", "no_proxy", "all_proxy", "ALL_PROXY"):
            monkeypatch.delenv(name, raising=False)
        yield server


def groq(key: str = groq_fake.KEY) -> OpenAIChatModel:
    settings = OpenAISettings(model="llama-3.3-70b-versatile", api_key=key, base_url="https://api.groq.com/openai/v1")
    return OpenAIChatModel(settings)


async def test_the_sdk_goes_through_the_proxy_trusting_the_extra_ca(proxy: FakeSaasServer) -> None:
    response = await groq().generate([HumanMessage(content="Hello")], [])
    assert response.message.content == "Echo: Hello"
    (request,) = proxy.requests
    assert (request.host, request.path) == ("api.groq.com", "/openai/v1/chat/completions")


async def test_streaming_goes_through_the_proxy_too(proxy: FakeSaasServer) -> None:
    chunks: list[str] = []

    async def collect(text: str) -> None:
        chunks.append(text)

    response = await groq().generate([HumanMessage(content="Hi")], [], stream_callback=collect)
    assert "".join(chunks) == response.message.content == "Echo: Hi"


async def test_without_the_extra_ca_the_proxys_certificate_is_refused(
    proxy: FakeSaasServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEFT_EXTRA_CA_CERTS")
    with pytest.raises(ChatModelError):
        await groq().generate([HumanMessage(content="Hello")], [])
    assert proxy.requests == []  # the tunnel was opened, the TLS handshake refused: no request reached the API


async def test_no_proxy_sends_directly(proxy: FakeSaasServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", ".groq.com")
    with pytest.raises(ChatModelError):  # no network here: a direct connection to api.groq.com fails
        await groq().generate([HumanMessage(content="Hello")], [])
    assert proxy.requests == []


async def test_the_providers_error_body_comes_through_the_proxy(proxy: FakeSaasServer) -> None:
    with pytest.raises(ChatModelError) as caught:
        await groq("gsk-wrong").generate([HumanMessage(content="Hello")], [])
    assert "Authorization failed" in str(caught.value)
