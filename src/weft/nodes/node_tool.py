"""A node used as a tool: its tool definition and its run inside an agent (n8n's ``createNodeAsTool``).

A synthesized ``<type>Tool`` node (:mod:`weft.nodes.as_tool`) supplies a :class:`ToolSpec`: the node's tool
name, the description n8n gives it (``getToolDescriptionForNode``) and the JSON Schema of the ``$fromAI()``
calls in its parameters. When an agent of version 3 calls it, the engine runs the node like any other (its
input item carries the model's arguments, which ``$fromAI()`` reads). Older agents run it inline through
:attr:`ToolSpec.invoke` (:func:`invoke_node_inline`), recorded as n8n's ``makeHandleToolInvocation`` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Any

from weft.errors import NodeOperationError
from weft.expressions.fromai import FromAIError, from_ai_json_schema
from weft.nodes._tool_call_context import ToolCallContext
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.nodes.inline_requests import execute_resolving_requests
from weft.nodes.tool_input import check_tool_input, parsed_tool_input
from weft.nodes.tool_names import node_name_to_tool_name
from weft.workflow import AI_TOOL, Item, NodeModel
from weft.workflow.jsjson import js_json

_RAISE_ERRORS: ContextVar[bool] = ContextVar("weft_node_tool_raises", default=False)


@contextlib.contextmanager
def raising_tool_errors() -> Iterator[None]:
    """Inside, a node run inline as a tool that fails raises its error, as n8n's ``makeHandleToolInvocation``
    throws it: the MCP Server Trigger answers it as an error result. Agents (the default) get an empty text."""
    token = _RAISE_ERRORS.set(True)
    try:
        yield
    finally:
        _RAISE_ERRORS.reset(token)


class ToolSchemaError(NodeOperationError):
    """The node's ``$fromAI()`` calls make no tool schema. As in n8n the agent fails with this error itself (it
    is not wrapped as ``Error in sub-node``, and the tool node gets no run: recorded, cases a105-a107)."""


def tool_schema(node: NodeModel, node_type: NodeType | None = None) -> dict[str, Any]:
    """The JSON Schema of the node's ``$fromAI()`` arguments, or :class:`ToolSchemaError` naming the node.

    As n8n, only the parameters the node shows count (its ``parameter_display``), read in its property order
    (``parameter_order``; others follow as written).
    """
    order: tuple[str, ...] = getattr(node_type, "parameter_order", ())
    rank = {name: index for index, name in enumerate(order)}
    shown = shown_parameters(node.parameters, node_type)
    ordered = dict(sorted(shown.items(), key=lambda kv: rank.get(kv[0], len(rank))))
    try:
        return from_ai_json_schema(node.name, ordered)
    except FromAIError as error:
        raise ToolSchemaError(node.name, error.n8n_message, description=error.n8n_description) from error


def shown_parameters(parameters: Mapping[str, Any], node_type: NodeType | None) -> dict[str, Any]:
    """The top-level parameters whose ``displayOptions`` show them (n8n's ``getNodeParameters``), as a tool."""
    display: Mapping[str, list[dict[str, Any]]] = getattr(node_type, "parameter_display", {})
    defaults: Mapping[str, Any] = getattr(node_type, "display_defaults", {})

    def value(name: str) -> Any:
        return True if name == "@tool" else parameters.get(name, defaults.get(name))

    def matches(options: Mapping[str, Any]) -> bool:
        shown = all(value(k) in allowed for k, allowed in (options.get("show") or {}).items())
        return shown and not any(value(k) in hidden for k, hidden in (options.get("hide") or {}).items())

    return {k: v for k, v in parameters.items() if k not in display or any(matches(o) for o in display[k])}


def tool_description(parameters: Mapping[str, Any], description: NodeDescription) -> str:
    """n8n's ``getToolDescriptionForNode``: the generated one (``descriptionType: auto`` or no text), else the text."""
    text = parameters.get("toolDescription", description.defaults.get("toolDescription"))
    kind = parameters.get("descriptionType", description.defaults.get("descriptionType"))
    if kind == "auto" or not str(text or "").strip():
        return make_description(parameters, description)
    return str(text)


def make_description(parameters: Mapping[str, Any], description: NodeDescription) -> str:
    """n8n's ``makeDescription``: ``<action> in <Node>``, ``<operation> <resource> in <Node>``, else the type's."""
    # n8n reads the parameters with their defaults (an exported workflow leaves default values out)
    resource = parameters.get("resource", description.defaults.get("resource"))
    operation = parameters.get("operation", description.defaults.get("operation"))
    display = str(description.defaults.get("name") or description.display_name)
    for prop in description.properties:
        shown = ((prop.get("displayOptions") or {}).get("show") or {}).get("resource") or []
        if prop.get("name") == "operation" and resource in shown:
            for option in prop.get("options") or []:
                if option.get("value") == operation and option.get("action"):
                    return f"{option['action']} in {display}"
            break
    if resource and operation:
        return f"{operation} {resource} in {display}"
    return description.description


def node_tool_spec(node_type: NodeType, ctx: SupplyDataContext) -> ToolSpec:
    """The tool an agent sees for ``ctx.node`` (n8n's ``createTool``), with the inline runner attached."""
    node = ctx.node
    description = type(node_type).description
    schema = tool_schema(node, node_type)
    return ToolSpec(
        name=node_name_to_tool_name(node.name) or description.name,
        description=tool_description(node.parameters, description),
        parameters=schema,
        source_node_name=node.name,
        invoke=functools.partial(invoke_node_inline, node_type, ctx, schema),
    )


async def invoke_node_inline(
    node_type: NodeType, ctx: SupplyDataContext, schema: dict[str, Any], arguments: dict[str, Any]
) -> str:
    """Run the node inside the agent with the model's ``arguments`` as its one input item.

    As n8n: the run's ``inputOverride`` is ``{ai_tool: [[{json: arguments}]]}``, its output
    ``{response: [<each item's json>]}``, and the model gets that list as JSON. A failure closes the run with
    the error (its description appended as ``Details``) and the model gets an empty text (recorded: case
    a127), or, inside :func:`raising_tool_errors`, the error is raised; with ``retryOnFail`` each try is a run of
    its own. Arguments that do not match ``schema`` fail the agent before the node runs (case a126).
    """
    check_tool_input(ctx.parent_node_name, schema, arguments)
    arguments = parsed_tool_input(schema, arguments)
    tries, wait_ms = _retries(ctx.node)
    raises = _RAISE_ERRORS.get()
    failed: NodeOperationError | None = None
    for attempt in range(tries):
        if attempt and wait_ms:
            await asyncio.sleep(wait_ms / 1000)
        item: Item = {"json": dict(arguments)}
        run = ctx.add_input_data(AI_TOOL, [[item]])
        token = _RAISE_ERRORS.set(False)  # the node's own tools (a sub-agent's) answer their agent as usual
        try:
            # a sub-agent's own tool calls are engine requests: answered in process (beyond n8n 2.41.1, a234)
            result = await execute_resolving_requests(node_type, ToolCallContext(ctx, item, run_index=run))  # type: ignore[arg-type]
        except Exception as error:
            describe = getattr(node_type, "tool_error_description", None)
            description = describe(error) if describe else getattr(error, "description", None)
            failed = _tool_error(ctx.node.name, error, description)
            ctx.add_output_data(AI_TOOL, run, failed)
            continue
        finally:
            _RAISE_ERRORS.reset(token)
        response = _response(result)
        ctx.add_output_data(AI_TOOL, run, [[{"json": {"response": response}}]])
        return js_json(response)
    if raises and failed is not None:
        raise failed
    return ""


def _retries(node: NodeModel) -> tuple[int, int]:
    """n8n's tool retry rule: with ``retryOnFail``, 2 to 5 tries (3 by default), 0-5 s apart (1 s by default)."""
    if not node.retryOnFail:
        return 1, 0
    tries = min(5, max(2, node.maxTries if node.maxTries is not None else 3))
    wait = min(5000, max(0, node.waitBetweenTries if node.waitBetweenTries is not None else 1000))
    return tries, wait


def _tool_error(node_name: str, error: Exception, description: str | None) -> NodeOperationError:
    """n8n's ``NodeOperationError(node, error)`` with ``Details: <description>`` added to the message."""
    message = getattr(error, "message", None) or str(error) or type(error).__name__
    if description and description not in message:
        message = f"{message}\n\nDetails: {description}"
    wrapped = NodeOperationError(node_name, message, description=description)
    wrapped.__cause__ = error
    return wrapped


def _response(result: Any) -> Any:
    """n8n's ``mapResult``: the first output's items' ``json``, or the message for what an agent cannot use."""
    if result is None:
        return None
    if not isinstance(result, list):
        return "Error: The Tool attempted to return an engine request, which is not supported in Agents"
    items: list[Item] = list(result[0] or []) if result else []
    has_binary = any(item.get("binary") for branch in result for item in branch or [])
    useful = any(item.get("json") for branch in result for item in branch or [])
    if has_binary and not useful:
        return "Error: The Tool attempted to return binary data, which is not supported in Agents"
    return [item.get("json", {}) for item in items]


__all__ = [
    "ToolSchemaError",
    "invoke_node_inline",
    "make_description",
    "node_tool_spec",
    "raising_tool_errors",
    "tool_description",
    "tool_schema",
]
