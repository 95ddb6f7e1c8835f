"""Authentication from n8n's credentials (httpBearerAuth, httpHeaderAuth, httpMultipleHeadersAuth) and n8n 2.x's
credential domain rule, against a server that checks every request."""

from __future__ import annotations

from typing import Any

from weft.testing.mcp_server import McpTestServer

from .conftest import agent_workflow, answer, mcp_tool, run, runs_of

TIME = [{"tool": "MCP_Client_get_time", "args": {}}, "{{last_tool_result}}"]


def with_credential(url: str, authentication: str, credential_type: str, **parameters: Any) -> dict[str, Any]:
    tool = mcp_tool(url, authentication=authentication, **parameters)
    tool["credentials"] = {credential_type: {"id": "c1", "name": "MCP credential"}}
    return tool


async def test_a_wrong_bearer_token_is_n8ns_authentication_error() -> None:
    with McpTestServer(token="right") as server:
        tool = with_credential(server.url, "bearerAuth", "httpBearerAuth")
        result = await run(agent_workflow(tool, TIME), {"MCP credential": {"token": "wrong"}})
        error = runs_of(result, "MCP Client")[0]["error"]
        assert error["message"] == "Could not connect to your MCP server. Authentication failed."
        assert "401" in error["description"]
        assert server.rejected >= 1 and server.calls == []


async def test_no_credential_sent_is_refused_too() -> None:
    with McpTestServer(token="right") as server:
        result = await run(agent_workflow(mcp_tool(server.url), TIME))
        assert runs_of(result, "MCP Client")[0]["error"]["message"].endswith("Authentication failed.")


async def test_the_right_bearer_token_passes_on_both_transports() -> None:
    with McpTestServer(token="right") as server:
        for url, transport in ((server.url, "httpStreamable"), (server.sse_url, "sse")):
            tool = with_credential(url, "bearerAuth", "httpBearerAuth", serverTransport=transport)
            result = await run(agent_workflow(tool, TIME), {"MCP credential": {"token": "right"}})
            assert "2026-01-15T10:00:00Z" in answer(result), transport


async def test_header_auth_and_multiple_headers() -> None:
    with McpTestServer(header=("X-Api-Key", "k-123")) as server:
        tool = with_credential(server.url, "headerAuth", "httpHeaderAuth")
        result = await run(agent_workflow(tool, TIME), {"MCP credential": {"name": "X-Api-Key", "value": "k-123"}})
        assert "2026-01-15T10:00:00Z" in answer(result)
        tool = with_credential(server.url, "multipleHeadersAuth", "httpMultipleHeadersAuth")
        headers = {"headers": {"values": [{"name": "X-Other", "value": "1"}, {"name": "X-Api-Key", "value": "k-123"}]}}
        result = await run(agent_workflow(tool, TIME), {"MCP credential": headers})
        assert "2026-01-15T10:00:00Z" in answer(result)
        tool = with_credential(server.url, "headerAuth", "httpHeaderAuth")
        result = await run(agent_workflow(tool, TIME), {"MCP credential": {"name": "X-Api-Key", "value": "nope"}})
        assert runs_of(result, "MCP Client")[0]["error"]["message"].endswith("Authentication failed.")


async def test_the_credential_domain_rule_holds(server: McpTestServer) -> None:
    tool = with_credential(server.url, "bearerAuth", "httpBearerAuth")
    restricted = {"token": "t", "allowedHttpRequestDomains": "domains", "allowedDomains": "example.com, *.example.org"}
    result = await run(agent_workflow(tool, TIME), {"MCP credential": restricted})
    message = runs_of(result, "MCP Client")[0]["error"]["message"]
    assert message.startswith("Domain not allowed: This credential is restricted from accessing 127.0.0.1:")
    assert server.sessions == 0
    blocked = {"token": "t", "allowedHttpRequestDomains": "none"}
    result = await run(agent_workflow(tool, TIME), {"MCP credential": blocked})
    message = runs_of(result, "MCP Client")[0]["error"]["message"]
    assert message == "This credential is configured to prevent use within an MCP Client Tool node"
    allowed = {"token": "t", "allowedHttpRequestDomains": "domains", "allowedDomains": "example.com,127.0.0.1"}
    result = await run(agent_workflow(tool, TIME), {"MCP credential": allowed})
    assert "2026-01-15T10:00:00Z" in answer(result)
