"""Records what n8n answers on the Chat Trigger's URLs for each authentication and ``allowedOrigins`` (run by hand).

Write the workflows and the credential, import them into a fresh n8n 2.8.4, publish the workflows, start it::

    .venv/bin/python tests/security/_record_n8n_chat.py --write /tmp/chat-import   # workflows.json, creds.json
    n8n import:credentials --input=/tmp/chat-import/creds.json
    n8n import:workflow --separate --input=/tmp/chat-import/workflows   # then publish:workflow --id=<each id>
    n8n start
    .venv/bin/python tests/security/_record_n8n_chat.py http://127.0.0.1:5871

The recording sets the owner up (for ``n8nUserAuth``) and writes ``tests/security/n8n_chat_answers.json``: for
each case the status, the JSON (or text) body and the headers that matter. The chat page itself is kept as
whether it was served (``"page": true``), not its HTML. :data:`CHATS` is shared with the tests.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any

import httpx

OWNER = {"email": "owner@example.com", "firstName": "Ada", "lastName": "Owner", "password": "Passw0rd-long"}
CREDENTIAL_ID = "chatBasicCred001"
BASIC = {"user": "alice", "password": "s3cret"}
FOREIGN = "http://evil.example"
ALLOWED = "http://allowed.example"
SECOND = "http://second.example"
MESSAGE = {"action": "sendMessage", "sessionId": "s1", "chatInput": "hello"}
KEEP = (
    "www-authenticate",
    "access-control-allow-origin",
    "access-control-allow-methods",
    "access-control-allow-headers",
    "access-control-max-age",
    "access-control-allow-credentials",
    "vary",
)

#: ``name → (webhookId, Chat Trigger parameters, with the basic credential)``.
CHATS: dict[str, tuple[str, dict[str, Any], bool]] = {
    "none": ("0c4f7b1e-0000-4000-8000-000000000001", {"public": True, "options": {}}, False),
    "basic": (
        "0c4f7b1e-0000-4000-8000-000000000002",
        {"public": True, "authentication": "basicAuth", "options": {}},
        True,
    ),
    "basicnocred": (
        "0c4f7b1e-0000-4000-8000-000000000003",
        {"public": True, "authentication": "basicAuth", "options": {}},
        False,
    ),
    "user": (
        "0c4f7b1e-0000-4000-8000-000000000004",
        {"public": True, "authentication": "n8nUserAuth", "options": {}},
        False,
    ),
    "origin": ("0c4f7b1e-0000-4000-8000-000000000005", {"public": True, "options": {"allowedOrigins": ALLOWED}}, False),
    "origins": (
        "0c4f7b1e-0000-4000-8000-000000000006",
        {"public": True, "options": {"allowedOrigins": f"{ALLOWED},{SECOND}"}},
        False,
    ),
    "private": ("0c4f7b1e-0000-4000-8000-000000000007", {"public": False, "options": {}}, False),
    "embedded": (
        "0c4f7b1e-0000-4000-8000-000000000008",
        {"public": True, "mode": "webhook", "authentication": "basicAuth", "options": {}},
        True,
    ),
}


def basic(user: str, password: str) -> dict[str, str]:
    return {"authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


#: ``case (with {} for page/post) → (chat, request headers)``; ``<login>`` stands for the owner's session cookie.
AUTH_CASES: dict[str, tuple[str, dict[str, str]]] = {
    "basic_{}_none": ("basic", {}),
    "basic_{}_wrong": ("basic", basic("alice", "wrong")),
    "basic_{}_wrong_user": ("basic", basic("bob", "s3cret")),
    "basic_{}_bearer": ("basic", {"authorization": "Bearer abc"}),
    "basic_{}_ok": ("basic", basic("alice", "s3cret")),
    "basicnocred_{}": ("basicnocred", basic("alice", "s3cret")),
    "user_{}_none": ("user", {}),
    "user_{}_garbage_cookie": ("user", {"cookie": "n8n-auth=garbage"}),
    "user_{}_empty_cookie": ("user", {"cookie": "n8n-auth="}),
    "user_{}_ok": ("user", {"cookie": "<login>"}),
    "embedded_{}_none": ("embedded", {}),
    "embedded_{}_ok": ("embedded", basic("alice", "s3cret")),
}


def chat_workflow(name: str, version: float = 1.4) -> dict[str, Any]:
    """A workflow of one Chat Trigger (answering with the last node, i.e. its own item)."""
    webhook_id, parameters, with_credential = CHATS[name]
    node: dict[str, Any] = {
        "parameters": parameters,
        "name": "When chat message received",
        "type": "@n8n/n8n-nodes-langchain.chatTrigger",
        "typeVersion": version,
        "position": [0, 0],
        "webhookId": webhook_id,
        "id": webhook_id,
    }
    if with_credential:
        node["credentials"] = {"httpBasicAuth": {"id": CREDENTIAL_ID, "name": "chat basic"}}
    return {
        "id": f"chat{name}"[:16].ljust(16, "0"),
        "name": f"chat {name}",
        "nodes": [node],
        "connections": {},
        "settings": {"executionOrder": "v1"},
        "active": False,
    }


def write_import(folder: Path) -> None:
    (folder / "workflows").mkdir(parents=True, exist_ok=True)
    for name in CHATS:
        (folder / "workflows" / f"{name}.json").write_text(json.dumps(chat_workflow(name), indent=2))
    creds = [{"id": CREDENTIAL_ID, "name": "chat basic", "type": "httpBasicAuth", "data": BASIC}]
    (folder / "creds.json").write_text(json.dumps(creds, indent=2))


def answer(response: httpx.Response, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Status, body (or that it is the page) and the headers compared; ``skip`` leaves some headers out."""
    entry: dict[str, Any] = {"status": response.status_code}
    if response.headers.get("content-type", "").startswith("text/html") and "<html" in response.text:
        entry["page"] = True
    else:
        try:
            entry["body"] = response.json()
        except ValueError:
            entry["body"] = response.text
    headers = {name: response.headers[name] for name in KEEP if name in response.headers and name not in skip}
    if headers:
        entry["headers"] = headers
    return entry


def record(base: str) -> dict[str, Any]:
    client = httpx.Client(base_url=base, timeout=30)
    client.post("/rest/owner/setup", json=OWNER)
    login = client.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]})
    cookie = login.cookies.get("n8n-auth") or client.cookies.get("n8n-auth")
    url = lambda name: f"{base}/webhook/{CHATS[name][0]}/chat"  # noqa: E731
    get = lambda name, **kw: answer(httpx.get(url(name), timeout=30, **kw))  # noqa: E731
    post = lambda name, **kw: answer(httpx.post(url(name), json=MESSAGE, timeout=30, **kw))  # noqa: E731

    def options(name: str, origin: str) -> Any:
        headers = {
            "origin": origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        }
        return answer(httpx.options(url(name), timeout=30, headers=headers))

    out: dict[str, Any] = {}
    out["none_page"] = get("none")
    out["none_post"] = post("none")
    out["none_load_session"] = answer(
        httpx.post(url("none"), json={"action": "loadPreviousSession", "sessionId": "s1"})
    )
    out["private_page"] = get("private")
    out["private_post"] = post("private")
    for method, call in (("page", get), ("post", post)):
        for suffix, extra in (("", {}), ("_foreign_origin", {"origin": FOREIGN})):
            for case, (name, headers) in AUTH_CASES.items():
                headers = {**headers, "cookie": f"n8n-auth={cookie}"} if headers.get("cookie") == "<login>" else headers
                out[f"{case.format(method)}{suffix}"] = call(name, headers={**headers, **extra})
    out["user_load_session_none"] = answer(httpx.post(url("user"), json={"action": "loadPreviousSession"}))
    for name in ("none", "origin", "origins"):
        for label, origin in (("foreign", FOREIGN), ("allowed", ALLOWED), ("second", SECOND)):
            out[f"{name}_post_{label}_origin"] = post(name, headers={"origin": origin})
            out[f"{name}_options_{label}_origin"] = options(name, origin)
        out[f"{name}_page_foreign_origin"] = get(name, headers={"origin": FOREIGN})
    out["basic_post_none_foreign_origin"] = post("basic", headers={"origin": FOREIGN})
    out["basic_options_foreign_origin"] = options("basic", FOREIGN)
    client.post("/rest/logout")
    out["user_post_logged_out_cookie"] = post("user", cookies={"n8n-auth": cookie})
    return out


def main() -> None:
    if sys.argv[1] == "--write":
        write_import(Path(sys.argv[2]))
        return
    target = Path(__file__).with_name("n8n_chat_answers.json")
    answers = {"n8n": "2.8.4", "chat": record(sys.argv[1])}
    target.write_text(json.dumps(answers, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
