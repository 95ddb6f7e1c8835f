"""``@n8n/n8n-nodes-langchain.toolWorkflow`` (Call n8n Workflow Tool): another workflow as an agent's tool.

As n8n 2.8.4 does it (recorded: cases a170-a179):

* **Name and schema.** The tool is named by the ``name`` parameter up to version 2.1 and after its node from 2.2. It
  takes one string (``input``), unless v2 maps the sub-workflow's inputs (``workflowInputs`` with a schema: the
  ``$fromAI()`` calls of the node's parameters make the schema; n8n keeps that mapping for ``source: database``
  only) or v1 ``specifyInputSchema`` gives one (from ``jsonSchemaExample`` or ``inputSchema``).
* **The sub-workflow's input** is one item: ``{query}`` (the string, or the arguments object); v1 adds its
  ``fields``; v2 with mapped inputs sends the tool's input item with the mapped values over it. The sub-workflow
  runs as its own execution (mode ``integrated``), loaded from the database (``workflowId``) or from
  ``workflowJson`` (``source: parameter``), through the host's :class:`~weft.nodes.contract.ExecutionServices`.
* **The result**: the first output item's ``json`` (v1, v2), every item of the first output (v2.1+). Run by the
  engine for an agent of version 3 (:meth:`ToolWorkflow.execute`), the tool's output is those items; run inline
  by an older agent, the model gets the result as n8n's ``JSON.stringify(…, null, 2)``.
* **A failure**: run by the engine, the tool's run fails with the sub-workflow's error, which the agent passes to
  the model (n8n 2.41.1); run inline, the result is ``There was an error: "<message>"``.
* **A sub-workflow that waits** (run by the engine): the execution waits with it and the tool's result is n8n
  2.41.1's placeholder; when the child finishes, the tool's run becomes the child's result and the agent goes on.
* **Version 1 under an agent of version 3**: n8n cannot run it (2.8.4: "Invalid URL", 2.41.1: "has a
  ``supplyData`` method but no ``execute`` method"); Weft runs it like version 2 (``docs/differences.md``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
from typing import Any, ClassVar

from weft.ai.tools._schema import closed_objects, parse_json_parameter, schema_from_example
from weft.ai.tools.base import TOOL_OUTPUTS, string_input_schema
from weft.errors import NodeOperationError, WeftError
from weft.expressions.fromai import FromAIError, from_ai_json_schema
from weft.nodes._tool_call_context import ToolCallContext
from weft.nodes.contract import (
    ExecuteContext,
    NodeContext,
    NodeDescription,
    NodeType,
    SupplyDataContext,
    ToolSpec,
)
from weft.nodes.subworkflows import load_sub_workflow, resumed_sub_execution_error, waiting_children
from weft.nodes.tool_names import node_name_to_tool_name
from weft.workflow import AI_TOOL, Item, NodeOutput
from weft.workflow.jsjson import js_json, normalize_numbers

#: n8n's ``workflowJson`` default (the editor's empty code box).
EMPTY_JSON = "\n" * 9
#: The tool's result while its sub-workflow waits (n8n 2.41.1's ``SUB_WORKFLOW_WAITING_PLACEHOLDER``).
WAITING_PLACEHOLDER = {
    "status": "Sub-workflow is paused (waiting for a human response or a scheduled resume); this run will resume "
    "automatically with the result. Do not call this tool again."
}


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class ToolResult:
    """One call's outcome: the text the model reads and the items the tool outputs."""

    text: str
    items: list[Item]
    error: WeftError | None = None
    """Set when the call failed; ``text`` is then n8n's ``There was an error: "…"``."""


class ToolWorkflow(NodeType):
    """Call n8n Workflow Tool, versions 1 to 2.2."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.toolWorkflow",
        display_name="Call n8n Workflow Tool",
        versions=(1, 1.1, 1.2, 1.3, 2, 2.1, 2.2),
        description="Uses another n8n workflow as a tool. Allows packaging any n8n node(s) as a tool.",
        inputs=(),
        outputs=TOOL_OUTPUTS,
        defaults={
            "name": "",
            "description": "",
            "source": "database",
            "workflowId": "",
            "workflowJson": EMPTY_JSON,
            "specifyInputSchema": False,
            "schemaType": "fromJson",
            "jsonSchemaExample": '{\n\t"some_input": "some_value"\n}',
            "inputSchema": "",
            "fields": {},
        },
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ToolSpec:
        return ToolSpec(
            name=tool_name(ctx, item_index),
            description=str(ctx.get_node_parameter("description", item_index)),
            parameters=input_schema(ctx, item_index) or string_input_schema(),
            source_node_name=ctx.node.name,
            invoke=functools.partial(invoke_inline, ctx),
        )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        """A run the engine makes for an agent (or on its own): each input item is one call. A call that failed
        after its tries fails the run (n8n 2.41.1; 2.8.4 output ``There was an error: …`` as a response): the agent
        tells the model the error."""
        failed_child = resumed_sub_execution_error(ctx)
        if failed_child is not None:  # its waiting sub-workflow failed after the wait
            raise NodeOperationError(ctx.node.name, str(failed_child.get("message") or "The sub-workflow failed"))
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            result = await call_workflow(ctx, tool_query(ctx, item.get("json") or {}, index), index)
            if result.error is not None:
                raise NodeOperationError(ctx.node.name, result.error.message, item_index=index) from result.error
            out.extend({**i, "pairedItem": {"item": index}} for i in result.items)  # type: ignore[typeddict-item]
        return [out]


# --------------------------------------------------------------------------- the tool definition


def tool_name(ctx: NodeContext, item_index: int) -> str:
    if float(ctx.node.typeVersion) <= 2.1:
        return str(ctx.get_node_parameter("name", item_index, "")) or node_name_to_tool_name(ctx.node.name)
    return node_name_to_tool_name(ctx.node.name)


def input_schema(ctx: NodeContext, item_index: int) -> dict[str, Any] | None:
    """The tool's JSON Schema, or ``None`` when it takes one string."""
    if float(ctx.node.typeVersion) >= 2:
        return _mapped_inputs_schema(ctx)
    if not ctx.get_node_parameter("specifyInputSchema", item_index):
        return None
    if ctx.get_node_parameter("schemaType", item_index) == "manual":
        raw = ctx.get_node_parameter("inputSchema", item_index)
        schema = closed_objects(parse_json_parameter(ctx.node.name, "inputSchema", raw))
    else:
        example = parse_json_parameter(
            ctx.node.name, "jsonSchemaExample", ctx.get_node_parameter("jsonSchemaExample", item_index)
        )
        schema = schema_from_example(example, all_required=False)
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        raise NodeOperationError(ctx.node.name, "Error during parsing of JSON Schema: it must describe an object.")
    return schema


def _mapped_inputs_schema(ctx: NodeContext) -> dict[str, Any] | None:
    """v2: the ``$fromAI()`` arguments of the node's parameters, when the sub-workflow's inputs are mapped."""
    if not _maps_inputs(ctx):
        return None
    try:
        schema = from_ai_json_schema(ctx.node.name, ctx.node.parameters)
    except FromAIError as error:
        raise NodeOperationError(ctx.node.name, error.n8n_message, description=error.n8n_description) from error
    return schema if schema.get("properties") else None


def _maps_inputs(ctx: NodeContext) -> bool:
    """n8n's ``useSchema``: a ``workflowInputs`` schema, which n8n keeps only with ``source: database``."""
    if ctx.get_node_parameter("source", 0, "database") != "database":
        return False
    inputs = ctx.node.parameters.get("workflowInputs")
    return isinstance(inputs, dict) and bool(inputs.get("schema"))


def tool_query(ctx: NodeContext, arguments: dict[str, Any], item_index: int) -> Any:
    """What the tool function is called with (LangChain's parsed input): the string, or the schema's arguments."""
    schema = input_schema(ctx, item_index)
    if schema is None:
        value = arguments.get("input")
        return value if value is None or isinstance(value, str) else json.dumps(value)
    return {key: arguments[key] for key in schema.get("properties") or {} if key in arguments}


# --------------------------------------------------------------------------- one call


async def call_workflow(ctx: ExecuteContext, query: Any, item_index: int) -> ToolResult:
    """Run the sub-workflow for ``query`` (retrying as the node's retry settings say); failures become results."""
    tries, wait_ms = _retries(ctx)
    result = ToolResult(text="", items=[])
    for attempt in range(tries):
        if attempt and wait_ms:
            await asyncio.sleep(wait_ms / 1000)
        try:
            return _result(ctx, await _run(ctx, query, item_index))
        except WeftError as error:
            text = f'There was an error: "{error.message}"'
            result = ToolResult(text=text, items=[{"json": {"response": text}}], error=error)
    return result


def _retries(ctx: NodeContext) -> tuple[int, int]:
    """n8n's bounds for a tool's retries: 2 to 5 tries, at most 5 s apart."""
    node = ctx.node
    if not node.retryOnFail:
        return 1, 0
    return min(5, max(2, node.maxTries or 3)), min(5000, max(0, node.waitBetweenTries or 1000))


async def _run(ctx: ExecuteContext, query: Any, item_index: int) -> Any:
    """The sub-workflow's response: the first item's json, or (v2.1+) the first output's items."""
    workflow = _workflow_json(ctx, item_index)
    if workflow is None:
        workflow = await load_sub_workflow(ctx, item_index)
    if ctx.services is None:
        raise NodeOperationError(ctx.node.name, "This execution cannot run sub-workflows: it has no services")
    items = [{"json": _input_json(ctx, query, item_index)}]
    output = await ctx.services.execute_workflow(ctx, workflow, items, wait=True)  # type: ignore[arg-type]
    all_items = float(ctx.node.typeVersion) > 2
    if _waits_for_child(ctx):  # the execution waits with its child, which resumes it with its result
        return [{"json": dict(WAITING_PLACEHOLDER)}] if all_items else dict(WAITING_PLACEHOLDER)
    first = list((output or [[]])[0] or [])
    if all_items:
        response: Any = first or None
    else:
        response = first[0].get("json") if first else None
    if response is None:
        raise NodeOperationError(ctx.node.name, 'There was an error: "The workflow did not return a response"')
    return response


def _waits_for_child(ctx: NodeContext) -> bool:
    entry = getattr(ctx, "execute_data", None)
    metadata = (entry.get("metadata") if isinstance(entry, dict) else None) or {}
    return bool(waiting_children(metadata))


def _workflow_json(ctx: NodeContext, item_index: int) -> dict[str, Any] | None:
    """``source: parameter``: the parsed ``workflowJson`` (with n8n's message when it does not parse)."""
    if ctx.get_node_parameter("source", item_index, "database") != "parameter":
        return None
    text = ctx.get_node_parameter("workflowJson", item_index, EMPTY_JSON)
    if isinstance(text, dict):
        return text
    try:
        data = json.loads(str(text))
    except json.JSONDecodeError as exc:
        raise NodeOperationError(
            ctx.node.name,
            f'The provided workflow is not valid JSON: "{v8_json_message(exc)}"',
            description="Paste the sub-workflow's JSON, as n8n exports it, into 'Workflow JSON'.",
            item_index=item_index,
        ) from None
    if not isinstance(data, dict) or "nodes" not in data:
        raise NodeOperationError(
            ctx.node.name,
            "The provided workflow is not a workflow: expected an object with 'nodes' and 'connections'",
            item_index=item_index,
        )
    return data


def v8_json_message(exc: json.JSONDecodeError) -> str:
    """Node 24's ``JSON.parse`` message (n8n 2.41.1) for the common mistakes (Python words them differently)."""
    if exc.msg.startswith("Expecting property name"):
        return f"Expected property name or '}}' in JSON at position {exc.pos} (line {exc.lineno} column {exc.colno})"
    if exc.pos >= len(exc.doc.rstrip()):
        return "Unexpected end of JSON input"
    token = exc.doc[exc.pos]
    return f"Unexpected token '{token}', \"{exc.doc[:30]}\" is not valid JSON"


def _input_json(ctx: ExecuteContext, query: Any, item_index: int) -> dict[str, Any]:
    """The sub-workflow's one input item (n8n's Set "manual" step over ``{query}``)."""
    if float(ctx.node.typeVersion) >= 2:
        if not _maps_inputs(ctx):
            return {"query": query} if query is not None else {}
        item = (ctx.get_input_data() or [{"json": {}}])[item_index]
        values = ctx.get_node_parameter("workflowInputs.value", item_index, None)
        return {**(item.get("json") or {}), **(values if isinstance(values, dict) else {})}
    json_data: dict[str, Any] = {"query": query} if query is not None else {}
    for field in ctx.get_node_parameter("fields.values", item_index, []) or []:
        if isinstance(field, dict) and field.get("name"):
            json_data[str(field["name"])] = _field_value(field)
    return json_data


def _field_value(field: dict[str, Any]) -> Any:
    """A v1 ``fields`` entry's value, of its type (``stringValue`` by default)."""
    kind = str(field.get("type") or "stringValue")
    value = field.get(kind, field.get("stringValue", ""))
    if kind == "numberValue":
        try:
            return normalize_numbers(float(value))
        except (TypeError, ValueError):
            return value
    if kind == "booleanValue":
        return value is True or str(value).lower() == "true"
    if kind in ("arrayValue", "objectValue") and isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def _result(ctx: NodeContext, response: Any) -> ToolResult:
    """n8n's ``handleToolResponse``: the text the model reads and the tool's output items."""
    if isinstance(response, list):
        return ToolResult(text=js_json([i.get("json") for i in response], indent=2), items=list(response))
    if isinstance(response, dict):
        return ToolResult(text=js_json(response, indent=2), items=[{"json": response}])
    if isinstance(response, int | float) and not isinstance(response, bool):
        text = json.dumps(normalize_numbers(response))
        return ToolResult(text=text, items=[{"json": {"response": text}}])
    if not isinstance(response, str):
        raise NodeOperationError(
            ctx.node.name,
            "Wrong output type returned",
            description=f"The response property should be a string, but it is an {type(response).__name__}",
        )
    return ToolResult(text=response, items=[{"json": {"response": response}}])


# --------------------------------------------------------------------------- inside an older agent


class _InlineCall(ToolCallContext):
    """A :class:`ToolCallContext` with a stack entry, so the host can note the sub-execution on it."""

    def __init__(self, parent: SupplyDataContext, item: Item, *, run_index: int) -> None:
        super().__init__(parent, item, run_index=run_index)
        self.execute_data: dict[str, Any] = {"node": {"name": parent.node.name}, "data": {}, "metadata": {}}


async def invoke_inline(ctx: SupplyDataContext, arguments: dict[str, Any]) -> str:
    """Run the tool inside an agent before version 3: one run of this node (its input ``{query}``, its output the
    result) and the model reads the result's text."""
    query = tool_query(ctx, dict(arguments), 0)
    # the run's input is what the tool function got (n8n's logWrapper: {query}; nothing for a missing string)
    run = ctx.add_input_data(AI_TOOL, [[{"json": {"query": query} if query is not None else {}}]])
    call = _InlineCall(ctx, {"json": dict(arguments)}, run_index=run)
    result = await call_workflow(call, query, 0)  # type: ignore[arg-type]
    sub = (call.execute_data.get("metadata") or {}).get("subExecution")
    metadata = {"subExecution": sub} if sub else None
    if result.error is not None and float(ctx.node.typeVersion) < 2:
        ctx.add_output_data(AI_TOOL, run, result.error, metadata)
    elif result.error is not None:
        ctx.add_output_data(AI_TOOL, run, [[{"json": {"error": result.text}}]], metadata)
    else:
        ctx.add_output_data(AI_TOOL, run, [result.items], metadata)
    return result.text


__all__ = ["ToolResult", "ToolWorkflow", "call_workflow", "invoke_inline", "tool_query"]
