"""``@n8n/n8n-nodes-langchain.toolCode``: a tool written in JavaScript, run in the expression sandbox.

The code sees the tool's input as ``query`` (a string, or with ``specifyInputSchema`` an object of the schema's
properties) next to the usual ``$input``/``$json``; it must return a string (a number is turned into one).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from weft.ai.tools._math import js_number
from weft.ai.tools._schema import closed_objects, parse_json_parameter, schema_from_example
from weft.ai.tools.base import TOOL_OUTPUTS, ToolNode, string_input, string_input_schema
from weft.errors import NodeOperationError
from weft.expressions import run_code_for_item
from weft.expressions.offload import run_in_worker
from weft.nodes.contract import NodeContext, NodeDescription, ToolSpec
from weft.nodes.tool_names import node_name_to_tool_name

_RESULT_TYPES = {str: "string", bool: "boolean", dict: "object", list: "object", type(None): "undefined"}


def _wrap(code: str, query: Any) -> str:
    """The user's code inside an async function that gets ``query``; the prefix shares line 1, so error line
    numbers still point into the user's code (a named function: an anonymous one gives the Code node's line rule
    no frame to report)."""
    literal = json.dumps(query)
    return (
        f"const query = {literal}; const __weftResult = await (async function codeTool() {{{code}\n}})(); "
        "return {json: {type: __weftResult === null ? 'null' : typeof __weftResult, "
        "value: __weftResult === undefined ? null : __weftResult}};"
    )


class ToolCode(ToolNode):
    """Code Tool (typeVersions 1 … 1.3; JavaScript only)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.toolCode",
        display_name="Code Tool",
        versions=(1, 1.1, 1.2, 1.3),
        description="Write a tool in JS or Python",
        inputs=(),
        outputs=TOOL_OUTPUTS,
        defaults={
            "description": "",
            "language": "javaScript",
            "jsCode": "",
            "specifyInputSchema": False,
            "schemaType": "fromJson",
            "jsonSchemaExample": '{\n\t"some_input": "some_value"\n}',
            "inputSchema": "",
        },
    )

    def tool_spec(self, ctx: NodeContext, item_index: int) -> ToolSpec:
        version = float(ctx.node.typeVersion)
        name = ctx.get_node_parameter("name", item_index, "") if version <= 1.1 else ""
        return ToolSpec(
            name=str(name) or node_name_to_tool_name(ctx.node.name),
            description=str(ctx.get_node_parameter("description", item_index)),
            parameters=self._schema(ctx, item_index) or string_input_schema(),
            source_node_name=ctx.node.name,
        )

    def _schema(self, ctx: NodeContext, item_index: int) -> dict[str, Any] | None:
        """The input schema when ``specifyInputSchema`` is on, else ``None`` (the tool takes one string)."""
        if float(ctx.node.typeVersion) < 1.1 or not ctx.get_node_parameter("specifyInputSchema", item_index):
            return None
        if ctx.get_node_parameter("schemaType", item_index) == "manual":
            schema = closed_objects(
                parse_json_parameter(ctx.node.name, "inputSchema", ctx.get_node_parameter("inputSchema", item_index))
            )
        else:
            example = parse_json_parameter(
                ctx.node.name, "jsonSchemaExample", ctx.get_node_parameter("jsonSchemaExample", item_index)
            )
            schema = schema_from_example(example, all_required=float(ctx.node.typeVersion) >= 1.3)
        if not isinstance(schema, dict) or schema.get("type", "object") != "object":
            raise NodeOperationError(ctx.node.name, "The input schema must describe an object.")
        return schema

    async def respond(self, ctx: NodeContext, item_json: dict[str, Any], item_index: int) -> Any:
        if ctx.get_node_parameter("language", item_index) != "javaScript":
            raise NodeOperationError(
                ctx.node.name, "Only JavaScript is supported in the Code Tool; set 'language' to JavaScript."
            )
        schema = self._schema(ctx, item_index)
        if schema is None:
            query: Any = string_input(item_json)
        else:
            query = {k: item_json[k] for k in schema.get("properties") or {} if k in item_json}
        code = str(ctx.get_node_parameter("jsCode", item_index, raw=True))
        # user code: in a worker, never on the event loop
        result = await run_in_worker(run_code_for_item, _wrap(code, query), ctx.expression_context(), item_index)
        returned = result.items[0]["json"] if result.items else {"type": "undefined", "value": None}
        value = returned.get("value")
        if returned.get("type") == "number" and isinstance(value, int | float):
            return js_number(float(value))
        if not isinstance(value, str):
            kind = returned.get("type") or _RESULT_TYPES.get(type(value), "object")
            raise NodeOperationError(
                ctx.node.name,
                "Wrong output type returned",
                description=f"The response property should be a string, but it is an {kind}",
                item_index=item_index,
            )
        return value


__all__ = ["ToolCode"]
