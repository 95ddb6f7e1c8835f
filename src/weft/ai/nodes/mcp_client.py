"""MCP Client (``@n8n/n8n-nodes-langchain.mcpClient`` 1, 1.1): call one tool of an MCP server per item.

The tool is the ``tool`` resource locator; its arguments come from the ``parameters`` resource mapper
(``inputMode: manual``) or ``jsonInput`` (``json``). Each item's output is ``{content, structuredContent?}`` with
text content parsed as JSON where it is JSON, images and audio as binary ``data_<n>`` (``convertToBinary``, on by
default). An ``isError`` answer fails the item from version 1.1 on (recorded: cases a151, a152); a failed item
becomes ``{error: {message}}`` when the node continues on failure.
"""

from __future__ import annotations

import base64
import json
import mimetypes
from typing import Any, ClassVar

from weft.ai.mcp.config import DEFAULT_TIMEOUT_MS, McpEndpoint, credential_headers, normalize_url
from weft.ai.mcp.sdk import McpCallError, McpCallResult
from weft.ai.mcp.sessions import call_tool, open_connection
from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

SURFACE = "MCP Client"


def _text(value: str) -> Any:
    """n8n's ``jsonParse(text, {fallbackValue: text})``."""
    try:
        return json.loads(value)
    except ValueError:
        return value


def _binary(data: str, mime: str) -> dict[str, Any]:
    raw = base64.b64decode(data)
    extension = (mimetypes.guess_extension(mime) or ".").lstrip(".")
    entry = {"data": data, "mimeType": mime, "fileExtension": extension, "fileSize": f"{len(raw)} B"}
    return {k: v for k, v in entry.items() if v}


def item_of(result: McpCallResult, index: int, *, to_binary: bool) -> Item:
    """One output item from a call's answer, as n8n's MCP Client builds it."""
    content: list[dict[str, Any]] = []
    binary: dict[str, Any] = {}
    for part in result.content:
        if part.get("type") == "text":
            content.append({**part, "text": _text(str(part.get("text", "")))})
        elif to_binary and part.get("type") in ("image", "audio"):
            binary[f"data_{len(binary)}"] = _binary(str(part.get("data", "")), str(part.get("mimeType", "")))
        else:
            content.append(part)
    out: dict[str, Any] = {}
    if result.structured_content is not None:
        out["structuredContent"] = dict(result.structured_content)
    if content:
        out["content"] = content
    item: Item = {"json": out, "pairedItem": {"item": index}}
    if binary:
        item["binary"] = binary
    return item


class McpClient(NodeType):
    """The MCP Client node: see the module docstring."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.mcpClient",
        display_name="MCP Client",
        versions=(1, 1.1),
        description="Standalone MCP Client",
        credentials=("httpBearerAuth", "httpHeaderAuth", "httpMultipleHeadersAuth", "mcpOAuth2Api"),
        defaults={"serverTransport": "httpStreamable", "authentication": "none", "inputMode": "manual"},
    )

    async def _endpoint(self, ctx: ExecuteContext) -> McpEndpoint:
        transport = ctx.get_node_parameter("serverTransport", 0)
        if transport not in ("sse", "httpStreamable"):
            raise NodeOperationError(
                ctx.node.name,
                f"Unknown server transport {transport!r}",
                description="Set 'serverTransport' to 'httpStreamable' or 'sse'.",
            )
        url = normalize_url(ctx.node.name, ctx.get_node_parameter("endpointUrl", 0, ""))
        headers = await credential_headers(ctx, str(ctx.get_node_parameter("authentication", 0)), url, SURFACE)
        return McpEndpoint(transport=transport, url=url, headers=headers, timeout_ms=DEFAULT_TIMEOUT_MS)

    def _arguments(self, ctx: ExecuteContext, index: int) -> dict[str, Any]:
        if ctx.get_node_parameter("inputMode", 0) == "json":
            value = ctx.get_node_parameter("jsonInput", index, "{}")
            if isinstance(value, str):
                try:
                    value = json.loads(value)
                except ValueError:
                    raise NodeOperationError(
                        ctx.node.name, "'JSON' must be a valid JSON object", item_index=index
                    ) from None
        else:
            value = ctx.get_node_parameter("parameters.value", index, {})
        if not isinstance(value, dict):
            raise NodeOperationError(ctx.node.name, "The tool's parameters must be an object", item_index=index)
        return value

    async def _call(self, ctx: ExecuteContext, endpoint: McpEndpoint, index: int) -> Item:
        tool = str(ctx.get_node_parameter("tool.value", index, "") or "")
        if not tool:
            raise NodeOperationError(
                ctx.node.name, "No tool chosen", description="Set 'Tool' to the name of the server's tool to call."
            )
        options = ctx.get_node_parameter("options", index, {}) or {}
        timeout = float(options.get("timeout") or DEFAULT_TIMEOUT_MS)
        per_call = McpEndpoint(
            transport=endpoint.transport, url=endpoint.url, headers=endpoint.headers, timeout_ms=timeout
        )
        try:
            result = await call_tool(ctx, per_call, tool, self._arguments(ctx, index))
        except McpCallError as exc:
            raise NodeOperationError(ctx.node.name, exc.message, item_index=index) from None
        if ctx.node.typeVersion >= 1.1 and result.is_error:
            text = next((c["text"] for c in result.content if c.get("type") == "text" and "text" in c), None)
            raise NodeOperationError(ctx.node.name, str(text or f'Tool "{tool}" returned an error'), item_index=index)
        return item_of(result, index, to_binary=options.get("convertToBinary", True) is not False)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        endpoint = await self._endpoint(ctx)
        await open_connection(ctx, endpoint)  # a failed connection fails the node, whatever onError says
        out: list[Item] = []
        for index, _item in enumerate(ctx.get_input_data()):
            try:
                out.append(await self._call(ctx, endpoint, index))
            except NodeError as exc:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": {"message": exc.message}}, "pairedItem": {"item": index}})
        return [out]


__all__ = ["McpClient", "item_of"]
