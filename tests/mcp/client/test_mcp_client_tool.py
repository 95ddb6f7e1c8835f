"""MCP Client Tool with AI Agent 3 (the engine runs the node per call) against a real SDK server on 127.0.0.1."""

from __future__ import annotations

from weft.testing.mcp_server import McpTestServer

from .conftest import agent_workflow, answer, mcp_tool, run, runs_of

WEATHER = {"tool": "MCP_Client_get_weather", "args": {"city": "Paris", "units": "metric"}}


async def test_a_call_sends_only_the_schema_arguments_and_returns_the_content(server: McpTestServer) -> None:
    result = await run(agent_workflow(mcp_tool(server.url), [WEATHER, "{{last_tool_result}}"]))
    assert server.calls == [("get_weather", {"city": "Paris"})]  # not units, chatInput, toolCallId or tool
    tool_run = runs_of(result, "MCP Client")[0]
    assert tool_run["executionStatus"] == "success"
    assert tool_run["data"]["ai_tool"][0][0]["json"] == {"response": [{"type": "text", "text": "Sunny, 22°C in Paris"}]}
    assert answer(result) == '[{"response":[{"type":"text","text":"Sunny, 22°C in Paris"}]}]'


async def test_sse_transport(server: McpTestServer) -> None:
    tool = mcp_tool(server.sse_url, version=1.1, serverTransport="sse")
    result = await run(agent_workflow(tool, [{"tool": "MCP_Client_get_time", "args": {}}, "{{last_tool_result}}"]))
    assert server.calls == [("get_time", {})]
    assert "2026-01-15T10:00:00Z" in answer(result)


async def test_version_1_is_sse_on_its_sse_endpoint(server: McpTestServer) -> None:
    tool = mcp_tool(server.sse_url, version=1)
    result = await run(agent_workflow(tool, [{"tool": "MCP_Client_get_time", "args": {}}, "{{last_tool_result}}"]))
    assert "2026-01-15T10:00:00Z" in answer(result)


async def test_selected_tools_only_are_offered(server: McpTestServer) -> None:
    tool = mcp_tool(server.url, include="selected", includeTools=["get_time"])
    result = await run(agent_workflow(tool, [{"tool": "nope", "args": {}}, "{{last_tool_result}}"]))
    assert answer(result) == "Tool 'nope' does not exist. Available tools: MCP_Client_get_time"


async def test_except_leaves_the_others(server: McpTestServer) -> None:
    tool = mcp_tool(server.url, name="Weather Server", include="except", excludeTools=["get_time", "wait", "fail"])
    result = await run(agent_workflow(tool, [{"tool": "nope", "args": {}}, "{{last_tool_result}}"]))
    assert answer(result) == "Tool 'nope' does not exist. Available tools: Weather_Server_get_weather"


async def test_excluding_every_tool_is_n8ns_error(server: McpTestServer) -> None:
    tool = mcp_tool(server.url, include="except", excludeTools=["get_time", "get_weather", "wait", "fail"])
    result = await run(agent_workflow(tool, ["never"]))
    error = runs_of(result, "MCP Client")[0]["error"]
    assert error["message"] == "MCP Server returned no tools"
    assert result["data"]["resultData"]["error"]["message"] == "Error in sub-node MCP Client"


async def test_is_error_is_a_tool_error_from_version_1_3(server: McpTestServer) -> None:
    turns = [{"tool": "MCP_Client_get_weather", "args": {"city": ""}}, "{{last_tool_result}}"]
    result = await run(agent_workflow(mcp_tool(server.url, version=1.4), turns))
    assert runs_of(result, "MCP Client")[0]["error"]["message"] == "city is required"
    assert answer(result) == '[{"error":"city is required"}]'
    result = await run(agent_workflow(mcp_tool(server.url, version=1.2), turns))
    assert answer(result) == '[{"response":[{"type":"text","text":"city is required"}]}]'


async def test_an_mcp_error_is_a_tool_error_with_the_sdks_wording(server: McpTestServer) -> None:
    result = await run(
        agent_workflow(mcp_tool(server.url), [{"tool": "MCP_Client_fail", "args": {}}, "{{last_tool_result}}"])
    )
    assert runs_of(result, "MCP Client")[0]["error"]["message"] == "MCP error -32603: the tool broke"
    assert answer(result) == '[{"error":"MCP error -32603: the tool broke"}]'
    assert result["status"] == "success"


async def test_a_server_that_hangs_ends_the_call_with_the_timeout(server: McpTestServer) -> None:
    tool = mcp_tool(server.url, options={"timeout": 300})
    turns = [{"tool": "MCP_Client_wait", "args": {"seconds": 30}}, "{{last_tool_result}}"]
    result = await run(agent_workflow(tool, turns))  # bounded: a stuck execution fails the test
    assert result["status"] == "success"
    assert runs_of(result, "MCP Client")[0]["error"]["message"] == "MCP error -32001: Request timed out"
    assert answer(result) == '[{"error":"MCP error -32001: Request timed out"}]'


async def test_a_closed_port_is_n8ns_connection_error() -> None:
    with McpTestServer() as gone:
        url = gone.url
    result = await run(agent_workflow(mcp_tool(url), ["never"]))
    error = runs_of(result, "MCP Client")[0]["error"]
    assert error["message"] == "Could not connect to your MCP server"
    assert error["description"]
    assert result["data"]["resultData"]["error"]["message"] == "Error in sub-node MCP Client"


async def test_an_invalid_url_is_refused() -> None:
    result = await run(agent_workflow(mcp_tool("http://"), ["never"]))
    error = runs_of(result, "MCP Client")[0]["error"]
    assert error["message"] == "Could not connect to your MCP server. The provided URL is invalid."


async def test_executed_on_its_own_the_item_names_the_tool(server: McpTestServer) -> None:
    from weft.ai.agent_catalog import agent_registry
    from weft.engine import run_workflow
    from weft.testing.workflows import connect, node, output_json, workflow

    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        mcp_tool(server.url),
        connect("Start", "MCP Client"),
        pin_data={"Start": [{"tool": "get_weather", "city": "Oslo"}, {"city": "Rome"}]},
    )
    result = await run_workflow(wf, registry=agent_registry())
    assert result["data"]["resultData"]["error"]["message"] == "Tool name not found in item.json.tool or item.tool"
    wf["pinData"]["Start"] = [{"tool": "MCP_Client_get_weather", "city": "Oslo"}]
    result = await run_workflow(wf, registry=agent_registry())
    assert output_json(result, "MCP Client") == [{"response": [{"type": "text", "text": "Sunny, 22°C in Oslo"}]}]
