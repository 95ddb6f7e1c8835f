"""MCP Client Tool (``@n8n/n8n-nodes-langchain.mcpClientTool`` 1–1.4): a toolkit of an MCP server's tools.

``supply_data`` lists the server's tools (filtered by ``include``) and offers each as a ``toolkit``
:class:`~weft.nodes.contract.ToolSpec` named ``<node>_<tool>`` (n8n 2.41's ``buildMcpToolName``; 2.8.4 used the
bare name). AI Agent 3+ asks the engine to run this node with ``tool: <name>`` in its input; ``execute`` calls that
tool with the arguments its schema declares and outputs ``{response: content}``. Older agents call
:attr:`ToolSpec.invoke`, which records a run of this node per call as n8n's ``logWrapper`` does.

An ``isError`` answer is a tool error from version 1.3 on (``execute``; recorded: case a144) and always for
``invoke`` (the model gets the error's text, as n8n's ``createCallTool``; case a146). Sessions are kept for the
execution (:mod:`weft.ai.mcp.sessions`).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from weft.ai.mcp.config import (
    DEFAULT_TIMEOUT_MS,
    McpEndpoint,
    ToolFilter,
    credential_headers,
    mcp_tool_name,
    normalize_url,
    schema_arguments,
)
from weft.ai.mcp.sdk import McpCallError, McpCallResult, McpTool, Transport
from weft.ai.mcp.sessions import call_tool, list_tools
from weft.ai.tools._schema import closed_objects
from weft.ai.tools.base import TOOL_OUTPUTS
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeContext, NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.workflow import AI_TOOL, Item, NodeOutput
from weft.workflow.jsjson import js_json

SURFACE = "MCP Client Tool"


def read_endpoint_parameters(ctx: NodeContext, item_index: int) -> tuple[Transport, Any]:
    """(transport, url) by version: 1 is SSE on ``sseEndpoint``; 1.1 defaults to SSE, 1.2+ to HTTP Streamable."""
    version = ctx.node.typeVersion
    if version == 1:
        return "sse", ctx.get_node_parameter("sseEndpoint", item_index, "")
    default = "sse" if version < 1.2 else "httpStreamable"
    transport = ctx.get_node_parameter("serverTransport", item_index, default)
    if transport not in ("sse", "httpStreamable"):
        raise NodeOperationError(
            ctx.node.name,
            f"Unknown server transport {transport!r}",
            description="Set 'serverTransport' to 'httpStreamable' or 'sse'.",
        )
    return transport, ctx.get_node_parameter("endpointUrl", item_index, "")


async def read_endpoint(ctx: NodeContext, item_index: int, surface: str) -> McpEndpoint:
    """The node's endpoint, authentication headers and ``options.timeout`` (ms, n8n's default 60000)."""
    transport, raw_url = read_endpoint_parameters(ctx, item_index)
    url = normalize_url(ctx.node.name, raw_url)
    authentication = ctx.get_node_parameter("authentication", item_index, "none")
    headers = await credential_headers(ctx, str(authentication), url, surface)
    timeout = ctx.get_node_parameter("options.timeout", item_index, DEFAULT_TIMEOUT_MS)
    try:
        timeout_ms = float(timeout or DEFAULT_TIMEOUT_MS)
    except (TypeError, ValueError):
        raise NodeOperationError(
            ctx.node.name, f"The timeout {timeout!r} is not a number", description="Set 'Timeout' in milliseconds."
        ) from None
    return McpEndpoint(transport=transport, url=url, headers=headers, timeout_ms=timeout_ms)


def read_filter(ctx: NodeContext, item_index: int) -> ToolFilter:
    return ToolFilter(
        mode=str(ctx.get_node_parameter("include", item_index, "all")),
        include=tuple(ctx.get_node_parameter("includeTools", item_index, []) or ()),
        exclude=tuple(ctx.get_node_parameter("excludeTools", item_index, []) or ()),
    )


def tool_parameters(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema as n8n offers it after its round trip through zod (objects closed; a non-object wrapped)."""
    if schema.get("type", "object") != "object":
        schema = {"type": "object", "properties": {"value": schema}, "required": ["value"]}
    return dict(closed_objects({"type": "object", "properties": {}, **schema}))


def error_text(result: McpCallResult) -> str | None:
    """n8n's ``getErrorDescriptionFromToolCall``: the first text content of an error answer."""
    for content in result.content:
        if isinstance(content.get("text"), str):
            return str(content["text"])
    return None


def call_response(result: McpCallResult) -> Any:
    """What the model gets from a successful call: structured content when there is some, else the content."""
    return result.structured_content if result.structured_content is not None else result.content


class McpClientTool(NodeType):
    """The MCP Client Tool node: see the module docstring."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.mcpClientTool",
        display_name="MCP Client Tool",
        versions=(1, 1.1, 1.2, 1.3, 1.4),
        description="Connect tools from an MCP Server",
        group=("output",),
        inputs=(),
        outputs=TOOL_OUTPUTS,
        credentials=("httpBearerAuth", "httpHeaderAuth", "httpMultipleHeadersAuth", "mcpOAuth2Api"),
        defaults={"authentication": "none", "include": "all", "options.timeout": DEFAULT_TIMEOUT_MS},
    )

    async def _tools(self, ctx: NodeContext, item_index: int) -> tuple[McpEndpoint, list[McpTool]]:
        endpoint = await read_endpoint(ctx, item_index, SURFACE)
        tools = read_filter(ctx, item_index).select(await list_tools(ctx, endpoint))
        if not tools:
            raise NodeOperationError(
                ctx.node.name,
                "MCP Server returned no tools",
                description="Connected successfully to your MCP server but it returned an empty list of tools.",
                item_index=item_index,
            )
        return endpoint, tools

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> list[ToolSpec]:
        endpoint, tools = await self._tools(ctx, item_index)
        return [
            ToolSpec(
                name=mcp_tool_name(ctx.node.name, tool.name),
                description=tool.description,
                parameters=tool_parameters(tool.input_schema),
                source_node_name=ctx.node.name,
                kind="toolkit",
                invoke=functools.partial(self.invoke_inline, ctx, endpoint, tool, item_index),
            )
            for tool in tools
        ]

    async def invoke_inline(
        self, ctx: SupplyDataContext, endpoint: McpEndpoint, tool: McpTool, item_index: int, arguments: dict[str, Any]
    ) -> str:
        """One call from an agent before version 3: a run of this node (``{query, tool}`` in, ``{response}`` out).

        A failed call or an ``isError`` answer gives the model the error's text and still closes the run as a
        success (n8n's ``createCallTool``); n8n also writes the error onto the node's run ``item_index``, which
        Weft does not (docs/differences.md).
        """
        sent = schema_arguments(tool.input_schema, arguments)
        query = {
            "query": sent,
            "tool": {"name": mcp_tool_name(ctx.node.name, tool.name), "description": tool.description},
        }
        run = ctx.add_input_data(AI_TOOL, [[{"json": query}]])
        try:
            result = await call_tool(ctx, endpoint, tool.name, sent)
            response: Any = call_response(result)
            if result.is_error:
                response = error_text(result) or f'Failed to execute tool "{tool.name}"'
        except McpCallError as exc:
            response = exc.message or f'Failed to execute tool "{tool.name}"'
        ctx.add_output_data(AI_TOOL, run, [[{"json": {"response": response}}]])
        return response if isinstance(response, str) else js_json(response)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        """Run the tool named in each item's ``tool`` (as the engine runs a toolkit tool for AI Agent 3+)."""
        items = ctx.get_input_data()
        out: list[Item] = []
        if not items:
            return [out]
        endpoint, tools = await self._tools(ctx, 0)
        for index, item in enumerate(items):
            out.append(await self._run_item(ctx, endpoint, tools, dict(item["json"]), index))
        return [out]

    async def _run_item(
        self, ctx: ExecuteContext, endpoint: McpEndpoint, tools: list[McpTool], item_json: dict[str, Any], index: int
    ) -> Item:
        name = item_json.pop("tool", None)
        if not isinstance(name, str) or not name:
            raise NodeOperationError(
                ctx.node.name, "Tool name not found in item.json.tool or item.tool", item_index=index
            )
        tool = next((t for t in tools if name in (mcp_tool_name(ctx.node.name, t.name), t.name)), None)
        if tool is None:
            offered = ", ".join(mcp_tool_name(ctx.node.name, t.name) for t in tools)
            raise NodeOperationError(
                ctx.node.name,
                f"The MCP server offers no tool {name!r}",
                description=f"Offered: {offered}",
                item_index=index,
            )
        try:
            result = await call_tool(ctx, endpoint, tool.name, schema_arguments(tool.input_schema, item_json))
        except McpCallError as exc:
            raise NodeOperationError(ctx.node.name, exc.message, item_index=index) from None
        if ctx.node.typeVersion >= 1.3 and result.is_error:
            message = error_text(result) or f'Tool "{tool.name}" returned an error'
            raise NodeOperationError(ctx.node.name, message, item_index=index)
        json: dict[str, Any] = {"response": result.content}
        if result.structured_content is not None:
            json["structuredContent"] = result.structured_content
        return {"json": json, "pairedItem": {"item": index}}


__all__ = ["McpClientTool", "read_endpoint", "read_filter"]
