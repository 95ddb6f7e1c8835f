"""AI Agent before version 3 calls the MCP tools itself (``ToolSpec.invoke``): a run of the tool node per call,
the error's text for a failed call, one session for every call."""

from __future__ import annotations

from weft.testing.mcp_server import McpTestServer

from .conftest import agent_workflow, answer, mcp_tool, run, runs_of


async def test_calls_are_runs_of_the_node_and_errors_come_back_as_text(server: McpTestServer) -> None:
    turns = [
        {"toolCalls": [{"name": "MCP_Client_get_weather", "args": {"city": "Oslo", "units": "metric"}}]},
        {"toolCalls": [{"name": "MCP_Client_get_weather", "args": {"city": ""}}]},
        "{{last_tool_result}}",
    ]
    result = await run(agent_workflow(mcp_tool(server.url), turns, agent_version=2.2))
    assert server.calls == [("get_weather", {"city": "Oslo"}), ("get_weather", {"city": ""})]
    first, second = runs_of(result, "MCP Client")
    assert first["inputOverride"]["ai_tool"][0][0]["json"] == {
        "query": {"city": "Oslo"},
        "tool": {"name": "MCP_Client_get_weather", "description": "Current weather for a city."},
    }
    assert first["data"]["ai_tool"][0][0]["json"] == {"response": [{"type": "text", "text": "Sunny, 22°C in Oslo"}]}
    assert second["executionStatus"] == "success"
    assert second["data"]["ai_tool"][0][0]["json"] == {"response": "city is required"}
    assert answer(result) == "city is required"
    assert server.sessions == 1


async def test_a_timeout_is_the_sdks_error_text(server: McpTestServer) -> None:
    turns = [{"tool": "MCP_Client_wait", "args": {"seconds": 30}}, "{{last_tool_result}}"]
    result = await run(agent_workflow(mcp_tool(server.url, options={"timeout": 200}), turns, agent_version=1.9))
    assert answer(result) == "MCP error -32001: Request timed out"
