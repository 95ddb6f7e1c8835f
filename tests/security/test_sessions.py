"""Finding: no authentication anywhere. Every ``/rest`` route needs the owner's login session (n8n's answers)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx

from weft.db.orm import utcnow

from .conftest import OWNER, Server


def _answer(response: httpx.Response) -> dict[str, Any]:
    return {"status": response.status_code, "body": response.json()}


def _code_and_message(entry: dict[str, Any]) -> dict[str, Any]:
    """n8n's error answer without the stack trace it adds outside production (Weft never sends one)."""
    return {"status": entry["status"], "body": {k: v for k, v in entry["body"].items() if k != "stacktrace"}}


def test_rest_without_a_session_is_refused_as_n8n_does(anon: httpx.Client, golden: dict[str, Any]) -> None:
    assert _answer(anon.get("/rest/workflows")) == golden["auth"]["rest_no_cookie"]
    assert _answer(anon.get("/rest/executions")) == golden["auth"]["rest_no_cookie"]
    assert _answer(anon.get("/rest/credentials")) == golden["auth"]["rest_no_cookie"]


def test_an_anonymous_client_cannot_store_or_run_anything(server: Server, anon: httpx.Client) -> None:
    workflow = {"name": "exfiltrate", "nodes": [], "connections": {}}
    assert anon.post("/rest/credentials", json={"name": "x", "type": "httpHeaderAuth", "data": {}}).status_code == 401
    assert anon.post("/rest/workflows", json=workflow).status_code == 401
    assert anon.post("/rest/workflows/import", json=workflow, params={"activate": True}).status_code == 401
    assert anon.post("/rest/workflows/anything/run").status_code == 401
    assert anon.post("/rest/workflows/anything/activate").status_code == 401


def test_the_openapi_pages_need_a_session(anon: httpx.Client, server: Server) -> None:
    for path in ("/docs", "/openapi.json", "/redoc"):
        assert anon.get(path).status_code == 401
    assert server.owner.get("/openapi.json").status_code == 200


def test_a_made_up_or_forged_cookie_is_refused(server: Server, golden: dict[str, Any]) -> None:
    with server.client(cookies={"n8n-auth": "garbage"}) as client:
        assert _answer(client.get("/rest/workflows")) == golden["auth"]["rest_bad_cookie"]
    with server.client(cookies={"n8n-auth": "A" * 43}) as client:
        assert _answer(client.get("/rest/workflows")) == golden["auth"]["rest_forged_cookie"]


def test_an_expired_session_is_refused(server: Server) -> None:
    owner = server.instance.store.users.owner()
    assert owner is not None
    server.instance.store.users.create_session(owner.id, "expired-token", utcnow() - timedelta(seconds=1))
    server.instance.store.users.create_session(owner.id, "live-token", utcnow() + timedelta(hours=1))
    with server.client(cookies={"n8n-auth": "expired-token"}) as client:
        assert client.get("/rest/workflows").json() == {"status": "error", "message": "Unauthorized"}
    with server.client(cookies={"n8n-auth": "live-token"}) as client:
        assert client.get("/rest/workflows").status_code == 200


def test_login_and_logout_as_n8n(server: Server, golden: dict[str, Any]) -> None:
    with server.client() as client:
        login = client.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]})
        assert login.status_code == golden["auth"]["login"]["status"]
        assert set(login.json()["data"]) >= set(golden["auth"]["login"]["body"]["data"]) - {
            "featureFlags",
            "globalScopes",
            "lastActiveAt",
            "mfaAuthenticated",
            "settings",
        }
        assert client.get("/rest/login").json()["data"]["email"] == OWNER["email"]
        cookie = client.cookies["n8n-auth"]
        assert _answer(client.post("/rest/logout")) == golden["auth"]["logout"]
    with server.client(cookies={"n8n-auth": cookie}) as old:
        assert _answer(old.get("/rest/workflows")) == golden["auth"]["rest_after_logout_old_cookie"]


def test_the_session_cookie_is_httponly_and_samesite(server: Server, golden: dict[str, Any]) -> None:
    with server.client() as client:
        login = client.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]})
    raw = login.headers["set-cookie"]
    assert raw.split("=")[0] == golden["auth"]["login_cookie"]["name"]
    attributes = sorted(part.strip().split("=")[0].lower() for part in raw.split(";")[1:])
    assert attributes == golden["auth"]["login_cookie"]["attributes"]
    assert "samesite=lax" in raw.lower()


def test_wrong_logins_answer_as_n8n(anon: httpx.Client, golden: dict[str, Any]) -> None:
    wrong = anon.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": "wrong"})
    assert _answer(wrong) == _code_and_message(golden["auth"]["login_wrong_password"])
    bad_email = anon.post("/rest/login", json={"emailOrLdapLoginId": "x", "password": "wrong"})
    assert _answer(bad_email) == _code_and_message(golden["auth"]["login_bad_email"])


def test_the_owner_is_set_up_only_once(anon: httpx.Client, golden: dict[str, Any]) -> None:
    again = anon.post("/rest/owner/setup", json={**OWNER, "email": "intruder@example.com"})
    assert _answer(again) == _code_and_message(golden["auth"]["owner_setup_again"])


def test_the_login_is_rate_limited(anon: httpx.Client) -> None:
    body = {"emailOrLdapLoginId": "someone@example.com", "password": "Wrong-pass1"}
    statuses = [anon.post("/rest/login", json=body).status_code for _ in range(6)]
    assert statuses == [401] * 5 + [429]
    assert anon.post("/rest/login", json=body).json() == {"message": "Too many requests"}


def test_passwords_are_stored_as_bcrypt_hashes(server: Server) -> None:
    owner = server.instance.store.users.owner()
    assert owner is not None and owner.password_hash is not None
    assert owner.password_hash.startswith("$2b$") and OWNER["password"] not in owner.password_hash


def test_session_tokens_are_stored_hashed(server: Server) -> None:
    token = server.owner.cookies["n8n-auth"]
    with server.instance.store.db.sessions() as session:
        from sqlalchemy import text

        stored = [row[0] for row in session.execute(text("SELECT id FROM auth_session"))]
    assert stored and token not in stored
