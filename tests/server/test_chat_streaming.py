"""Chat Trigger ``responseMode: streaming``: the agent's tokens reach the client while the execution runs.

NDJSON (n8n's format, one chunk per line) by default; server-sent events with ``Accept: text/event-stream``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from weft.testing.workflows import node

from .conftest import LiveServer
from .test_chat import LC, TRIGGER, activate, chat_workflow, last_execution, message

STREAMING = {"responseMode": "streaming"}


def ndjson(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


def test_the_answer_streams_as_ndjson(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["Hello there, Ada"], options=STREAMING)
    activate(live, data)
    response = live.client.post(f"/webhook/{webhook_id}/chat", json=message("Hi"))
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert response.headers.get("transfer-encoding") == "chunked"
    chunks = ndjson(response.text)
    assert (chunks[0]["type"], chunks[-1]["type"]) == ("begin", "end")
    assert "".join(c["content"] for c in chunks if c["type"] == "item") == "Hello there, Ada"
    assert len([c for c in chunks if c["type"] == "item"]) > 1  # token by token, not one piece
    metadata = chunks[0]["metadata"]
    assert {k: metadata[k] for k in ("nodeName", "runIndex", "itemIndex")} == {
        "nodeName": "AI Agent",
        "runIndex": 0,
        "itemIndex": 0,
    }
    assert isinstance(metadata["timestamp"], int)
    assert metadata["nodeId"] == next(n["id"] for n in data["nodes"] if n["name"] == "AI Agent")
    assert last_execution(live, data["id"])["status"] == "success"


def test_server_sent_events_when_asked(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["Streamed as events"], options=STREAMING)
    activate(live, data)
    response = live.client.post(
        f"/webhook/{webhook_id}/chat", json=message("Hi"), headers={"accept": "text/event-stream"}
    )
    assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
    events = [e for e in response.text.split("\n\n") if e]
    assert all(e.startswith("data: ") for e in events)
    chunks = [json.loads(e[len("data: ") :]) for e in events]
    assert "".join(c["content"] for c in chunks if c["type"] == "item") == "Streamed as events"


def test_the_first_tokens_arrive_before_the_agent_finishes(live: LiveServer) -> None:
    turns = [
        {"text": "Let me compute that. ", "tool": "Calculator", "args": {"input": "2+2"}},
        {"text": "It is 4.", "delay": 1.0},
    ]
    data, webhook_id = chat_workflow(turns, options=STREAMING)
    data["nodes"].append(node("Calculator", LC + "toolCalculator"))
    data["connections"]["Calculator"] = {"ai_tool": [[{"node": "AI Agent", "type": "ai_tool", "index": 0}]]}
    activate(live, data)
    arrivals: list[tuple[float, dict[str, Any]]] = []
    started = time.monotonic()
    with live.client.stream("POST", f"/webhook/{webhook_id}/chat", json=message("2+2?")) as response:
        for line in response.iter_lines():
            if line:
                arrivals.append((time.monotonic() - started, json.loads(line)))
    first_item = next(t for t, c in arrivals if c["type"] == "item")
    last = arrivals[-1][0]
    assert last - first_item >= 0.8, arrivals  # the first turn's tokens came before the delayed second turn
    text = "".join(c["content"] for _, c in arrivals if c["type"] == "item")
    assert text.startswith("Let me compute that. ") and text.endswith("It is 4.")
    assert [c["type"] for _, c in arrivals].count("begin") == 2


def test_a_workflow_without_a_streaming_node_still_answers(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(["unused"], options=STREAMING, memory=False)
    data["nodes"] = [n for n in data["nodes"] if n["name"] == TRIGGER] + [node("Echo", "n8n-nodes-base.noOp")]
    data["connections"] = {TRIGGER: {"main": [[{"node": "Echo", "type": "main", "index": 0}]]}}
    activate(live, data)
    chunks = ndjson(live.client.post(f"/webhook/{webhook_id}/chat", json=message("ping")).text)
    assert [c["type"] for c in chunks] == ["begin", "item", "end"]
    assert json.loads(chunks[1]["content"]) == message("ping")


def test_a_failing_model_sends_an_error_chunk(live: LiveServer) -> None:
    data, webhook_id = chat_workflow([{"error": 500, "message": "model is down"}], options=STREAMING)
    activate(live, data)
    chunks = ndjson(live.client.post(f"/webhook/{webhook_id}/chat", json=message("Hi")).text)
    errors = [c for c in chunks if c["type"] == "error"]
    assert len(errors) == 1 and errors[0]["metadata"]["nodeName"] == "AI Agent"
    assert last_execution(live, data["id"])["status"] == "error"


def test_respond_to_chat_streams_its_message(live: LiveServer) -> None:
    respond = node("Respond to Chat", LC + "chat", {"message": "=Done: {{ $json.output }}", "waitUserReply": False})
    data, webhook_id = chat_workflow(["ok"], options=STREAMING, after=[respond])
    activate(live, data)
    chunks = ndjson(live.client.post(f"/webhook/{webhook_id}/chat", json=message("Hi")).text)
    items = [(c["metadata"]["nodeName"], c["content"]) for c in chunks if c["type"] == "item"]
    assert items[-1] == ("Respond to Chat", "Done: ok")
