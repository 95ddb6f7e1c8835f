"""Chat Trigger through the real server: hosted page, ``lastNode`` and ``responseNode`` answers, auth, test URLs.

Most workflows are activated through the repository (as ``weft import:workflow --activate`` does); one test
activates through the REST API.
"""

from __future__ import annotations

import base64
import uuid
from typing import Any

import httpx

from weft.testing.workflows import connect, node, workflow

from .conftest import LiveServer, wait_for

LC = "@n8n/n8n-nodes-langchain."
TRIGGER = "When chat message received"


def chat_workflow(
    turns: list[Any],
    *,
    options: dict[str, Any] | None = None,
    memory: bool = True,
    after: list[dict[str, Any]] | None = None,
    **trigger: Any,
) -> tuple[dict[str, Any], str]:
    """Chat Trigger → AI Agent (scripted model, Simple Memory) [→ ``after`` nodes in a line]; and its webhookId."""
    webhook_id = str(uuid.uuid4())
    params = {"public": True, "options": options or {}, **trigger}
    parts: list[Any] = [
        {**node(TRIGGER, LC + "chatTrigger", params, version=1.4), "webhookId": webhook_id},
        node("AI Agent", LC + "agent", {"promptType": "auto"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        connect(TRIGGER, "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
    ]
    if memory:
        parts += [
            node("Simple Memory", LC + "memoryBufferWindow", {}, version=1.3),
            connect("Simple Memory", "AI Agent", type_="ai_memory"),
        ]
    previous = "AI Agent"
    for extra in after or []:
        parts += [extra, connect(previous, extra["name"])]
        previous = extra["name"]
    data = workflow(*parts)
    data["id"] = uuid.uuid4().hex[:16]
    for each in data["nodes"]:
        each.setdefault("id", str(uuid.uuid4()))
    return data, webhook_id


def activate(live: LiveServer, data: dict[str, Any]) -> None:
    live.instance.store.workflows.import_workflow(data, activate=True)


def message(text: str, session: str = "s1") -> dict[str, Any]:
    return {"action": "sendMessage", "sessionId": session, "chatInput": text}


def last_execution(live: LiveServer, workflow_id: str) -> dict[str, Any]:
    rows = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] not in ("running", "new")])
    response = live.client.get(f"/rest/executions/{rows[0]['id']}", params={"includeData": True})
    data: dict[str, Any] = response.json()["data"]
    return data


def test_last_node_mode_answers_with_the_agent_output(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["Hello Ada!"])
    activate(live, data)
    response = live.client.post(f"/webhook/{webhook_id}/chat", json=message("Hi, I am Ada"))
    assert response.status_code == 200, response.text
    assert response.json() == {"output": "Hello Ada!"}
    execution = last_execution(live, data["id"])
    trigger_out = execution["data"]["resultData"]["runData"][TRIGGER][0]["data"]["main"][0][0]["json"]
    assert trigger_out == message("Hi, I am Ada")
    assert execution["mode"] == "webhook"


def test_the_hosted_page_is_served_without_external_resources(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["x"], options={"title": "Ask <Weft>", "subtitle": "We answer"})
    activate(live, data)
    page = live.client.get(f"/webhook/{webhook_id}/chat")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "<title>Ask &lt;Weft&gt;</title>" in page.text
    assert f'"webhookUrl": "/webhook/{webhook_id}/chat"' in page.text
    assert "\\u003cWeft>" in page.text  # the config JSON cannot close the <script> element
    assert "src=" not in page.text and "href=" not in page.text


def test_a_private_chat_answers_only_in_the_editors_chat_panel(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["From the chat panel"], public=False)
    activate(live, data)
    hidden = live.client.post(f"/webhook/{webhook_id}/chat", json=message("hi"))
    assert (hidden.status_code, hidden.content) == (404, b"")
    assert live.client.post(f"/webhook-test/{webhook_id}/chat", json=message("hi")).status_code == 404
    response = live.client.post(f"/rest/workflows/{data['id']}/chat", json=message("hi"))
    assert response.json() == {"output": "From the chat panel"}
    assert last_execution(live, data["id"])["mode"] == "manual"


def test_the_test_url_runs_an_inactive_saved_workflow_while_the_editor_listens(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["Saved, not active"])
    workflow_id = live.import_workflow(data, activate=False)
    assert live.client.post(f"/webhook/{webhook_id}/chat", json=message("hi")).status_code == 404
    assert live.client.post(f"/webhook-test/{webhook_id}/chat", json=message("hi")).status_code == 404
    started = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert started["testUrls"] == [f"{live.url}/webhook-test/{webhook_id}/chat"]
    response = live.client.post(f"/webhook-test/{webhook_id}/chat", json=message("hi"))
    assert response.json() == {"output": "Saved, not active"}
    assert last_execution(live, workflow_id)["mode"] == "manual"
    assert live.client.post(f"/webhook-test/{webhook_id}/chat", json=message("again")).status_code == 404


def test_basic_auth(live: LiveServer) -> None:
    created = live.client.post(
        "/rest/credentials",
        json={
            "name": f"chat-{uuid.uuid4().hex[:6]}",
            "type": "httpBasicAuth",
            "data": {"user": "ada", "password": "secret"},
        },
    )
    assert created.status_code == 201, created.text
    credential = created.json()["data"]
    data, webhook_id = chat_workflow(["Welcome"], authentication="basicAuth")
    data["nodes"][0]["credentials"] = {"httpBasicAuth": {"id": credential["id"], "name": credential["name"]}}
    activate(live, data)
    url = f"/webhook/{webhook_id}/chat"

    def basic(user: str, password: str) -> dict[str, str]:
        return {"authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}

    missing = live.client.post(url, json=message("hi"))
    assert (missing.status_code, missing.text) == (401, "Authorization is required!")
    assert missing.headers["www-authenticate"] == 'Basic realm="Webhook"'
    wrong = live.client.post(url, json=message("hi"), headers=basic("ada", "nope"))
    assert (wrong.status_code, wrong.text) == (403, "Authorization data is wrong!")
    right = live.client.post(url, json=message("hi"), headers=basic("ada", "secret"))
    assert right.json() == {"output": "Welcome"}


def test_n8n_user_auth_needs_a_login_session(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["Hello user"], authentication="n8nUserAuth")
    activate(live, data)
    url = f"/webhook/{webhook_id}/chat"
    anonymous = httpx.post(f"{live.url}{url}", json=message("hi"))
    assert (anonymous.status_code, anonymous.text) == (500, "User not authenticated!")
    assert httpx.get(f"{live.url}{url}").status_code == 200  # the page asks /rest/login itself
    assert live.client.post(url, json=message("hi")).json() == {"output": "Hello user"}


def test_respond_to_chat_answers_in_response_node_mode(live: LiveServer) -> None:
    respond = node(
        "Respond to Chat",
        LC + "chat",
        {"message": "=Agent says: {{ $json.output }}", "waitUserReply": False},
        version=1.2,
    )
    data, webhook_id = chat_workflow(["42"], options={"responseMode": "responseNodes"}, after=[respond])
    activate(live, data)
    response = live.client.post(f"/webhook/{webhook_id}/chat", json=message("The answer?"))
    assert response.json() == {"output": "Agent says: 42"}


def test_respond_to_chat_waiting_for_a_reply_sends_and_waits(live: LiveServer) -> None:
    respond = node("Respond to Chat", LC + "chat", {"message": "Anything else?"})
    data, webhook_id = chat_workflow(["42"], options={"responseMode": "responseNodes"}, after=[respond])
    activate(live, data)
    response = live.client.post(f"/webhook/{webhook_id}/chat", json=message("The answer?"))
    assert (response.status_code, response.json()) == (200, {"output": "Anything else?"})
    rows = wait_for(lambda: [r for r in live.executions(data["id"]) if r["status"] == "waiting"])
    assert rows  # the reply resumes it: tests/hitl/test_chat_node.py


def test_load_previous_session_from_memory(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["Hello Ada!"], options={"loadPreviousSession": "memory"})
    data["connections"]["Simple Memory"]["ai_memory"][0].append({"node": TRIGGER, "type": "ai_memory", "index": 0})
    activate(live, data)
    url = f"/webhook/{webhook_id}/chat"
    assert live.client.post(url, json=message("I am Ada", "past")).status_code == 200
    previous = live.client.post(url, json={"action": "loadPreviousSession", "sessionId": "past"}).json()
    assert [(m["id"][-1], m["kwargs"]["content"]) for m in previous["data"]] == [
        ("HumanMessage", "I am Ada"),
        ("AIMessage", "Hello Ada!"),
    ]
    other = live.client.post(url, json={"action": "loadPreviousSession", "sessionId": "nobody"}).json()
    assert other == {"data": []}


def test_load_previous_session_from_a_memory_scoped_to_its_node(live: LiveServer) -> None:
    # Simple Memory 1.4 keeps a session from the input under the session id and its node's name
    data, webhook_id = chat_workflow(["Hello Bo!"], options={"loadPreviousSession": "memory"})
    data["connections"]["Simple Memory"]["ai_memory"][0].append({"node": TRIGGER, "type": "ai_memory", "index": 0})
    memory = next(n for n in data["nodes"] if n["name"] == "Simple Memory")
    memory["typeVersion"] = 1.4
    activate(live, data)
    url = f"/webhook/{webhook_id}/chat"
    assert live.client.post(url, json=message("I am Bo", "scoped")).status_code == 200
    previous = live.client.post(url, json={"action": "loadPreviousSession", "sessionId": "scoped"}).json()
    assert [m["kwargs"]["content"] for m in previous["data"]] == ["I am Bo", "Hello Bo!"]


def test_previous_session_is_empty_when_not_supported(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["x"])
    activate(live, data)
    response = live.client.post(f"/webhook/{webhook_id}/chat", json={"action": "loadPreviousSession", "sessionId": "a"})
    assert response.json() == {"data": []}
    assert live.executions(data["id"]) == []


def test_unknown_chat_ids_and_bad_bodies(live: LiveServer) -> None:
    unknown = str(uuid.uuid4())
    missing = live.client.post(f"/webhook/{unknown}/chat", json=message("hi"))
    assert missing.status_code == 404
    assert missing.json()["message"] == f'The requested webhook "POST {unknown}/chat" is not registered.'
    data, webhook_id = chat_workflow(["x"])
    activate(live, data)
    json_type = {"content-type": "application/json"}
    bad = live.client.post(f"/webhook/{webhook_id}/chat", content=b"{nope", headers=json_type)
    assert bad.status_code == 400
    preflight = live.client.options(
        f"/webhook/{webhook_id}/chat",
        headers={"origin": "https://example.com", "access-control-request-method": "POST"},
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == "https://example.com"


def test_files_become_binary_data(live: LiveServer) -> None:
    turns = ["Got your file"]
    data, webhook_id = chat_workflow(turns, options={"allowFileUploads": True}, memory=False)
    activate(live, data)
    response = live.client.post(
        f"/webhook/{webhook_id}/chat",
        data={"action": "sendMessage", "sessionId": "f", "chatInput": "see attached"},
        files={"files": ("notes.txt", b"hello", "text/plain")},
    )
    assert response.json() == {"output": "Got your file"}
    out = last_execution(live, data["id"])["data"]["resultData"]["runData"][TRIGGER][0]["data"]["main"][0][0]
    assert out["json"]["chatInput"] == "see attached"
    assert out["json"]["files"] == [
        {
            "mimeType": "text/plain",
            "fileSize": "5 B",
            "fileName": "notes.txt",
            "fileExtension": "txt",
            "fileType": "text",
            "binaryKey": "data0",
        }
    ]
    stored = out["binary"]["data0"]  # in the binary-data store (filesystem mode), read back over REST
    assert stored["data"] == "filesystem-v2" and stored["bytes"] == 5
    assert live.client.get("/rest/binary-data", params={"id": stored["id"], "action": "download"}).content == b"hello"


def test_a_webhook_path_ending_in_chat_is_still_a_webhook(live: LiveServer) -> None:
    path = f"hooks-{uuid.uuid4().hex[:8]}/chat"
    hook = node(
        "Hook", "n8n-nodes-base.webhook", {"path": path, "httpMethod": "POST", "responseMode": "lastNode"}, version=2
    )
    data = workflow(hook, node("Pass", "n8n-nodes-base.noOp"), connect("Hook", "Pass"))
    live.import_workflow(data)
    response = live.client.post(f"/webhook/{path}", json={"a": 1})
    assert response.status_code == 200, response.text
    assert response.json()["body"] == {"a": 1}


def test_a_chat_only_workflow_can_be_activated_through_the_rest_api(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["Hi!"], memory=False)
    live.import_workflow(data, activate=True)
    response = live.client.post(f"/webhook/{webhook_id}/chat", json=message("hello"))
    assert response.status_code == 200, response.text
    assert response.json() == {"output": "Hi!"}
