"""MCP Server Trigger (``@n8n/n8n-nodes-langchain.mcpTrigger``): serves the tools connected to it over MCP.

The server (``weft.server.mcp``) answers the MCP protocol on ``/mcp/<path>``; this node is what it runs:

* for ``tools/list``, an execution that is not saved, whose trigger hands back the connected tools
  (:func:`tool_descriptors`; toolkits flattened, n8n's order);
* for ``tools/call``, a saved execution (mode ``webhook``) whose trigger item is n8n's
  ``{mcpToolCall: {toolName, arguments, sourceNodeName}, mcpMessageId}``: the trigger runs the tool in place, as
  n8n's trigger does (the tool's run is recorded under ``ai_tool``, ``inputOverride`` ``{query}``, output
  ``{response}``), and hands the MCP result back; its own output is the call it received (as n8n 2.41.1's).
  A tool that fails answers ``isError: true`` with ``<ErrorName>: <message>`` as its text; the execution still
  succeeds, with the tool's run in error (n8n 2.41.1, recorded: ``tests/mcp/server/n8n_mcp_failing_node_2.41.json``).

The answer travels through the execution's webhook responder (``ctx.services``), as a Respond to Webhook
node's does, with a JSON body: ``{"tools": [...]}`` or ``{"result": {...}}`` / ``{"error": "<message>"}``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from weft.nodes.connected_tools import connected_tools
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType, ToolSpec
from weft.nodes.node_tool import raising_tool_errors
from weft.nodes.tool_names import node_name_to_tool_name
from weft.nodes.webhooks import WebhookResponse, responder_of
from weft.workflow import AI_TOOL, NodeModel, NodeOutput
from weft.workflow.jsjson import js_json

MCP_TRIGGER_TYPE = "@n8n/n8n-nodes-langchain.mcpTrigger"

#: The trigger item key of a tool call (n8n's ``mcpToolCall``) and of a tool listing (Weft's own).
TOOL_CALL_KEY = "mcpToolCall"
LIST_TOOLS_KEY = "weftMcpListTools"
JSON_SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: n8n 2.41.1's ``MessageFormatter.isErrorResult`` for text results: a tool's error answer.
_ERROR_TEXT = re.compile(r"^(\w+Error: |HTTP \d{3} There was an error: |There was an error: )")
TOOL_NOT_FOUND = "Tool not found"


class McpTrigger(NodeType):
    """Versions 1 and 1.1 serve SSE on ``<path>/sse`` + ``<path>/messages``; 2 and 2.1 streamable HTTP on ``<path>``."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name=MCP_TRIGGER_TYPE,
        display_name="MCP Server Trigger",
        versions=(1, 1.1, 2, 2.1),
        description="Expose n8n tools as an MCP Server endpoint",
        group=("trigger",),
        inputs=(AI_TOOL,),
        outputs=(),
        credentials=("httpBearerAuth", "httpHeaderAuth"),
        defaults={"authentication": "none", "path": "", "instructions": ""},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        request = dict(items[0]["json"]) if items else {}
        responder = responder_of(ctx.services)
        tools = await connected_tools(ctx, "the MCP Server Trigger's Tool input")
        if request.get(LIST_TOOLS_KEY):
            sources = {t.name: t.source_node_name for t in tools}
            payload: dict[str, Any] = {"tools": tool_descriptors(tools), "sources": sources}
        else:
            payload = await _call(tools, request.get(TOOL_CALL_KEY) or {})
        if responder is not None:
            responder.send_webhook_response(WebhookResponse.json(payload))
        # as n8n 2.41.1: the trigger's output is the call it received (2.8.4 showed none)
        return [[{"json": request, "pairedItem": {"item": 0}}]] if TOOL_CALL_KEY in request else []


def tool_descriptors(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """``tools/list`` entries as n8n 2.41.1 gives them: name, description, and the schema as its ``zodToDraft202012``
    writes it (JSON Schema 2020-12, objects open to other properties: ``removeAdditionalStrategy: 'strict'``)."""
    return [{"name": t.name, "description": t.description, "inputSchema": input_schema(t.parameters)} for t in tools]


def input_schema(parameters: Mapping[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = _open_objects(copy.deepcopy(dict(parameters)))
    schema["$schema"] = JSON_SCHEMA_DRAFT
    return schema


def _open_objects(schema: Any) -> Any:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key != "additionalProperties":
                _open_objects(value)
        if schema.get("type") == "object":
            schema["additionalProperties"] = True
    elif isinstance(schema, list):
        for value in schema:
            _open_objects(value)
    return schema


async def _call(tools: list[ToolSpec], call: Mapping[str, Any]) -> dict[str, Any]:
    name = str(call.get("toolName") or "")
    spec = next((t for t in tools if t.name == name), None)
    if spec is None or spec.invoke is None:
        return {"error": TOOL_NOT_FOUND}
    arguments = dict(call.get("arguments") or {})
    try:
        with raising_tool_errors():  # a node run as the tool throws its error here, as n8n's tool.invoke does
            result = await spec.invoke(arguments)
    except Exception as exc:  # n8n: MessageFormatter.formatError (recorded: n8n_mcp_failing_node_2.41.json)
        return {"result": {"isError": True, "content": [{"type": "text", "text": _error_text(exc)}]}}
    content = [{"type": "text", "text": format_tool_result(result)}]
    return {"result": {"isError": True, "content": content} if is_error_result(result) else {"content": content}}


def is_error_result(result: Any) -> bool:
    """n8n 2.41.1's ``isErrorResult``: ``{error: {message}}``, or a text in the words tools answer failures with."""
    if isinstance(result, dict):
        error = result.get("error")
        return isinstance(error, dict) and isinstance(error.get("message"), str)
    return isinstance(result, str) and _ERROR_TEXT.match(result) is not None


def _error_text(exc: Exception) -> str:
    name = getattr(exc, "n8n_name", None) or type(exc).__name__
    return f"{name}: {getattr(exc, 'message', None) or exc}"


def format_tool_result(result: Any) -> str:
    """n8n's ``MessageFormatter.formatToolResult``: an object as JSON, a string as it is, anything else as text."""
    if isinstance(result, str):
        return result
    if result is None:
        return "null"
    if isinstance(result, bool):
        return "true" if result else "false"
    if isinstance(result, dict | list | int | float):
        return js_json(result)
    return str(result)


def is_mcp_trigger(node: NodeModel) -> bool:
    return node.type == MCP_TRIGGER_TYPE and not node.disabled


def trigger_urls(node: NodeModel) -> dict[tuple[str, str], str]:
    """``(METHOD, path) → role`` (``setup``, ``message``, ``delete``) of a trigger, as n8n registers its webhooks
    (``isFullPath``): ``GET <path>/sse``, ``POST <path>/messages`` and ``DELETE <path>`` before version 2,
    ``GET``/``POST``/``DELETE <path>`` from version 2."""
    base = str(node.parameters.get("path") or node.webhookId or "").strip().strip("/")
    if float(node.typeVersion) < 2:
        return {("GET", f"{base}/sse"): "setup", ("POST", f"{base}/messages"): "message", ("DELETE", base): "delete"}
    return {("GET", base): "setup", ("POST", base): "message", ("DELETE", base): "delete"}


def server_name(node: NodeModel) -> str:
    """The MCP server's name: the node's tool name from version 1.1 on, ``n8n-mcp-server`` before."""
    return node_name_to_tool_name(node.name) if float(node.typeVersion) > 1 else "n8n-mcp-server"


__all__ = [
    "LIST_TOOLS_KEY",
    "MCP_TRIGGER_TYPE",
    "TOOL_CALL_KEY",
    "TOOL_NOT_FOUND",
    "McpTrigger",
    "format_tool_result",
    "input_schema",
    "is_error_result",
    "is_mcp_trigger",
    "server_name",
    "tool_descriptors",
    "trigger_urls",
]
