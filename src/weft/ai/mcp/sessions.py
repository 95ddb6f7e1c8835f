"""MCP sessions kept for the execution: opened on first use by a node, reused by its later calls, closed with it.

n8n 2.8.4 opens a session for listing the tools and another for every call; Weft keeps one per node and endpoint
in the execution's resources (:meth:`~weft.nodes.contract.NodeContext.execution_resources`), with the tool list
read once. A session whose server went away is dropped, so the next call opens a new one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from weft.ai.mcp.config import McpEndpoint
from weft.ai.mcp.sdk import (
    CONNECT_TIMEOUT_S,
    McpCallError,
    McpCallResult,
    McpConnectError,
    McpSession,
    McpTool,
    connect,
)
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext


class McpConnection:
    """An open session and, once listed, the server's tools."""

    def __init__(self, session: McpSession, timeout_s: float) -> None:
        self.session = session
        self._timeout_s = timeout_s
        self._tools: list[McpTool] | None = None

    async def tools(self) -> list[McpTool]:
        if self._tools is None:
            self._tools = await self.session.list_tools(self._timeout_s)
        return self._tools


@asynccontextmanager
async def _opened(endpoint: McpEndpoint, client_name: str, client_version: str) -> AsyncIterator[McpConnection]:
    timeout_s = endpoint.timeout_ms / 1000
    async with connect(
        endpoint.transport,
        endpoint.url,
        endpoint.headers,
        client_name=client_name,
        client_version=client_version,
        timeout_s=min(CONNECT_TIMEOUT_S, timeout_s),
    ) as session:
        yield McpConnection(session, timeout_s)


def connect_error(node_name: str, error: McpConnectError) -> NodeOperationError:
    """n8n's ``mapToNodeOperationError``: the message says what failed, the description the server's answer."""
    if error.kind == "auth":
        message = "Could not connect to your MCP server. Authentication failed."
    else:
        message = "Could not connect to your MCP server"
    return NodeOperationError(node_name, message, description=error.message)


async def open_connection(ctx: NodeContext, endpoint: McpEndpoint) -> McpConnection:
    """This node's session on ``endpoint`` for the execution (opened now if it is the first use)."""
    key = endpoint.session_key(ctx.node.name)
    version = f"{ctx.node.typeVersion:g}"
    try:
        return await ctx.execution_resources().open(key, lambda: _opened(endpoint, ctx.node.type, version))
    except McpConnectError as exc:
        raise connect_error(ctx.node.name, exc) from None


async def list_tools(ctx: NodeContext, endpoint: McpEndpoint) -> list[McpTool]:
    """The server's tools, as listed once per session; a failed listing fails like a failed connection."""
    connection = await open_connection(ctx, endpoint)
    try:
        return await connection.tools()
    except McpCallError as exc:
        await ctx.execution_resources().discard(endpoint.session_key(ctx.node.name))
        raise NodeOperationError(
            ctx.node.name, "Could not connect to your MCP server", description=exc.message
        ) from None


async def call_tool(ctx: NodeContext, endpoint: McpEndpoint, name: str, arguments: dict[str, object]) -> McpCallResult:
    """Call ``name`` on the node's session; raises :class:`McpCallError` (worded as n8n's SDK words it)."""
    connection = await open_connection(ctx, endpoint)
    try:
        return await connection.session.call_tool(name, dict(arguments), endpoint.timeout_ms / 1000)
    except McpCallError as exc:
        if exc.broken:
            await ctx.execution_resources().discard(endpoint.session_key(ctx.node.name))
        raise


__all__ = ["McpConnection", "call_tool", "connect_error", "list_tools", "open_connection"]
