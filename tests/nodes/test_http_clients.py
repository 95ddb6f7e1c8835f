"""The kit's HTTP clients: the environment's proxies as n8n reads them (``proxy-from-env``), extra CA certificates,
and a node with a fixed API host reaching a local fake through the proxy with its certificate checked."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from weft.nodes.http.clients import Clients, new_client, proxy_for
from weft.testing.fake_api import ApiReply, FakeApiServer
from weft.testing.tls import CertAuthority

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "npm_config_proxy", "npm_config_no_proxy")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.delenv("WEFT_EXTRA_CA_CERTS", raising=False)


@pytest.mark.parametrize(
    ("env", "url", "expected"),
    [
        ({}, "https://api.example.com/x", None),
        ({"HTTPS_PROXY": "http://proxy:3128"}, "https://api.example.com/x", "http://proxy:3128"),
        ({"HTTPS_PROXY": "http://proxy:3128"}, "http://api.example.com/x", None),
        ({"HTTP_PROXY": "proxy:3128"}, "http://api.example.com/x", "http://proxy:3128"),
        ({"https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"}, "https://a.example/", "http://lower:1"),
        ({"ALL_PROXY": "http://all:1"}, "https://a.example/", "http://all:1"),
        ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "*"}, "https://a.example/", None),
        ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "a.example"}, "https://a.example/", None),
        ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "a.example"}, "https://sub.a.example/", "http://p:1"),
        ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": ".a.example"}, "https://sub.a.example/", None),
        ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "*.a.example"}, "https://sub.a.example/", None),
        ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "a.example:8443"}, "https://a.example/", "http://p:1"),
        ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "a.example:443"}, "https://a.example/", None),
        ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "x.example, 127.0.0.1"}, "https://127.0.0.1:9/", None),
    ],
)
def test_proxy_for_reads_the_environment_as_n8n(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], url: str, expected: str | None
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert proxy_for(url) == expected


@pytest.fixture
def fake_service() -> Iterator[FakeApiServer]:
    authority = CertAuthority()
    with FakeApiServer(0, authority) as server:
        server.route("GET", r"/v1/things/(?P<id>\w+)", lambda r: ApiReply(body={"id": r.params["id"], "host": r.host}),
                     host="api.weft.example")  # fmt: skip
        yield server


async def test_fixed_host_reached_through_the_environment_proxy_with_extra_ca(
    monkeypatch: pytest.MonkeyPatch, fake_service: FakeApiServer
) -> None:
    assert fake_service.authority is not None
    monkeypatch.setenv("HTTPS_PROXY", fake_service.url)
    monkeypatch.setenv("WEFT_EXTRA_CA_CERTS", str(fake_service.authority.ca_file))
    async with Clients() as clients:
        answer = await clients.get().get("https://api.weft.example/v1/things/abc")
    assert answer.json() == {"id": "abc", "host": "api.weft.example"}
    sent = [(r.method, r.host, r.path) for r in fake_service.requests]
    assert sent == [("GET", "api.weft.example", "/v1/things/abc")]


async def test_certificate_of_an_untrusted_ca_is_refused(
    monkeypatch: pytest.MonkeyPatch, fake_service: FakeApiServer
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", fake_service.url)  # no WEFT_EXTRA_CA_CERTS: the test CA is not trusted
    async with new_client() as client:
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            await client.get("https://api.weft.example/v1/things/abc")
    assert fake_service.requests == []


async def test_no_proxy_sends_directly(monkeypatch: pytest.MonkeyPatch, fake_service: FakeApiServer) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    fake_service.route("GET", "/direct", lambda r: ApiReply(body={"direct": True}))
    async with new_client() as client:
        answer = await client.get(f"{fake_service.url}/direct")
    assert answer.json() == {"direct": True}


async def test_a_node_proxy_option_wins_over_the_environment(
    monkeypatch: pytest.MonkeyPatch, fake_service: FakeApiServer
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    async with Clients() as clients:
        answer = await clients.get(True, fake_service.url).get("http://api.weft.example/v1/things/x")
    assert answer.json() == {"id": "x", "host": "api.weft.example"}
