"""The credential of a declarative node: ``authenticate`` recipes and ports, ``preAuthentication``, OAuth2 tokens and
the credential's allowed domains."""

from __future__ import annotations

import base64
from typing import Any

from tests.nodes.routing._kit import run_node

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require


def _described(credential: str, base_url: str, *, url: str = "/me") -> dict[str, Any]:
    return {
        "credentials": [{"name": credential, "required": True}],
        "requestDefaults": {"baseURL": base_url, "url": url},
        "properties": [],
    }


def _whoami(request: ApiRequest) -> ApiReply:
    return ApiReply(body={"authorization": request.headers.get("authorization"), "query": request.query})


async def test_a_generic_recipe_adds_its_header(api: FakeApiServer) -> None:
    api.route("GET", "/me", _whoami)
    ran = await run_node(_described("oktaApi", api.url), {}, credentials={"oktaApi": {"accessToken": "tok"}})
    assert ran.items == [{"authorization": "SSWS tok", "query": {}}]


async def test_a_generic_recipe_with_basic_auth(api: FakeApiServer) -> None:
    api.route("GET", "/me", _whoami)
    credentials = {"gongApi": {"accessKey": "key", "accessKeySecret": "secret", "baseUrl": api.url}}
    ran = await run_node(_described("gongApi", "={{ $credentials.baseUrl }}"), {}, credentials=credentials)
    assert ran.items[0]["authorization"] == "Basic " + base64.b64encode(b"key:secret").decode()


async def test_a_ported_authenticate_function(api: FakeApiServer) -> None:
    api.route(
        "GET",
        "/me",
        lambda r: ApiReply(body={"auth": r.headers.get("authorization"), "custom": r.headers.get("x-team")}),
    )
    data = {"apiKey": "sk-1", "organizationId": "", "header": True, "headerName": "X-Team", "headerValue": "blue"}
    ran = await run_node(_described("openAiApi", api.url), {}, credentials={"openAiApi": data})
    assert ran.items == [{"auth": "Bearer sk-1", "custom": "blue"}]


async def test_the_credential_type_s_defaults_fill_its_data(api: FakeApiServer) -> None:
    """npm's ``registryUrl`` defaults to the public registry; one given wins (so here the fake is reached)."""
    api.route("GET", "/me", _whoami)
    ran = await run_node(
        _described("npmApi", "={{ $credentials.registryUrl }}"),
        {},
        credentials={"npmApi": {"accessToken": "n", "registryUrl": api.url}},
    )
    assert ran.items[0]["authorization"] == "Bearer n"


async def test_pre_authentication_fetches_the_session_then_refreshes_it_once_on_401(api: FakeApiServer) -> None:
    sessions = iter(["stale", "fresh"])

    def session(request: ApiRequest) -> ApiReply:
        require(request.body == {"username": "u", "password": "p"}, json_error(401, {"errors": "bad login"}))
        return ApiReply(body={"id": next(sessions)})

    def cards(request: ApiRequest) -> ApiReply:
        require(request.headers.get("x-metabase-session") == "fresh", ApiReply(status=401, text="Unauthenticated"))
        return ApiReply(body=[{"id": 1}])

    api.route("POST", "/api/session", session)
    api.route("GET", "/api/card", cards)
    data = {"url": api.url + "/", "username": "u", "password": "p", "sessionToken": ""}
    description = _described("metabaseApi", '={{ $credentials.url.replace(new RegExp("/$"), "") }}', url="/api/card")
    ran = await run_node(description, {}, credentials={"metabaseApi": data})
    assert ran.items == [{"id": 1}]
    assert [(r.method, r.path) for r in api.requests] == [
        ("POST", "/api/session"),
        ("GET", "/api/card"),
        ("POST", "/api/session"),
        ("GET", "/api/card"),
    ]


async def test_oauth2_sends_the_access_token_and_names_a_missing_one(api: FakeApiServer) -> None:
    api.route("GET", "/me", _whoami)
    token = {"oauthTokenData": {"access_token": "at-1", "token_type": "Bearer"}}
    ran = await run_node(_described("highLevelOAuth2Api", api.url), {}, credentials={"highLevelOAuth2Api": token})
    assert ran.items[0]["authorization"] == "Bearer at-1"
    missing = await run_node(_described("highLevelOAuth2Api", api.url), {}, credentials={"highLevelOAuth2Api": {}})
    assert missing.error == "OAuth credentials not connected"


async def test_the_node_s_own_endpoint_is_allowed_for_a_domain_restricted_credential(api: FakeApiServer) -> None:
    """n8n 2.41: a ``domains`` list the user wrote for HTTP Request does not stop the node the credential is for."""
    api.route("GET", "/me", _whoami)
    data = {"accessToken": "t", "url": api.url, "allowedHttpRequestDomains": "domains", "allowedDomains": "example.com"}
    ran = await run_node(_described("oktaApi", "={{ $credentials.url }}"), {}, credentials={"oktaApi": data})
    assert ran.error is None  # recorded: case d012


async def test_a_url_the_user_shapes_must_be_in_the_credential_s_domains(api: FakeApiServer) -> None:
    """A base URL made from a parameter is the user's, not the node's (n8n 2.41 resolves it with ``$parameter``
    empty to tell): whoever sets the parameter cannot send the credential's secret to their own host."""
    api.route("GET", "/me", _whoami)
    description = _described("oktaApi", "={{ $parameter.base }}")
    description["properties"] = [{"name": "base", "type": "string", "default": ""}]
    data = {"accessToken": "t", "allowedHttpRequestDomains": "domains", "allowedDomains": "okta.example.com"}
    ran = await run_node(description, {"base": api.url}, credentials={"oktaApi": data})
    assert ran.error == (
        "Domain not allowed: This credential is restricted from accessing "
        f"127.0.0.1:{api.port}. Only the following domains are allowed: okta.example.com"
    )
    blocked = {**data, "allowedHttpRequestDomains": "none"}
    ran = await run_node(description, {"base": api.url}, credentials={"oktaApi": blocked})
    assert ran.error == "This credential is configured to prevent use within an HTTP Request node"
    assert api.requests == []


async def test_an_absolute_url_off_the_node_s_endpoint_is_checked_too(api: FakeApiServer) -> None:
    api.route("GET", "/me", _whoami)
    description = _described("oktaApi", "https://okta.example.com")
    description["properties"] = [
        {"name": "next", "type": "string", "default": "", "routing": {"request": {"url": "={{ $value }}"}}}
    ]
    data = {"accessToken": "t", "allowedHttpRequestDomains": "domains", "allowedDomains": "okta.example.com"}
    ran = await run_node(description, {"next": api.url + "/me"}, credentials={"oktaApi": data})
    assert ran.error is not None and ran.error.startswith("Domain not allowed")
    assert api.requests == []
