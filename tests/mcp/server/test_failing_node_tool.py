"""A tool call whose tool is a node that fails (an HTTP Request Tool that cannot connect), through the official
``mcp`` SDK's client against a real Weft server. Weft answered an empty text as a success; n8n 2.41.1 answers
``isError: true`` with ``NodeOperationError: <message>`` and stores the execution as it stores any tool call
(status ``success``, the tool's run in error with its error): ``n8n_mcp_failing_node_2.41.json``, recorded by
``_record_n8n_failing_node.py``."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from ._workflows import failing_node_workflow
from .conftest import HERE, McpServer, wait_for

TOOL_NODE = "Fetch Page"


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    answers: dict[str, Any] = json.loads((HERE / "n8n_mcp_failing_node_2.41.json").read_text())
    return answers


async def _call(url: str) -> dict[str, Any]:
    async with (
        httpx2.AsyncClient(timeout=httpx2.Timeout(10, read=30)) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool("Fetch_Page", {})
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def test_a_failing_node_tool_answers_an_error_result(mcp: McpServer, recorded: dict[str, Any]) -> None:
    mcp.serve("failing_node", failing_node_workflow())
    before = {e["id"] for e in mcp.executions("failing_node")}
    result = await _call(mcp.mcp_url("failing_node"))
    assert result == recorded["call_result"]
    assert result["isError"] is True
    assert result["content"] == [
        {"type": "text", "text": "NodeOperationError: The service refused the connection - perhaps it is offline"}
    ]

    new = wait_for(
        lambda: [e for e in mcp.executions("failing_node") if e["id"] not in before and e["status"] != "running"]
    )
    assert len(new) == 1
    ours, theirs = mcp.execution(new[0]["id"]), recorded["executions"][0]
    assert (ours["status"], ours["mode"], ours["finished"]) == (theirs["status"], theirs["mode"], True)
    assert ours["status"] == "success"  # n8n stores the call as any other: the failure is the tool's run
    run_data, recorded_runs = ours["data"]["resultData"]["runData"], theirs["data"]["resultData"]["runData"]
    assert sorted(run_data) == sorted(recorded_runs)
    run, recorded_run = run_data[TOOL_NODE][0], recorded_runs[TOOL_NODE][0]
    assert run["executionStatus"] == recorded_run["executionStatus"] == "error"
    for key in ("message", "name"):
        assert run["error"][key] == recorded_run["error"][key], key
    assert run["error"]["node"]["name"] == TOOL_NODE
    assert run["inputOverride"] == recorded_run["inputOverride"]
    trigger = run_data["MCP Server Trigger"][0]["data"]["main"][0][0]["json"]
    assert trigger["mcpToolCall"] == recorded_runs["MCP Server Trigger"][0]["data"]["main"][0][0]["json"]["mcpToolCall"]
