"""An AI Agent Tool served through the MCP Server Trigger: a client's ``tools/call`` runs the agent (its own model
here is scripted) and answers with its output; each call is a saved execution."""

from __future__ import annotations

from typing import Any

import httpx

from ._answers import INIT, answer, rpc
from .conftest import ACCEPT, McpServer, wait_for

LC = "@n8n/n8n-nodes-langchain."
PROMPT = "={{ $fromAI('Prompt__User_Message_', ``, 'string') }}"


def _workflow(turns: list[Any], *, with_calculator: bool = False) -> dict[str, Any]:
    nodes: list[dict[str, Any]] = [
        {
            "name": "MCP Server Trigger",
            "type": LC + "mcpTrigger",
            "typeVersion": 2,
            "position": [0, 0],
            "webhookId": "a7d4c0f3-0b55-4e3e-8d55-1f1b8b7a0c01",
            "parameters": {"path": "agents"},
        },
        {
            "name": "Helper",
            "type": LC + "agentTool",
            "typeVersion": 3,
            "position": [0, 200],
            "parameters": {"text": PROMPT, "toolDescription": "Answers questions", "options": {}},
        },
        {
            "name": "Model",
            "type": "weft.lmChatScripted",
            "typeVersion": 1,
            "position": [0, 400],
            "parameters": {"turns": turns},
        },
    ]
    connections: dict[str, Any] = {
        "Helper": {"ai_tool": [[{"node": "MCP Server Trigger", "type": "ai_tool", "index": 0}]]},
        "Model": {"ai_languageModel": [[{"node": "Helper", "type": "ai_languageModel", "index": 0}]]},
    }
    if with_calculator:
        nodes.append(
            {
                "name": "Calculator",
                "type": LC + "toolCalculator",
                "typeVersion": 1,
                "position": [200, 400],
                "parameters": {},
            }
        )
        connections["Calculator"] = {"ai_tool": [[{"node": "Helper", "type": "ai_tool", "index": 0}]]}
    return {"name": "agent over MCP", "nodes": nodes, "connections": connections, "settings": {"executionOrder": "v1"}}


def _call(mcp: McpServer, name: str, arguments: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    url = mcp.mcp_url(name)
    with httpx.Client(timeout=20) as client:
        sid = client.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
        headers = {**ACCEPT, "mcp-session-id": sid}
        listed = answer(client.post(url, json=rpc("tools/list"), headers=headers))["events"][0]["result"]["tools"]
        call = rpc("tools/call", {"name": "Helper", "arguments": arguments}, 2)
        result = answer(client.post(url, json=call, headers=headers))["events"][0]["result"]
    return listed, result


def test_an_agent_tool_is_served_and_answers(mcp: McpServer) -> None:
    mcp.serve("agent", _workflow(["You asked: {{last_human_message}}"]))
    listed, result = _call(mcp, "agent", {"Prompt__User_Message_": "what is MCP?"})
    [tool] = listed
    assert tool["name"] == "Helper" and tool["description"] == "Answers questions"
    assert tool["inputSchema"]["required"] == ["Prompt__User_Message_"]
    assert not result.get("isError")
    assert "You asked: what is MCP?" in result["content"][0]["text"]
    rows = wait_for(lambda: [e for e in mcp.executions("agent") if e["status"] == "success"])
    assert len(rows) == 1


def test_an_agent_tool_with_its_own_tools_is_served(mcp: McpServer) -> None:
    """Beyond n8n 2.41.1: the served agent's own tool calls are answered in process (no engine runs a tool called
    over MCP), so an agent with a Calculator answers."""
    turns = [{"toolCalls": [{"name": "Calculator", "args": {"input": "6*7"}}]}, "It is {{last_tool_result}}"]
    mcp.serve("agent-calc", _workflow(turns, with_calculator=True))
    _listed, result = _call(mcp, "agent-calc", {"Prompt__User_Message_": "6 times 7?"})
    assert not result.get("isError"), result
    assert 'It is [{\\"response\\":\\"42\\"}]' in result["content"][0]["text"]
    rows = wait_for(lambda: [e for e in mcp.executions("agent-calc") if e["status"] == "success"])
    data = mcp.owner.get(f"/rest/executions/{rows[0]['id']}").json()["data"]["data"]
    assert [run["executionStatus"] for run in data["resultData"]["runData"]["Calculator"]] == ["success"]
