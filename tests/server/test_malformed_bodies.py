"""A body that is not JSON, or not the object a route wants, gets 400 and one message that says what is wrong, on
every route that takes a body: ``{"code": 400, "message"}`` on ``/rest``, n8n's validator wording on ``/api/v1``;
never FastAPI's 422 ``{"detail": [...]}`` (n8n: the first zod issue with 400, a 500 HTML page for broken JSON)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from .conftest import TIMEOUT, LiveServer

TEXT = {"content-type": "text/plain"}
JSON = {"content-type": "application/json"}
AS_JSON = "sent with the header content-type: application/json"
NOT_JSON = "Expecting property name enclosed in double quotes at character 1"


def _routes_with_a_body(live: LiveServer, prefix: str) -> list[tuple[str, str]]:
    spec: dict[str, Any] = live.client.get("/openapi.json").json()
    return [
        (method.upper(), re.sub(r"\{[^}]+\}", "x", path))
        for path, operations in spec["paths"].items()
        for method, operation in operations.items()
        if path.startswith(prefix) and "requestBody" in operation
    ]


@pytest.fixture
def anon(live: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=live.url, timeout=TIMEOUT)


def test_a_login_body_that_is_not_json_says_so(anon: httpx.Client) -> None:
    with anon:
        text = anon.post("/rest/login", content=b"owner@example.com", headers=TEXT)
        assert (text.status_code, text.json()) == (
            400,
            {"code": 400, "message": f"The request body must be a JSON object, {AS_JSON}."},
        )
        broken = anon.post("/rest/login", content=b'{"emailOrLdapLoginId": "a@b.c",', headers=JSON)
        assert broken.status_code == 400
        assert broken.json()["message"].startswith("The request body is not valid JSON: Expecting property name")
        empty = anon.post("/rest/login", json={"emailOrLdapLoginId": "a@b.c"})
        assert empty.json() == {"code": 400, "message": "The request body lacks the field 'password'; add it."}
        wrong = anon.post("/rest/login", json={"emailOrLdapLoginId": 5, "password": "x"})
        assert wrong.json()["message"] == (
            "The field 'emailOrLdapLoginId' of the request body is invalid: Input should be a valid string."
        )


def test_every_rest_route_answers_a_malformed_body_in_one_shape(live: LiveServer) -> None:
    routes = _routes_with_a_body(live, "/rest/")
    assert ("POST", "/rest/login") in routes and len(routes) > 10
    for method, path in routes:
        for body, headers in ((b"{nope", JSON), (b"nope", TEXT)):
            answer = live.client.request(method, path, content=body, headers=headers)
            assert answer.status_code == 400, (method, path, answer.text)
            assert set(answer.json()) == {"code", "message"} and answer.json()["code"] == 400, (method, path)


def test_every_public_api_route_answers_a_malformed_body_as_n8n_words_it(live: LiveServer) -> None:
    scopes = live.client.get("/rest/api-keys/scopes").json()["data"]
    created = live.client.post("/rest/api-keys", json={"label": "bodies", "scopes": scopes, "expiresAt": None})
    key = {"X-N8N-API-KEY": created.json()["data"]["rawApiKey"]}
    routes = _routes_with_a_body(live, "/api/v1/")
    assert ("POST", "/api/v1/workflows") in routes
    for method, path in routes:
        broken = live.client.request(method, path, content=b"{nope", headers={**key, **JSON})
        assert broken.status_code == 400, (method, path, broken.text)
        assert broken.json() == {"message": f"request/body must be valid JSON ({NOT_JSON})"}, (method, path)
        text = live.client.request(method, path, content=b"nope", headers={**key, **TEXT})
        assert (text.status_code, text.json()) == (415, {"message": "unsupported media type text/plain"})
    missing = live.client.post("/api/v1/tags", json={}, headers=key)
    assert missing.status_code == 400
    assert missing.json() == {"message": "request/body must have required property 'name'"}
