"""Finding: the Chat Trigger's ``n8nUserAuth`` was refused as unsupported and its CORS headers were not n8n's.

Each answer is compared with n8n 2.8.4's (``n8n_chat_answers.json``, recorded by ``_record_n8n_chat.py`` with
the same workflows): ``basicAuth`` and ``n8nUserAuth`` with no, wrong and right credentials, on the hosted page
(``GET``) and the chat API (``POST``), from a foreign page too, for every version Weft accepts; ``allowedOrigins``
with a foreign and allowed origins. A refused call starts no execution.

Deliberately stricter than n8n: ``n8nUserAuth`` checks the session itself (n8n only checks that an ``n8n-auth``
cookie is there and lets a forged or logged-out one through); such a cookie gets n8n's answer to a missing one.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

import httpx
import pytest

from weft.db.orm import utcnow

from ._record_n8n_chat import ALLOWED, AUTH_CASES, BASIC, CHATS, FOREIGN, MESSAGE, SECOND, answer, chat_workflow
from .conftest import HERE, Server

VERSIONS = (1, 1.1, 1.2, 1.3, 1.4, 1.5)
Chats = dict[tuple[str, float], tuple[str, str]]
"""``(chat, version) → (webhookId, workflow id)``."""


@pytest.fixture(scope="module")
def chat_golden() -> dict[str, Any]:
    answers: dict[str, Any] = json.loads((HERE / "n8n_chat_answers.json").read_text())["chat"]
    for entry in answers.values():
        entry.get("headers", {}).pop("vary", None)  # compression's Vary: Accept-Encoding
        if entry.get("headers") == {}:
            del entry["headers"]
    return answers


@pytest.fixture(scope="module")
def chats(server: Server) -> Chats:
    created = server.owner.post(
        "/rest/credentials", json={"name": "chat basic", "type": "httpBasicAuth", "data": BASIC}
    )
    assert created.status_code == 201, created.text
    out: Chats = {}
    for name in CHATS:
        for version in VERSIONS:
            data = chat_workflow(name, version)
            data["id"] = uuid.uuid4().hex[:16]
            node = data["nodes"][0]
            node["webhookId"] = node["id"] = str(uuid.uuid4())
            if "credentials" in node:
                node["credentials"]["httpBasicAuth"]["id"] = created.json()["data"]["id"]
            out[name, version] = (node["webhookId"], server.import_workflow(data))
    return out


def _answer(response: httpx.Response) -> dict[str, Any]:
    return answer(response, skip=("vary",))


def _call(server: Server, webhook_id: str, method: str, headers: dict[str, str]) -> dict[str, Any]:
    url = f"{server.url}/webhook/{webhook_id}/chat"
    if method == "page":
        return _answer(httpx.get(url, headers=headers))
    return _answer(httpx.post(url, json=MESSAGE, headers=headers))


def _headers(server: Server, headers: dict[str, str]) -> dict[str, str]:
    if headers.get("cookie") == "<login>":
        return {**headers, "cookie": f"n8n-auth={server.owner.cookies['n8n-auth']}"}
    return headers


#: n8n answers these differently on purpose (see the module docstring) or for a reason outside auth: in
#: ``webhook`` mode n8n runs the workflow on ``GET`` and answers ``firstEntryJson``; Weft serves no page there.
_ELSEWHERE = {"user_{}_garbage_cookie", "embedded_{}_ok"}
CASES = [
    (case.format(method), method, origin)
    for case in AUTH_CASES
    if case not in _ELSEWHERE
    for method in ("page", "post")
    for origin in (False, True)
    if origin or case.startswith("user")
]  # basic auth without Origin was already n8n's (tests/server)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("case", "method", "origin"), CASES, ids=[f"{c}{'-origin' if o else ''}" for c, _, o in CASES])
def test_chat_auth_answers_as_n8n(
    case: str, method: str, origin: bool, version: float, server: Server, chats: Chats, chat_golden: dict[str, Any]
) -> None:
    name, headers = AUTH_CASES[next(c for c in AUTH_CASES if c.format(method) == case)]
    webhook_id, workflow_id = chats[name, version]
    extra = {"origin": FOREIGN} if origin else {}
    before = len(server.executions(workflow_id))
    answered = _call(server, webhook_id, method, {**_headers(server, headers), **extra})
    assert answered == chat_golden[case + ("_foreign_origin" if origin else "")]
    if answered["status"] != 200:
        assert len(server.executions(workflow_id)) == before


@pytest.mark.parametrize("cookie", ["garbage", "logged-out", "expired"])
@pytest.mark.parametrize("version", VERSIONS)
def test_a_session_that_is_not_live_is_refused(
    cookie: str, version: float, server: Server, chats: Chats, chat_golden: dict[str, Any]
) -> None:
    owner = server.instance.store.users.owner()
    assert owner is not None
    token = f"{cookie}-{uuid.uuid4().hex}"
    if cookie == "expired":
        server.instance.store.users.create_session(owner.id, token, utcnow() - timedelta(seconds=1))
    elif cookie == "logged-out":
        server.instance.store.users.create_session(owner.id, token, utcnow() + timedelta(hours=1))
        server.instance.auth.logout(token)
    webhook_id, workflow_id = chats["user", version]
    before = len(server.executions(workflow_id))
    assert _call(server, webhook_id, "post", {"cookie": f"n8n-auth={token}"}) == chat_golden["user_post_none"]
    assert len(server.executions(workflow_id)) == before
    live = f"live-{uuid.uuid4().hex}"
    server.instance.store.users.create_session(owner.id, live, utcnow() + timedelta(hours=1))
    assert _call(server, webhook_id, "post", {"cookie": f"n8n-auth={live}"}) == chat_golden["user_post_ok"]


def test_the_session_cookie_is_found_among_others(server: Server, chats: Chats, chat_golden: dict[str, Any]) -> None:
    webhook_id, _ = chats["user", 1.4]
    cookie = f"a=1; n8n-auth={server.owner.cookies['n8n-auth']}; b=2"
    assert _call(server, webhook_id, "post", {"cookie": cookie}) == chat_golden["user_post_ok"]
    loading = httpx.post(f"{server.url}/webhook/{webhook_id}/chat", json={"action": "loadPreviousSession"})
    assert _answer(loading) == chat_golden["user_load_session_none"]


ORIGINS = {"foreign": FOREIGN, "allowed": ALLOWED, "second": SECOND}


@pytest.mark.parametrize("chat", ["none", "origin", "origins"])
@pytest.mark.parametrize("origin", sorted(ORIGINS))
def test_allowed_origins_as_n8n(
    chat: str, origin: str, server: Server, chats: Chats, chat_golden: dict[str, Any]
) -> None:
    webhook_id, _ = chats[chat, 1.4]
    posted = _call(server, webhook_id, "post", {"origin": ORIGINS[origin]})
    assert posted == chat_golden[f"{chat}_post_{origin}_origin"]
    preflight = httpx.options(
        f"{server.url}/webhook/{webhook_id}/chat",
        headers={
            "origin": ORIGINS[origin],
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        },
    )
    assert _answer(preflight) == chat_golden[f"{chat}_options_{origin}_origin"]
    page = _call(server, webhook_id, "page", {"origin": FOREIGN})
    assert page == chat_golden[f"{chat}_page_foreign_origin"]


def test_a_refused_preflight_still_gets_n8ns_cors_headers(
    server: Server, chats: Chats, chat_golden: dict[str, Any]
) -> None:
    webhook_id, _ = chats["basic", 1.4]
    preflight = httpx.options(
        f"{server.url}/webhook/{webhook_id}/chat",
        headers={
            "origin": FOREIGN,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        },
    )
    assert _answer(preflight) == chat_golden["basic_options_foreign_origin"]


def test_the_n8n_user_auth_page_asks_who_is_logged_in(server: Server, chats: Chats) -> None:
    """n8n serves the page to anyone and its script asks ``/rest/login``; Weft's page does the same."""
    webhook_id, _ = chats["user", 1.4]
    page = httpx.get(f"{server.url}/webhook/{webhook_id}/chat")
    assert page.status_code == 200
    assert '"authentication": "n8nUserAuth"' in page.text and 'fetch("/rest/login"' in page.text
