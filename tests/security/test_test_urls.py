"""Finding: test URLs were open for every saved workflow, active or not, to anyone.

An anonymous caller could call an inactive workflow's MCP tools at ``/mcp-test/<path>``, chat with a Chat
Trigger that is not ``public`` at ``/webhook-test/<webhookId>/chat`` and start executions through an inactive
form at ``/form-test/<path>``. As n8n's test webhooks, a test URL now answers only while the editor listens for it
("Execute workflow": ``POST /rest/workflows/{id}/run``, 120 s), for one test run; a chat that is not public never
answers on it (the editor's own chat panel, behind the login, still does).
"""

from __future__ import annotations

import uuid
from typing import Any

import httpx
from tests.forms._record_n8n import multipart
from tests.mcp.server._answers import INIT, answer, rpc
from tests.mcp.server._workflows import mcp_workflow
from tests.server.conftest import wait_for

from .conftest import Server, unique

ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
NOT_LISTENING_HINT = (
    "Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works "
    "for one call after you click this button)"
)
MESSAGE = {"action": "sendMessage", "sessionId": "s1", "chatInput": "hello"}


def _not_registered(response: httpx.Response, path: str) -> None:
    assert response.status_code == 404, response.text
    assert response.json() == {
        "code": 404,
        "message": f'The requested webhook "{path}" is not registered.',
        "hint": NOT_LISTENING_HINT,
    }


def _listen(server: Server, workflow_id: str) -> list[str]:
    started: dict[str, Any] = server.owner.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert started["waitingForWebhook"] is True, started
    urls: list[str] = started["testUrls"]
    return urls


# ---------------------------------------------------------------------------- MCP Server Trigger


def _mcp(server: Server) -> tuple[str, str]:
    path = unique("mcp-test")
    data = mcp_workflow(uuid.uuid4().hex[:16], path, tools=["Calculator"])
    return path, server.import_workflow(data, activate=False)


def _call_calculator(client: httpx.Client, url: str) -> httpx.Response:
    """An MCP client's session: ``initialize``, then ``tools/call`` in that session."""
    opened = client.post(url, json=INIT, headers=ACCEPT)
    if opened.status_code != 200:
        return opened
    session = {**ACCEPT, "mcp-session-id": opened.headers["mcp-session-id"]}
    call = rpc("tools/call", {"name": "Calculator", "arguments": {"input": "6*7"}}, 2)
    return client.post(url, json=call, headers=session)


def test_an_inactive_mcp_trigger_answers_no_one_on_its_test_url(server: Server, anon: httpx.Client) -> None:
    path, workflow_id = _mcp(server)
    _not_registered(_call_calculator(anon, f"/mcp-test/{path}"), path)
    call = rpc("tools/call", {"name": "Calculator", "arguments": {"input": "6*7"}}, 2)
    _not_registered(anon.post(f"/mcp-test/{path}", json=call, headers=ACCEPT), path)
    _not_registered(anon.get(f"/mcp-test/{path}"), path)  # no SSE session either
    assert server.executions(workflow_id) == []


def test_a_listening_mcp_test_url_serves_one_session_up_to_its_tool_call(server: Server, anon: httpx.Client) -> None:
    path, workflow_id = _mcp(server)
    assert _listen(server, workflow_id) == [f"{server.url}/mcp-test/{path}"]
    url = f"/mcp-test/{path}"
    opened = anon.post(url, json=INIT, headers=ACCEPT)
    assert opened.status_code == 200
    session = {**ACCEPT, "mcp-session-id": opened.headers["mcp-session-id"]}
    listed = answer(anon.post(url, json=rpc("tools/list"), headers=session))["events"][0]["result"]["tools"]
    assert [tool["name"] for tool in listed] == ["Calculator"]  # initialize and tools/list keep it listening
    call = rpc("tools/call", {"name": "Calculator", "arguments": {"input": "6*7"}}, 2)
    called = answer(anon.post(url, json=call, headers=session))
    assert called["events"][0]["result"] == {"content": [{"type": "text", "text": "42"}]}
    rows = wait_for(lambda: [r for r in server.executions(workflow_id) if r["status"] == "success"])
    assert [row["mode"] for row in rows] == ["manual"]
    # the test run happened: the URL stops answering, in the session and out of it
    _not_registered(anon.post(url, json=call, headers=session), path)
    _not_registered(_call_calculator(anon, url), path)
    assert len(server.executions(workflow_id)) == 1


# ---------------------------------------------------------------------------- Chat Trigger


def _chat(server: Server, *, public: bool) -> tuple[str, str]:
    webhook_id = str(uuid.uuid4())
    node = {
        "parameters": {"public": public, "options": {}},
        "name": "When chat message received",
        "type": "@n8n/n8n-nodes-langchain.chatTrigger",
        "typeVersion": 1.4,
        "position": [0, 0],
        "webhookId": webhook_id,
        "id": str(uuid.uuid4()),
    }
    data = {"id": uuid.uuid4().hex[:16], "name": unique("chat"), "nodes": [node], "connections": {}}
    return webhook_id, server.import_workflow(data, activate=False)


def test_a_chat_that_is_not_public_never_answers_on_its_test_url(server: Server, anon: httpx.Client) -> None:
    webhook_id, workflow_id = _chat(server, public=False)
    url = f"/webhook-test/{webhook_id}/chat"
    _not_registered(anon.post(url, json=MESSAGE), f"{webhook_id}/chat")
    # "Execute workflow" does not open it either: there is nothing to listen with
    listening = server.owner.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert listening.get("waitingForWebhook") is not True
    before = len(server.executions(workflow_id))
    for response in (anon.post(url, json=MESSAGE), anon.get(url)):
        assert response.status_code == 404 and "hello" not in response.text
    assert len(server.executions(workflow_id)) == before
    # the editor's chat panel (behind the login) still chats with it
    assert anon.post(f"/rest/workflows/{workflow_id}/chat", json=MESSAGE).status_code == 401
    answered = server.owner.post(f"/rest/workflows/{workflow_id}/chat", json=MESSAGE)
    assert answered.status_code == 200 and answered.json()["chatInput"] == "hello"


def test_a_public_chat_answers_on_its_test_url_once_per_listen(server: Server, anon: httpx.Client) -> None:
    webhook_id, workflow_id = _chat(server, public=True)
    url = f"/webhook-test/{webhook_id}/chat"
    _not_registered(anon.post(url, json=MESSAGE), f"{webhook_id}/chat")
    assert server.executions(workflow_id) == []
    assert _listen(server, workflow_id) == [f"{server.url}{url}"]
    assert anon.get(url).status_code == 200  # the hosted page keeps it listening
    assert anon.post(url, json=MESSAGE).json()["chatInput"] == "hello"
    _not_registered(anon.post(url, json=MESSAGE), f"{webhook_id}/chat")
    assert len(server.executions(workflow_id)) == 1


# ---------------------------------------------------------------------------- Form Trigger


def _form(server: Server) -> tuple[str, str]:
    path = unique("form-test")
    node = {
        "parameters": {"formTitle": "Sign up", "formFields": {"values": [{"fieldLabel": "Name"}]}, "path": path},
        "name": "Form",
        "type": "n8n-nodes-base.formTrigger",
        "typeVersion": 2.3,
        "position": [0, 0],
        "webhookId": str(uuid.uuid4()),
        "id": str(uuid.uuid4()),
    }
    data = {"id": uuid.uuid4().hex[:16], "name": unique("form"), "nodes": [node], "connections": {}}
    return path, server.import_workflow(data, activate=False)


def _submit(client: httpx.Client, url: str) -> httpx.Response:
    body, content_type = multipart([("field-0", "Mallory")], [])
    return client.post(url, content=body, headers={"content-type": content_type})


def test_an_inactive_form_starts_nothing_on_its_test_url(server: Server, anon: httpx.Client) -> None:
    path, workflow_id = _form(server)
    page = anon.get(f"/form-test/{path}")
    assert page.status_code == 404 and "listening yet" in page.text
    refused = _submit(anon, f"/form-test/{path}")
    assert refused.status_code == 404 and "listening yet" in refused.text
    assert server.executions(workflow_id) == []


def test_a_listening_test_form_takes_one_submission(server: Server, anon: httpx.Client) -> None:
    path, workflow_id = _form(server)
    assert _listen(server, workflow_id) == [f"{server.url}/form-test/{path}"]
    for _ in range(2):  # showing the page leaves it listening (n8n: no execution, no end of listening)
        page = anon.get(f"/form-test/{path}")
        assert page.status_code == 200 and "This is a test version of your form" in page.text
    assert _submit(anon, f"/form-test/{path}").json() == {"status": 200}
    rows = wait_for(lambda: [r for r in server.executions(workflow_id) if r["status"] == "success"])
    assert [row["mode"] for row in rows] == ["manual"]
    assert _submit(anon, f"/form-test/{path}").status_code == 404
    assert anon.get(f"/form-test/{path}").status_code == 404
    assert len(server.executions(workflow_id)) == 1
