"""Sessions expire when idle, test URLs serve the workflow the editor listens with, production URLs only active
ones, and the example workflow serves its tools."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import app_of

from weft.errors import ConfigurationError
from weft.server.mcp.sessions import SessionStore, idle_ttl_from_env

from ._answers import INIT, answer, rpc
from ._workflows import mcp_workflow
from .conftest import ACCEPT, McpServer, wait_for

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "mcp_server_trigger.json"


def test_idle_streamable_sessions_are_forgotten() -> None:
    store = SessionStore(idle_ttl=60)
    idle, busy, stream = store.create("streamable"), store.create("streamable"), store.create("sse")
    idle.last_seen -= 61
    stream.last_seen -= 61
    assert store.sweep() == [idle.id]
    assert store.get(idle.id) is None
    assert store.get(busy.id) is busy and store.get(stream.id) is stream  # SSE sessions end with their stream


def test_the_idle_timeout_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEFT_MCP_SESSION_IDLE_TTL", "30")
    assert idle_ttl_from_env() == 30
    monkeypatch.setenv("WEFT_MCP_SESSION_IDLE_TTL", "soon")
    with pytest.raises(ConfigurationError, match="WEFT_MCP_SESSION_IDLE_TTL='soon'"):
        idle_ttl_from_env()


def test_an_expired_session_is_not_found(mcp: McpServer, golden: dict[str, Any]) -> None:
    url = mcp.mcp_url("v2")
    with httpx.Client(timeout=10) as client:
        sid = client.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
        store: SessionStore = app_of(mcp.server).state.mcp.sessions
        session = store.get(sid)
        assert session is not None
        session.last_seen -= store.idle_ttl + 1
        expired = client.post(url, json=rpc("tools/list"), headers={**ACCEPT, "mcp-session-id": sid})
    assert answer(expired) == golden["streamable"]["unknown_session"]


def test_inactive_workflows_answer_only_on_the_test_url_the_editor_listens_on(mcp: McpServer) -> None:
    path = mcp.serve("inactive", mcp_workflow("mcpInactive0001", "inactive", tools=["Calculator"]), activate=False)
    with httpx.Client(timeout=10) as client:
        refused = client.post(f"{mcp.url}/mcp/{path}", json=INIT, headers=ACCEPT)
        assert refused.status_code == 404
        assert refused.json()["message"] == f'The requested webhook "POST {path}" is not registered.'
        url = mcp.mcp_url("inactive", test=True)
        refused = client.post(url, json=INIT, headers=ACCEPT)
        assert refused.json()["message"] == f'The requested webhook "{path}" is not registered.'
        listening = mcp.owner.post(f"/rest/workflows/{mcp.ids['inactive']}/run").json()["data"]
        assert listening["testUrls"] == [url]
        sid = client.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
        call = rpc("tools/call", {"name": "Calculator", "arguments": {"input": "5*5"}}, 2)
        called = client.post(url, json=call, headers={**ACCEPT, "mcp-session-id": sid})
    assert answer(called)["events"][0]["result"] == {"content": [{"type": "text", "text": "25"}]}
    rows = wait_for(lambda: [e for e in mcp.executions("inactive") if e["status"] == "success"])
    assert [row["mode"] for row in rows] == ["manual"]


def test_the_example_serves_its_tools(mcp: McpServer) -> None:
    shout = json.loads(EXAMPLE.with_name("mcp_shout_workflow.json").read_text())  # the Workflow Tool's workflow
    assert mcp.owner.post("/rest/workflows/import", json=shout).status_code == 201
    workflow: dict[str, Any] = json.loads(EXAMPLE.read_text())
    mcp.serve("example", workflow)
    url = mcp.mcp_url("example")
    with httpx.Client(timeout=10) as client:
        sid = client.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
        headers = {**ACCEPT, "mcp-session-id": sid}
        listed = answer(client.post(url, json=rpc("tools/list"), headers=headers))["events"][0]["result"]["tools"]
        assert [t["name"] for t in listed] == ["Shout", "Server_Health", "Repeat", "Think", "Calculator"]
        call = rpc("tools/call", {"name": "Repeat", "arguments": {"a": 3, "b": "la"}}, 2)
        repeated = answer(client.post(url, json=call, headers=headers))["events"][0]["result"]
        call = rpc("tools/call", {"name": "Shout", "arguments": {"text": "hello"}}, 3)
        shouted = answer(client.post(url, json=call, headers=headers))["events"][0]["result"]
    assert repeated == {"content": [{"type": "text", "text": "lalala"}]}
    assert "HELLO!" in shouted["content"][0]["text"] and not shouted.get("isError")


def test_a_deactivated_workflow_stops_answering(mcp: McpServer) -> None:
    path = mcp.serve("short", mcp_workflow("mcpShortLived1", "short", tools=["Calculator"]))
    url = f"{mcp.url}/mcp/{path}"
    assert httpx.post(url, json=INIT, headers=ACCEPT, timeout=10).status_code == 200
    assert mcp.owner.post(f"/rest/workflows/{mcp.ids['short']}/deactivate").status_code == 200
    assert httpx.post(url, json=INIT, headers=ACCEPT, timeout=10).status_code == 404


def test_a_toolkit_is_served_flattened(mcp: McpServer) -> None:
    """An MCP Client Tool (a toolkit) connected to the trigger: each of its tools is served, and calls reach them."""
    workflow = mcp_workflow("mcpProxy000001", "proxy", tools=[])
    workflow["nodes"].append(
        {
            "parameters": {"endpointUrl": mcp.mcp_url("v1") + "/sse", "serverTransport": "sse"},
            "id": "mcpProxy-client",
            "name": "Remote",
            "type": "@n8n/n8n-nodes-langchain.mcpClientTool",
            "typeVersion": 1.2,
            "position": [0, 200],
        }
    )
    workflow["connections"] = {"Remote": {"ai_tool": [[{"node": "MCP Server Trigger", "type": "ai_tool", "index": 0}]]}}
    mcp.serve("proxy", workflow)
    url = mcp.mcp_url("proxy")
    with httpx.Client(timeout=20) as client:
        sid = client.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
        headers = {**ACCEPT, "mcp-session-id": sid}
        listed = answer(client.post(url, json=rpc("tools/list"), headers=headers))["events"][0]["result"]["tools"]
        assert [t["name"] for t in listed] == ["Remote_Failing_Tool", "Remote_Calculator"]  # named as n8n 2.41.1
        call = rpc("tools/call", {"name": "Remote_Calculator", "arguments": {"input": "4*4"}}, 2)
        called = answer(client.post(url, json=call, headers=headers))["events"][0]["result"]
    # the MCP Client Tool answers with the remote content, as JSON text
    assert called == {"content": [{"type": "text", "text": '[{"type":"text","text":"16"}]'}]}


def test_a_path_serves_one_active_trigger(mcp: McpServer) -> None:
    """The trigger's URLs are registered like a Webhook node's: a second active workflow cannot take the path."""
    path = mcp.serve("first", mcp_workflow("mcpFirst000001", "taken", tools=["Calculator"]))
    second = mcp_workflow("mcpSecond00001", path, tools=["Calculator"])
    second["id"] = "mcpSecond00001"
    imported = mcp.owner.post("/rest/workflows/import", json=second, params={"activate": True})
    assert imported.status_code == 400
    message = imported.json()["message"]
    assert message.startswith(f"The GET webhook path '{path}' of node 'MCP Server Trigger' is already used")
    assert httpx.post(f"{mcp.url}/mcp/{path}", json=INIT, headers=ACCEPT, timeout=10).status_code == 200
