"""A credential restricted to some domains never leaves them: not by the URL, not by a redirect (n8n 2's
``allowedHttpRequestDomains``), in the HTTP Request node."""

from __future__ import annotations

from typing import Any

import pytest
from tests.nodes.http_fixtures import http_server

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.credential_domains import is_domain_allowed
from weft.testing.workflows import connect, node, output_json, workflow

__all__ = ["http_server"]

SECRET = {"name": "X-Api-Key", "value": "s3cret"}


async def _call(url: str, credential: dict[str, Any], **options: Any) -> Any:
    params = {
        "url": url,
        "authentication": "genericCredentialType",
        "genericAuthType": "httpHeaderAuth",
        "options": options,
    }
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("HTTP", "n8n-nodes-base.httpRequest", params, version=4.2, position=(200, 0)),
        connect("Start", "HTTP"),
    )
    return await run_workflow(wf, services=LocalServices(credentials={"httpHeaderAuth": credential}))


def _error(run: Any) -> str:
    return str(run["data"]["resultData"]["error"]["message"])


async def test_an_allowed_domain_gets_the_secret(http_server: str) -> None:
    run = await _call(
        f"{http_server}/echo", {**SECRET, "allowedHttpRequestDomains": "domains", "allowedDomains": "127.0.0.1"}
    )
    assert output_json(run, "HTTP")[0]["headers"]["x-api-key"] == "s3cret"


async def test_another_domain_is_refused_before_anything_is_sent(http_server: str) -> None:
    credential = {**SECRET, "allowedHttpRequestDomains": "domains", "allowedDomains": "api.example.com, *.example.org"}
    run = await _call(f"{http_server}/echo?token=abc", credential)
    assert run["status"] == "error"
    port = http_server.rsplit(":", 1)[1]
    assert _error(run) == (
        f"Domain not allowed: This credential is restricted from accessing 127.0.0.1:{port}. "
        "Only the following domains are allowed: api.example.com, *.example.org"
    )
    assert "token=abc" not in _error(run)  # the message names the host only


async def test_a_redirect_cannot_carry_the_secret_elsewhere(http_server: str) -> None:
    credential = {**SECRET, "allowedHttpRequestDomains": "domains", "allowedDomains": "127.0.0.1"}
    run = await _call(f"{http_server}/redirect-other-origin", credential, sendCredentialsOnCrossOriginRedirect=True)
    assert run["status"] == "error" and "restricted from accessing localhost:" in _error(run)


async def test_none_refuses_the_credential_in_the_node(http_server: str) -> None:
    run = await _call(f"{http_server}/echo", {**SECRET, "allowedHttpRequestDomains": "none"})
    assert _error(run) == "This credential is configured to prevent use within an HTTP Request node"
    run = await _call(f"{http_server}/echo", {**SECRET, "allowedHttpRequestDomains": "domains", "allowedDomains": " "})
    assert _error(run) == "No allowed domains specified. Configure allowed domains or change restriction setting."


@pytest.mark.parametrize(
    ("url", "allowed", "expected"),
    [
        ("https://api.example.com/x", "api.example.com", True),
        ("https://API.Example.com./x", "api.example.com", True),
        ("https://example.com/x", "*.example.com", False),  # a wildcard never matches the bare domain
        ("https://a.b.example.com/x", "*.example.com", True),
        ("https://evilexample.com/x", "*.example.com", False),
        ("https://api.example.com.evil.io/x", "api.example.com", False),
        ("https://user:pw@evil.io/?h=api.example.com", "api.example.com", False),
        ("not a url", "api.example.com", False),
        ("https://anything.io", "", True),
    ],
)
def test_domain_matching_is_n8ns(url: str, allowed: str, expected: bool) -> None:
    assert is_domain_allowed(url, allowed) is expected
