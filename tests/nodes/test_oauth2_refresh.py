"""OAuth2 token renewal in the node kit (:mod:`weft.nodes.oauth2`, n8n's ``requestOAuth2``): a 401 (or the
credential's ``tokenExpiredStatusCode``) refreshes the token at the credential's token URL, retries once, and the
new token is stored back into the credential, encrypted in the database, so the next execution sends it. Run
against the fake Google token endpoint and Sheets API (``weft.testing.saas.google_oauth``/``google_sheets``)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest
from sqlalchemy import text

from weft.db.test_support import empty_database_url
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.services.import_export import open_store
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner
from weft.settings import Settings
from weft.testing.saas import FakeSaasServer, google_oauth, google_sheets

CLIENT, SECRET = "sheets-client-id.apps.googleusercontent.com", "sheets-client-secret"
TYPE = "googleSheetsOAuth2Api"


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["google_oauth", "google_sheets"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


def _credential(
    access: str = "sheets-expired-token", refresh: str = "sheets-refresh-token", **data: Any
) -> dict[str, Any]:
    token = {"access_token": access, "refresh_token": refresh, "token_type": "Bearer"}
    return {"clientId": CLIENT, "clientSecret": SECRET, "oauthTokenData": token, **data}


def _workflow() -> dict[str, Any]:
    params = {"documentId": {"__rl": True, "mode": "id", "value": google_sheets.PEOPLE},
              "sheetName": {"__rl": True, "mode": "name", "value": "Sheet1"}, "options": {}}  # fmt: skip
    return {
        "name": "sheets",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Sheets", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.7, "parameters": params,
             "credentials": {TYPE: {"id": "gsh1", "name": "sheets"}}},
        ],
        "connections": {"T": {"main": [[{"node": "Sheets", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip


async def _run(services: Any) -> tuple[list[Any], Any]:
    run = await run_workflow(_workflow(), services=services)
    task = run["data"]["resultData"]["runData"]["Sheets"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


def _token_requests(saas: FakeSaasServer) -> list[Any]:
    return [r for r in saas.requests if r.host == google_oauth.HOST]


async def test_a_401_refreshes_the_token_retries_and_keeps_the_new_one(saas: FakeSaasServer) -> None:
    services = LocalServices(credentials={"sheets": _credential()})
    items, error = await _run(services)
    assert error is None and len(items) == 5
    (token_request,) = _token_requests(saas)
    form = dict(parse_qsl(token_request.raw_body.decode()))
    # googleOAuth2Api sends the client in the body (its `authentication` is `body`)
    assert form == {"refresh_token": "sheets-refresh-token", "grant_type": "refresh_token", "client_id": CLIENT,
                    "client_secret": SECRET}  # fmt: skip
    sheets = [r.headers["authorization"] for r in saas.requests if r.host == google_sheets.HOST]
    assert sheets[:2] == ["Bearer sheets-expired-token", f"Bearer {google_sheets.ACCESS_TOKEN}"]
    stored = services.credentials["sheets"]["oauthTokenData"]
    assert stored["access_token"] == google_sheets.ACCESS_TOKEN
    assert stored["refresh_token"] == "sheets-refresh-token"  # kept: Google answers none on a refresh
    saas.requests.clear()
    items, error = await _run(services)  # the next execution sends the stored token at once
    assert error is None and not _token_requests(saas)


async def test_header_authentication_sends_the_client_in_a_basic_header(saas: FakeSaasServer) -> None:
    services = LocalServices(credentials={"sheets": _credential(authentication="header")})
    _items, error = await _run(services)
    assert error is None
    (token_request,) = _token_requests(saas)
    expected = "Basic " + base64.b64encode(f"{CLIENT}:{SECRET}".encode()).decode()
    assert token_request.headers["authorization"] == expected
    assert "client_secret" not in dict(parse_qsl(token_request.raw_body.decode()))


async def test_a_revoked_refresh_token_asks_to_reconnect_the_credential(saas: FakeSaasServer) -> None:
    services = LocalServices(credentials={"sheets": _credential(refresh="revoked")})
    _items, error = await _run(services)
    assert error["message"] == 'The credential "sheets" needs to be reconnected.'
    assert "reconnect it" in error["description"]


async def test_without_a_refresh_token_the_401_says_to_reconnect(saas: FakeSaasServer) -> None:
    data = _credential()
    del data["oauthTokenData"]["refresh_token"]
    _items, error = await _run(LocalServices(credentials={"sheets": data}))
    assert error["message"].startswith("OAuth access token expired and no refresh token is available")
    assert not _token_requests(saas)


async def test_a_wrong_client_secret_gives_client_oauth2_s_message(saas: FakeSaasServer) -> None:
    _items, error = await _run(LocalServices(credentials={"sheets": _credential(clientSecret="wrong")}))
    assert error["message"].startswith("Client authentication failed")


async def test_only_the_token_expired_status_refreshes(saas: FakeSaasServer) -> None:
    data = _credential(tokenExpiredStatusCode=403)  # this service says "expired" with 403: a 401 is an error
    _items, error = await _run(LocalServices(credentials={"sheets": data}))
    assert error["message"] == "Authorization failed - please check your credentials"
    assert not _token_requests(saas)


async def test_client_credentials_fetch_a_token_before_the_first_request(saas: FakeSaasServer) -> None:
    data = {"grantType": "clientCredentials", "clientId": CLIENT, "clientSecret": SECRET, "scope": "a  b",
            "oauthTokenData": {}}  # fmt: skip
    services = LocalServices(credentials={"sheets": data})
    _items, _error = await _run(services)
    (token_request,) = _token_requests(saas)
    assert dict(parse_qsl(token_request.raw_body.decode())) == {
        "grant_type": "client_credentials", "scope": "a b", "client_id": CLIENT, "client_secret": SECRET,
    }  # fmt: skip
    stored = services.credentials["sheets"]["oauthTokenData"]
    assert stored["access_token"] == google_oauth.CLIENT_CREDENTIALS_TOKEN
    assert "n8n_expires_at" in stored


async def test_the_renewed_token_is_stored_encrypted_in_the_database(saas: FakeSaasServer, tmp_path: Path) -> None:
    settings = Settings(user_folder=tmp_path, database_url=empty_database_url("sqlite", tmp_path),
                        encryption_key="test-key")  # fmt: skip
    store = open_store(settings)
    runner = WorkflowRunner(store, settings)
    try:
        store.credentials.create("sheets", TYPE, _credential(clientSecret=SECRET), id="gsh1")
        first = await runner.run(prepare(_workflow(), runner.registry), mode="manual")
        assert first.run["status"] == "success"
        data = store.credentials.resolve_credentials("Sheets", TYPE, {"id": "gsh1", "name": "sheets"})
        assert data["oauthTokenData"]["access_token"] == google_sheets.ACCESS_TOKEN
        assert data["oauthTokenData"]["refresh_token"] == "sheets-refresh-token"
        assert data["clientSecret"] == SECRET  # the rest of the credential kept
        with store.db.engine.connect() as connection:
            raw = connection.execute(text("SELECT data FROM credentials_entity WHERE id = 'gsh1'")).scalar()
        assert google_sheets.ACCESS_TOKEN not in str(raw)
        saas.requests.clear()
        second = await runner.run(prepare(_workflow(), runner.registry), mode="manual")
        assert second.run["status"] == "success" and not _token_requests(saas)  # the next execution uses it
    finally:
        runner.close()
        store.close()


async def test_a_declarative_node_refreshes_its_oauth2_token_once_for_all_items() -> None:
    """The declarative runner (n8n's ``RoutingNode``) renews the same way; items failing together renew once."""
    from tests.nodes.routing._kit import run_node

    from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

    refreshes: list[dict[str, str]] = []

    def token(request: ApiRequest) -> ApiReply:
        refreshes.append(dict(parse_qsl(request.raw_body.decode())))
        return ApiReply(body={"access_token": "fresh", "token_type": "Bearer", "expires_in": 60})

    def me(request: ApiRequest) -> ApiReply:
        if request.headers.get("authorization") != "Bearer fresh":
            return json_error(401, {"message": "expired"})
        return ApiReply(body={"ok": True})

    with FakeApiServer() as server:
        server.route("POST", "/token", token)
        server.route("GET", "/me", me)
        described = {"credentials": [{"name": "highLevelOAuth2Api", "required": True}],
                     "requestDefaults": {"baseURL": server.url, "url": "/me"}, "properties": []}  # fmt: skip
        data = {"accessTokenUrl": f"{server.url}/token", "clientId": "c", "clientSecret": "s",
                "authentication": "header", "grantType": "authorizationCode",
                "oauthTokenData": {"access_token": "old", "refresh_token": "r1"}}  # fmt: skip
        ran = await run_node(described, {}, items=[{}, {}, {}], credentials={"highLevelOAuth2Api": data})
    assert ran.error is None and ran.items == [{"ok": True}] * 3
    assert refreshes == [{"refresh_token": "r1", "grant_type": "refresh_token"}]
