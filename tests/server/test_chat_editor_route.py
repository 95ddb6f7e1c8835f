"""``POST /rest/workflows/<id>/chat``: the editor's chat panel talks to the workflow's chat trigger as its test URL
does (mode ``manual``; streamed when the trigger streams), lists a session's messages from memory, and answers
only behind the login."""

from __future__ import annotations

import json

import httpx

from .conftest import LiveServer
from .test_chat import LC, chat_workflow

TURNS = ["Noted.", "Your name is Ada."]


def test_a_manual_chat_trigger_answers_and_the_session_is_listed(live: LiveServer) -> None:
    data, _ = chat_workflow(TURNS)
    trigger = data["nodes"][0]
    trigger.update(type=LC + "manualChatTrigger", typeVersion=1.1, parameters={})
    memory = next(n for n in data["nodes"] if n["name"] == "Simple Memory")
    memory["typeVersion"] = 1.4  # its sessions are scoped to the node: the listing finds them there too
    workflow_id = live.import_workflow(data, activate=False)
    url = f"/rest/workflows/{workflow_id}/chat"
    message = {"action": "sendMessage", "sessionId": "route-s1", "chatInput": "My name is Ada"}
    answer = live.client.post(url, json=message)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"output": TURNS[0]}
    listed = live.client.post(url, json={"action": "loadPreviousSession", "sessionId": "route-s1"}).json()["data"]
    assert [m["kwargs"]["content"] for m in listed] == ["My name is Ada", TURNS[0]]
    assert live.client.post(url, json={"action": "loadPreviousSession", "sessionId": "other"}).json() == {"data": []}
    [row] = live.executions(workflow_id)
    assert row["mode"] == "manual"


def test_a_streaming_chat_trigger_streams_n8ns_chunks(live: LiveServer) -> None:
    data, _ = chat_workflow(["Hello there, Ada"], options={"responseMode": "streaming"}, authentication="basicAuth")
    workflow_id = live.import_workflow(data, activate=False)
    message = {"action": "sendMessage", "sessionId": "s1", "chatInput": "Hi"}
    answer = live.client.post(f"/rest/workflows/{workflow_id}/chat", json=message)
    assert answer.status_code == 200, answer.text  # the trigger's Basic Auth is not asked: the editor is logged in
    chunks = [json.loads(line) for line in answer.text.splitlines() if line]
    assert (chunks[0]["type"], chunks[-1]["type"]) == ("begin", "end")
    assert "".join(c["content"] for c in chunks if c["type"] == "item") == "Hello there, Ada"


def test_the_route_needs_a_chat_trigger_a_workflow_and_a_login(live: LiveServer) -> None:
    message = {"action": "sendMessage", "sessionId": "s1", "chatInput": "Hi"}
    no_chat = live.import_workflow({"name": "No chat", "nodes": [], "connections": {}}, activate=False)
    refused = live.client.post(f"/rest/workflows/{no_chat}/chat", json=message)
    assert refused.status_code == 400 and "Chat Trigger" in refused.json()["message"]
    assert live.client.post("/rest/workflows/nope/chat", json=message).status_code == 404
    data, _ = chat_workflow(["Hi"])
    workflow_id = live.import_workflow(data, activate=False)
    assert httpx.post(f"{live.url}/rest/workflows/{workflow_id}/chat", json=message).status_code == 401
