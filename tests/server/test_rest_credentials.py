"""``/rest/credentials`` with n8n's redaction, ``/rest/credentials/test`` and ``/rest/credential-types``.

The tests drive the real server over HTTP; a credential test talks to a real HTTP server on 127.0.0.1 (the
scripted OpenAI-compatible server, or a small server here that checks the key).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from weft.services.credential_redaction import CREDENTIAL_BLANKING_VALUE, CREDENTIAL_EMPTY_VALUE
from weft.testing.fake_openai import FakeOpenAIServer

from .conftest import LiveServer

KEY = "sk-test-0123456789abcdef"


class _KeyChecking(BaseHTTPRequestHandler):
    """``GET /v1/models``: 200 with ``Bearer <KEY>``, else 401; ``/v1/redirect`` redirects to ``Location``."""

    def do_GET(self) -> None:
        if self.path.startswith("/v1/redirect"):
            self.send_response(302)
            self.send_header("Location", self.path.split("to=", 1)[1])
            self.end_headers()
            return
        ok = self.headers.get("Authorization") == f"Bearer {KEY}"
        body = json.dumps({"data": []} if ok else {"error": {"message": f"bad key {self.headers['Authorization']}"}})
        self.send_response(200 if ok else 401)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def key_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _KeyChecking)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _create(live: LiveServer, type: str, data: dict[str, Any], name: str = "Cred") -> str:
    created = live.client.post("/rest/credentials", json={"name": name, "type": type, "data": data})
    assert created.status_code == 201, created.text
    credential_id: str = created.json()["data"]["id"]
    return credential_id


def _test(live: LiveServer, credentials: dict[str, Any]) -> dict[str, Any]:
    response = live.client.post("/rest/credentials/test", json={"credentials": credentials})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()["data"]
    return result


def test_include_data_redacts_secrets_and_shows_the_rest(live: LiveServer) -> None:
    credential_id = _create(live, "openAiApi", {"apiKey": KEY, "url": "http://x/v1", "headerValue": ""})
    got = live.client.get(f"/rest/credentials/{credential_id}", params={"includeData": "true"}).json()["data"]
    assert got["data"] == {
        "apiKey": CREDENTIAL_BLANKING_VALUE,
        "url": "http://x/v1",
        "headerValue": CREDENTIAL_EMPTY_VALUE,
    }
    listed = live.client.get("/rest/credentials", params={"includeData": "true"}).json()["data"]
    assert next(c for c in listed if c["id"] == credential_id)["data"]["apiKey"] == CREDENTIAL_BLANKING_VALUE
    plain = live.client.get(f"/rest/credentials/{credential_id}").json()["data"]
    assert "data" not in plain and plain["type"] == "openAiApi"


def test_patch_with_the_placeholder_keeps_the_stored_secret(live: LiveServer) -> None:
    credential_id = _create(live, "httpHeaderAuth", {"name": "X-Key", "value": "v4lue-secret"})
    patched = live.client.patch(
        f"/rest/credentials/{credential_id}",
        json={
            "name": "Renamed",
            "type": "httpHeaderAuth",
            "data": {"name": "X-Other", "value": CREDENTIAL_BLANKING_VALUE},
        },
    )
    assert patched.status_code == 200 and "data" not in patched.json()["data"]
    stored = live.instance.store.credentials.get(credential_id)
    assert stored is not None and stored.name == "Renamed"
    assert stored.data == {"name": "X-Other", "value": "v4lue-secret"}
    live.client.patch(f"/rest/credentials/{credential_id}", json={"data": {"name": "X-Other", "value": "new"}})
    assert live.instance.store.credentials.get(credential_id).data["value"] == "new"  # type: ignore[union-attr]


def test_credential_types_are_n8n_descriptions(live: LiveServer) -> None:
    types = {t["name"]: t for t in live.client.get("/rest/credential-types").json()["data"]}
    for used in ("openAiApi", "anthropicApi", "postgres", "httpBasicAuth", "httpHeaderAuth", "httpQueryAuth"):
        assert used in types
    openai = types["openAiApi"]
    assert (
        openai["displayName"] == "OpenAI"
        and openai["testable"] is True
        and openai["test"]["request"]["url"] == "/models"
    )
    key = next(p for p in openai["properties"] if p["name"] == "apiKey")
    assert key["typeOptions"] == {"password": True}
    assert "allowedHttpRequestDomains" in [p["name"] for p in openai["properties"]]  # n8n injects them
    assert types["postgres"]["testable"] is False and "jsonSchema" not in types["postgres"]
    mcp = live.client.get("/rest/credential-types/mcpOAuth2Api").json()["data"]
    assert "clientSecret" in [p["name"] for p in mcp["properties"]]  # merged from oAuth2Api, which it extends
    assert live.client.get("/rest/credential-types/nope").status_code == 404


def test_public_api_schema_still_served_from_the_one_data_file(live: LiveServer) -> None:
    from weft.services.credential_types import json_schema

    schema = json_schema("postgres")
    assert schema is not None and schema["properties"]["password"] == {"type": "string"}
    assert json_schema("openAiApi") is None


def test_openai_credential_test_sends_the_key(live: LiveServer) -> None:
    with FakeOpenAIServer() as fake:
        result = _test(live, {"name": "n", "type": "openAiApi", "data": {"apiKey": KEY, "url": fake.base_url}})
        assert result == {"status": "OK", "message": "Connection successful!"}
        sent = fake.requests[-1]
        assert (
            sent.path == "/v1/models"
            and {k.lower(): v for k, v in sent.headers.items()}["authorization"] == f"Bearer {KEY}"
        )


def test_stored_credential_tested_with_its_stored_secret(live: LiveServer, key_server: str) -> None:
    credential_id = _create(live, "openAiApi", {"apiKey": KEY, "url": key_server})
    placeholder = {"apiKey": CREDENTIAL_BLANKING_VALUE, "url": key_server}
    result = _test(live, {"id": credential_id, "name": "n", "type": "openAiApi", "data": placeholder})
    assert result["status"] == "OK"
    wrong = _test(
        live, {"id": credential_id, "name": "n", "type": "openAiApi", "data": {**placeholder, "apiKey": "bad"}}
    )
    assert wrong == {"status": "Error", "message": "Unauthorized"}


def test_failed_test_messages_never_hold_the_key(live: LiveServer, key_server: str) -> None:
    key = "sk-wrong-key-98765"
    rejected = _test(live, {"name": "n", "type": "openAiApi", "data": {"apiKey": key, "url": key_server}})
    assert rejected == {"status": "Error", "message": "Unauthorized"}  # the server's body echoed the key
    bad_url = _test(live, {"name": "n", "type": "openAiApi", "data": {"apiKey": key, "url": f"ftp://{key}"}})
    assert bad_url["status"] == "Error" and key not in bad_url["message"] and "*****765" in bad_url["message"]
    unreachable = _test(live, {"name": "n", "type": "openAiApi", "data": {"apiKey": KEY, "url": "http://127.0.0.1:9"}})
    assert unreachable == {"status": "Error", "message": "ECONNREFUSED"}


def test_domain_restriction_is_honoured_on_every_hop(live: LiveServer, key_server: str) -> None:
    restricted = {
        "apiKey": KEY,
        "url": key_server,
        "allowedHttpRequestDomains": "domains",
        "allowedDomains": "api.example.com",
    }
    result = _test(live, {"name": "n", "type": "openAiApi", "data": restricted})
    assert result["status"] == "Error" and result["message"].startswith("Domain not allowed")
    allowed = {**restricted, "allowedDomains": "127.0.0.1"}
    assert _test(live, {"name": "n", "type": "openAiApi", "data": allowed})["status"] == "OK"
    hop = {**allowed, "url": key_server + "/redirect?to=http://localhost:1/v1"}
    assert _test(live, {"name": "n", "type": "openAiApi", "data": hop})["message"].startswith("Domain not allowed")
    empty = {**restricted, "allowedDomains": " "}
    assert _test(live, {"name": "n", "type": "openAiApi", "data": empty})["message"].startswith("No allowed domains")


def test_type_without_a_test_says_so(live: LiveServer) -> None:
    result = _test(live, {"name": "n", "type": "postgres", "data": {"password": "x"}})
    assert result == {"status": "Error", "message": "No testing function found for this credential."}
