"""HTTP Request Tool, the LangChain one (``@n8n/n8n-nodes-langchain.toolHttpRequest`` 1 and 1.1).

The model fills ``{placeholders}`` in the URL, query, headers and body (:mod:`._http_tool_params`); version 1.1
offers them as a JSON Schema, version 1 as one string described in the tool description. A call is a run of
this node (``inputOverride`` ``{query: <arguments>}``, output ``{response: <text>}``) and the model gets the
response as text: JSON pretty-printed, an HTTP failure as ``There was an error: "…"`` (n8n's
``configureToolFunction``). It runs inside agents before version 3 (:attr:`ToolSpec.invoke`). n8n cannot run it
from an engine request: 2.8.4 fails the workflow with "Invalid URL", 2.41.1 answers the agent that the node has no
``execute`` method (recorded: case a117); Weft does as 2.41.1.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from typing import Any, ClassVar

import httpx

from weft.ai.models.http_client import ai_http_client
from weft.ai.tools._http_tool_auth import ToolAuth, tool_auth
from weft.ai.tools._http_tool_fill import fill_request
from weft.ai.tools._http_tool_params import (
    RequestTemplate,
    ToolParameter,
    collect,
    fallback_description,
    input_schema,
)
from weft.ai.tools.base import TOOL_OUTPUTS, string_input_schema
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeContext, NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.nodes.http.optimize import response_optimizer
from weft.nodes.tool_input import check_tool_input
from weft.workflow import AI_TOOL, NodeOutput
from weft.workflow.jsjson import pretty_json

_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
_TIMEOUT_S = 300.0
_MAX_ERROR_BODY = 2000


class ToolHttpRequest(NodeType):
    """toolHttpRequest: supplies one tool; each call is one HTTP request."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.toolHttpRequest",
        display_name="HTTP Request Tool",
        versions=(1, 1.1),
        description="Makes an HTTP request and returns the response data",
        group=("output",),
        inputs=(),
        outputs=TOOL_OUTPUTS,
        defaults={"name": "HTTP Request", "method": "GET", "authentication": "none", "toolDescription": ""},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ToolSpec:
        name = ctx.node.name.replace(" ", "_")
        if not _NAME.match(name):
            raise NodeOperationError(
                ctx.node.name,
                "The name of this tool is not a valid alphanumeric string",
                description="Only alphanumeric characters and underscores are allowed in the tool's name, and the "
                "name cannot start with a number",
                item_index=item_index,
            )
        text = str(ctx.get_node_parameter("toolDescription", item_index, "") or "")
        auth = await tool_auth(ctx, item_index, str(ctx.get_node_parameter("url", item_index, "") or ""))
        parameters, template = collect(ctx, item_index)
        if ctx.node.typeVersion >= 1.1:
            schema, description = input_schema(parameters), text
        else:
            schema, description = string_input_schema(), fallback_description(text, parameters)
        invoke = functools.partial(_call, ctx, parameters, template, auth, item_index, schema)
        return ToolSpec(
            name=name, description=description, parameters=schema, source_node_name=ctx.node.name, invoke=invoke
        )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        """Run from an agent's engine request (AI Agent 3+): refused as n8n 2.41.1 refuses it."""
        raise NodeOperationError(
            ctx.node.name,
            f'The node "{self.description.name}" has a "supplyData" method but no "execute" method.',
            description="Use the HTTP Request node as a tool (n8n-nodes-base.httpRequestTool) with AI Agent 3+.",
        )


async def _call(
    ctx: SupplyDataContext,
    parameters: list[ToolParameter],
    template: RequestTemplate,
    auth: ToolAuth,
    index: int,
    schema: dict[str, Any],
    arguments: dict[str, Any],
) -> str:
    """One tool call, recorded as a run of the node; returns the text the model gets."""
    if ctx.node.typeVersion >= 1.1:
        check_tool_input(ctx.parent_node_name, schema, arguments)
    query: Any = arguments.get("input", "") if ctx.node.typeVersion < 1.1 else arguments
    run = ctx.add_input_data(AI_TOOL, [[{"json": {"query": query}}]])
    try:
        request = fill_request(ctx.node.name, parameters, copy.deepcopy(template), query, index)
    except NodeOperationError as error:
        ctx.add_output_data(AI_TOOL, run, error)
        return "Input provided by model is not valid"
    response = await _send(ctx, index, request, auth)
    ctx.add_output_data(AI_TOOL, run, [[{"json": {"response": response}}]])
    return response


async def _send(ctx: NodeContext, index: int, request: RequestTemplate, auth: ToolAuth) -> str:
    parts = request.parts
    body = {**(parts.get("body") or {}), **auth.body} if auth.body else parts.get("body")
    headers = {**{k: str(v) for k, v in (parts.get("headers") or {}).items()}, **auth.headers}
    query = {**(parts.get("qs") or {}), **auth.qs}
    try:
        async with ai_http_client(_TIMEOUT_S) as client:
            response = await client.request(
                request.method,
                request.url,
                params=query or None,
                headers=headers,
                json=body if body else None,
                auth=auth.auth or httpx.USE_CLIENT_DEFAULT,
            )
    except httpx.HTTPError as error:
        return f'There was an error: "{_transport_message(error, request.url)}"'
    if response.status_code >= 400:
        return _failure_text(response)
    try:
        return _text_of(ctx, index, response)
    except NodeOperationError as error:
        return f'There was an error: "{error.message}"'


def _failure_text(response: httpx.Response) -> str:
    """n8n 2.41.1's answer for a failed request: status, axios's message, and the body (case a123)."""
    status = response.status_code
    text = f'HTTP {status} There was an error: "Request failed with status code {status}"'
    body: Any = response.text
    if "application/json" in response.headers.get("content-type", ""):
        try:
            body = json.loads(response.text)
        except ValueError:
            body = response.text
    serialized = body if isinstance(body, str) else pretty_json(body)
    if serialized.strip() and "\0" not in serialized:
        cut = serialized[:_MAX_ERROR_BODY] + ("... [truncated]" if len(serialized) > _MAX_ERROR_BODY else "")
        text += f"\nResponse body: {cut}"
    return text


def _transport_message(error: httpx.HTTPError, url: str) -> str:
    """axios's wording for the usual failures."""
    if isinstance(error, httpx.ConnectError):
        host = httpx.URL(url)
        return f"connect ECONNREFUSED {host.host}:{host.port or (443 if host.scheme == 'https' else 80)}"
    if isinstance(error, httpx.TimeoutException):
        return f"timeout of {int(_TIMEOUT_S * 1000)}ms exceeded"
    return str(error) or type(error).__name__


def _text_of(ctx: NodeContext, index: int, response: httpx.Response) -> str:
    """The body as the model gets it: text as it is, JSON pretty-printed (or through the JSON optimizer)."""
    if "\0" in response.text:
        raise NodeOperationError(ctx.node.name, "Binary data is not supported")
    body: Any = response.text
    if "application/json" in response.headers.get("content-type", ""):
        try:
            body = json.loads(response.text) if response.text.strip() else ""
        except ValueError:
            body = response.text
    if ctx.get_node_parameter("optimizeResponse", index, False):
        return pretty_json(response_optimizer(ctx, index)(body))
    return body if isinstance(body, str) else pretty_json(body)


__all__ = ["ToolHttpRequest"]
