"""HTML a workflow answers runs in a sandbox, not on the editor's origin (issue 19, high severity).

The attack: a workflow echoes a request value into an HTML answer (Respond to Webhook ``text``, a Webhook's
``lastNode`` answer typed ``text/html``, a file answered as binary, a resumed Wait node, a form's answer). A link to
``/webhook/<path>?name=<script>…`` sent to the owner ran its script with the owner's session: it read their data and
created an API key. Weft now answers such pages with n8n's ``Content-Security-Policy: sandbox …`` (no
``allow-same-origin``): the script runs as an opaque origin, without the session. ``WEFT_INSECURE_DISABLE_WEBHOOK_
IFRAME_SANDBOX=true`` turns it off, as n8n's ``N8N_INSECURE_DISABLE_WEBHOOK_IFRAME_SANDBOX``.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from tests.forms._record_n8n import multipart

from ._extra_server import extra_server
from .conftest import Server, unique, wait_for

#: n8n's ``getWebhookSandboxCSP()`` (n8n-core ``html-sandbox``), byte for byte.
N8N_SANDBOX = (
    "sandbox allow-downloads allow-forms allow-modals allow-orientation-lock allow-pointer-lock allow-popups "
    "allow-presentation allow-scripts allow-top-navigation allow-top-navigation-by-user-activation "
    "allow-top-navigation-to-custom-protocols"
)
#: What the attacker's link carries: read the owner's data, make an API key.
PAYLOAD = "<script>fetch('/rest/api-keys',{method:'POST',credentials:'include'})</script>"


def _node(name: str, kind: str, parameters: dict[str, Any], version: float = 1) -> dict[str, Any]:
    return {
        "parameters": parameters,
        "name": name,
        "type": kind,
        "typeVersion": version,
        "position": [0, 0],
        "id": uuid.uuid4().hex,
        "webhookId": uuid.uuid4().hex,
    }


def _flow(*nodes: dict[str, Any]) -> dict[str, Any]:
    connections = {
        a["name"]: {"main": [[{"node": b["name"], "type": "main", "index": 0}]]} for a, b in itertools.pairwise(nodes)
    }
    return {
        "id": uuid.uuid4().hex[:16],
        "name": unique("sandbox"),
        "nodes": list(nodes),
        "connections": connections,
        "settings": {"executionOrder": "v1"},
    }


def _webhook(path: str, method: str = "GET", **parameters: Any) -> dict[str, Any]:
    return _node("Webhook", "n8n-nodes-base.webhook", {"path": path, "httpMethod": method, **parameters}, 2)


def _respond(parameters: dict[str, Any]) -> dict[str, Any]:
    return _node("Respond", "n8n-nodes-base.respondToWebhook", parameters, 1.1)


def _echo_page(server: Server) -> str:
    """Respond to Webhook answering ``<h1>Hello {{ name }}</h1>``; returns its path."""
    path = unique("echo")
    respond = _respond({"respondWith": "text", "responseBody": "=<h1>Hello {{ $json.query.name }}</h1>"})
    server.import_workflow(_flow(_webhook(path, responseMode="responseNode"), respond))
    return path


def _sandboxed(response: httpx.Response) -> None:
    assert response.status_code == 200, response.text
    assert response.headers.get("content-security-policy") == N8N_SANDBOX
    assert "allow-same-origin" not in response.headers["content-security-policy"]


def test_respond_to_webhook_html_is_sandboxed(server: Server, anon: httpx.Client) -> None:
    answer = anon.get(f"/webhook/{_echo_page(server)}", params={"name": PAYLOAD})
    assert answer.headers["content-type"].startswith("text/html")
    assert PAYLOAD in answer.text  # the workflow echoes it: the sandbox is what keeps it off the editor's origin
    _sandboxed(answer)


def test_a_workflow_cannot_answer_its_own_policy_instead(server: Server, anon: httpx.Client) -> None:
    path = unique("own-csp")
    headers = {"entries": [{"name": "Content-Security-Policy", "value": "script-src *"}]}
    respond = _respond(
        {"respondWith": "text", "responseBody": "={{ $json.query.name }}", "options": {"responseHeaders": headers}}
    )
    server.import_workflow(_flow(_webhook(path, responseMode="responseNode"), respond))
    _sandboxed(anon.get(f"/webhook/{path}", params={"name": PAYLOAD}))


def test_last_node_answer_typed_html_is_sandboxed(server: Server, anon: httpx.Client) -> None:
    path = unique("last")
    options = {"responsePropertyName": "query", "responseContentType": "text/html"}
    server.import_workflow(_flow(_webhook(path, responseMode="lastNode", options=options)))
    answer = anon.get(f"/webhook/{path}", params={"name": PAYLOAD})
    assert PAYLOAD.replace("/", "\\/") in answer.text or PAYLOAD in answer.text
    _sandboxed(answer)


def test_an_uploaded_html_file_answered_as_binary_is_sandboxed(server: Server, anon: httpx.Client) -> None:
    path = unique("binary")
    respond = _respond({"respondWith": "binary"})
    server.import_workflow(_flow(_webhook(path, "POST", responseMode="responseNode"), respond))
    body, content_type = multipart([], [("data", ("evil.html", PAYLOAD.encode(), "text/html"))])
    answer = anon.post(f"/webhook/{path}", content=body, headers={"content-type": content_type})
    assert answer.content == PAYLOAD.encode() and answer.headers["content-type"].startswith("text/html")
    _sandboxed(answer)


def test_a_resumed_wait_node_answering_html_is_sandboxed(server: Server, anon: httpx.Client) -> None:
    path = unique("wait")
    start = _respond({"respondWith": "json", "responseBody": '={"resumeUrl": "{{ $execution.resumeUrl }}"}'})
    options = {"responsePropertyName": "query", "responseContentType": "text/html"}
    wait = _node(
        "Wait", "n8n-nodes-base.wait", {"resume": "webhook", "responseMode": "lastNode", "options": options}, 1.1
    )
    workflow_id = server.import_workflow(_flow(_webhook(path, responseMode="responseNode"), start, wait))
    resume_url = anon.get(f"/webhook/{path}").json()["resumeUrl"]
    assert "/webhook-waiting/" in resume_url
    wait_for(lambda: [row for row in server.executions(workflow_id) if row["status"] == "waiting"])
    answer = httpx.get(f"{resume_url}&name={quote(PAYLOAD)}", timeout=10)
    assert "<script>" in answer.text
    _sandboxed(answer)


def test_a_form_answered_with_html_is_sandboxed(server: Server, anon: httpx.Client) -> None:
    path = unique("form")
    fields = {"values": [{"fieldLabel": "Name"}]}
    trigger = _node(
        "Form",
        "n8n-nodes-base.formTrigger",
        {"formFields": fields, "options": {"path": path}, "responseMode": "responseNode"},
        2.1,
    )
    respond = _respond({"respondWith": "text", "responseBody": "=<p>Thanks {{ $json.Name }}</p>"})
    server.import_workflow(_flow(trigger, respond))
    body, content_type = multipart([("field-0", PAYLOAD)], [])
    answer = anon.post(f"/form/{path}", content=body, headers={"content-type": content_type})
    assert PAYLOAD in answer.text
    _sandboxed(answer)


def test_a_chat_answered_with_html_is_sandboxed(server: Server, anon: httpx.Client) -> None:
    """A cross-site form can post a chat message too: the answer to it is a page like any other."""
    webhook_id = uuid.uuid4().hex
    options = {"responseMode": "responseNode"}
    trigger = _node("Chat", "@n8n/n8n-nodes-langchain.chatTrigger", {"public": True, "options": options}, 1.4)
    respond = _respond({"respondWith": "text", "responseBody": "=<p>{{ $json.chatInput }}</p>"})
    server.import_workflow(_flow({**trigger, "webhookId": webhook_id}, respond))
    message = {"action": "sendMessage", "sessionId": "s1", "chatInput": PAYLOAD}
    answer = anon.post(f"/webhook/{webhook_id}/chat", json=message)
    assert PAYLOAD in answer.text
    _sandboxed(answer)


def test_json_answers_are_left_alone_as_n8n_leaves_them(server: Server, anon: httpx.Client) -> None:
    path = unique("json")
    server.import_workflow(_flow(_webhook(path, responseMode="lastNode")))
    answer = anon.get(f"/webhook/{path}", params={"name": PAYLOAD})
    assert answer.headers["content-type"].startswith("application/json")
    assert "content-security-policy" not in answer.headers


@pytest.fixture(scope="module")
def unsandboxed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"WEFT_INSECURE_DISABLE_WEBHOOK_IFRAME_SANDBOX": "true"}
    with extra_server(tmp_path_factory.mktemp("weft-unsandboxed"), env) as server:
        yield server


def test_the_operator_can_turn_the_sandbox_off(unsandboxed: Server) -> None:
    path = _echo_page(unsandboxed)
    with unsandboxed.client() as client:
        answer = client.get(f"/webhook/{path}", params={"name": "Ada"})
    assert (answer.status_code, answer.text) == (200, "<h1>Hello Ada</h1>")
    assert "content-security-policy" not in answer.headers
