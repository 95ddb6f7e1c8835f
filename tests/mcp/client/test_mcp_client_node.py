"""The MCP Client node (not a tool): one call per item, manual or JSON arguments, isError by version."""

from __future__ import annotations

from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.mcp_server import McpTestServer
from weft.testing.workflows import connect, node, output_json, workflow
from weft.workflow import Run

LC = "@n8n/n8n-nodes-langchain."


async def client(
    url: str, version: float = 1.1, items: list[Any] | None = None, on_error: str | None = None, **parameters: Any
) -> Run:
    params = {"endpointUrl": url, "tool": {"__rl": True, "mode": "id", "value": "get_weather"}, **parameters}
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("MCP Client", LC + "mcpClient", params, version=version),
        connect("Start", "MCP Client"),
        pin_data={"Start": items or [{"city": "Paris"}]},
    )
    if on_error is not None:
        wf["nodes"][1]["onError"] = on_error
    registry = agent_registry()
    return await run_workflow(wf, registry=registry, services=LocalServices(registry=registry))


async def test_manual_parameters_per_item_over_one_session(server: McpTestServer) -> None:
    parameters = {"mappingMode": "defineBelow", "value": {"city": "={{ $json.city }}"}}
    result = await client(server.url, items=[{"city": "Paris"}, {"city": "Rome"}], parameters=parameters)
    assert output_json(result, "MCP Client") == [
        {"content": [{"type": "text", "text": "Sunny, 22°C in Paris"}]},
        {"content": [{"type": "text", "text": "Sunny, 22°C in Rome"}]},
    ]
    assert server.sessions == 1


async def test_json_input_and_sse(server: McpTestServer) -> None:
    result = await client(server.sse_url, serverTransport="sse", inputMode="json", jsonInput='{"city": "Lima"}')
    assert output_json(result, "MCP Client") == [{"content": [{"type": "text", "text": "Sunny, 22°C in Lima"}]}]


async def test_is_error_fails_from_version_1_1_and_continue_on_fail_keeps_it(server: McpTestServer) -> None:
    result = await client(server.url, version=1, inputMode="json", jsonInput="{}")
    assert output_json(result, "MCP Client") == [{"content": [{"type": "text", "text": "city is required"}]}]
    result = await client(server.url, version=1.1, inputMode="json", jsonInput="{}")
    assert result["data"]["resultData"]["error"]["message"] == "city is required"
    wf_result = await client(server.url, inputMode="json", jsonInput="{}", on_error="continueRegularOutput")
    assert output_json(wf_result, "MCP Client") == [{"error": {"message": "city is required"}}]


async def test_a_hanging_tool_ends_with_the_timeout(server: McpTestServer) -> None:
    tool = {"__rl": True, "mode": "id", "value": "wait"}
    result = await client(
        server.url, tool=tool, inputMode="json", jsonInput='{"seconds": 30}', options={"timeout": 200}
    )
    assert result["data"]["resultData"]["error"]["message"] == "MCP error -32001: Request timed out"


async def test_a_closed_port_fails_the_node_even_when_it_continues_on_fail() -> None:
    with McpTestServer() as gone:
        url = gone.url
    result = await client(url, inputMode="json", jsonInput="{}", on_error="continueRegularOutput")
    assert result["data"]["resultData"]["runData"]["MCP Client"][0]["error"]["message"] == (
        "Could not connect to your MCP server"
    )


async def test_no_tool_chosen_is_a_clear_error(server: McpTestServer) -> None:
    result = await client(server.url, tool={"__rl": True, "mode": "list", "value": ""})
    assert result["data"]["resultData"]["error"]["message"] == "No tool chosen"
    assert server.calls == []
