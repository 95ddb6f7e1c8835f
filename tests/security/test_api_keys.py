"""Finding: ``/api/v1`` answered anyone. It takes n8n's ``X-N8N-API-KEY``: created, listed, revoked, hashed, scoped."""

from __future__ import annotations

import time
from typing import Any

import httpx
from sqlalchemy import text

from .conftest import Server


def _answer(response: httpx.Response) -> dict[str, Any]:
    return {"status": response.status_code, "body": response.json()}


def test_the_public_api_needs_a_key_as_n8n(anon: httpx.Client, golden: dict[str, Any]) -> None:
    assert _answer(anon.get("/api/v1/workflows")) == golden["auth"]["public_no_key"]
    assert _answer(anon.get("/api/v1/workflows", headers={"X-N8N-API-KEY": "nope"})) == golden["auth"]["public_bad_key"]
    assert anon.post("/api/v1/workflows", json={}).status_code == 401


def test_a_key_works_until_it_is_revoked(server: Server, golden: dict[str, Any]) -> None:
    key_id, key = server.api_key()
    with server.client(headers={"X-N8N-API-KEY": key}) as client:
        assert client.get("/api/v1/workflows").status_code == 200
        assert _answer(server.owner.delete(f"/rest/api-keys/{key_id}")) == golden["auth"]["api_key_delete"]
        assert _answer(client.get("/api/v1/workflows")) == golden["auth"]["public_revoked_key"]


def test_an_expired_key_is_refused(server: Server) -> None:
    _, key = server.api_key(expires_at=int(time.time()) - 1)
    with server.client(headers={"X-N8N-API-KEY": key}) as client:
        assert _answer(client.get("/api/v1/workflows")) == {"status": 401, "body": {"message": "unauthorized"}}


def test_keys_are_listed_redacted_and_stored_hashed(server: Server, golden: dict[str, Any]) -> None:
    key_id, key = server.api_key()
    listed = {k["id"]: k for k in server.owner.get("/rest/api-keys").json()["data"]}[key_id]
    assert set(listed) == set(golden["auth"]["api_key_list"]["body"]["data"][0])
    length, stars = golden["auth"]["api_key_redacted_shape"]
    assert len(listed["apiKey"]) == length and listed["apiKey"].count("*") == stars and key not in listed["apiKey"]
    with server.instance.store.db.sessions() as session:
        stored = [row[0] for row in session.execute(text("SELECT api_key FROM user_api_keys"))]
    assert key not in stored and all(len(s) == 64 for s in stored)


def _lacks(scope: str) -> dict[str, Any]:
    """n8n answers 403 ``{"message": "Forbidden"}``; Weft's message goes on to name the missing scope."""
    message = f"Forbidden: this API key lacks the scope '{scope}'; create a key that has it."
    return {"status": 403, "body": {"message": message}}


def test_a_key_only_reaches_its_scopes_and_is_told_which_one_it_lacks(server: Server) -> None:
    _, key = server.api_key(["workflow:read", "workflow:list"])
    with server.client(headers={"X-N8N-API-KEY": key}) as client:
        assert client.get("/api/v1/workflows").status_code == 200
        refused = client.post("/api/v1/workflows", json={"name": "x", "nodes": [], "connections": {}, "settings": {}})
        assert _answer(refused) == _lacks("workflow:create")
        assert _answer(client.get("/api/v1/executions")) == _lacks("execution:list")
        body = {"name": "x", "nodes": [], "connections": {}, "settings": {}}
        assert _answer(client.put("/api/v1/workflows/any", json=body)) == _lacks("workflow:update")


def test_keys_need_scopes_as_n8n(server: Server, golden: dict[str, Any]) -> None:
    refused = server.owner.post("/rest/api-keys", json={"label": "x", "expiresAt": None, "scopes": []})
    assert refused.status_code == golden["auth"]["api_key_no_scopes"]["status"]
    assert refused.json()["message"] == golden["auth"]["api_key_no_scopes"]["body"]["message"]


def test_a_session_cookie_does_not_open_the_public_api(server: Server) -> None:
    with server.client(cookies=dict(server.owner.cookies)) as client:
        assert client.get("/api/v1/workflows").status_code == 401
