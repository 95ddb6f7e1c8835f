"""Function (``n8n-nodes-base.function`` v1): n8n's legacy JavaScript node, run once for all items.

The code sees ``items`` (deep copies of the input items, each with its ``index``), ``$item(i)`` (the data of
item ``i``), ``$json``/``$node``/``$parameter`` … of item 0, ``getBinaryDataAsync(item)``,
``setBinaryDataAsync(item, data)``, ``getNodeParameter`` and ``getWorkflowStaticData``; what it returns is
normalized as n8n's ``normalizeItems``. It runs in the Code node's sandbox, off the event loop, time-limited.
Where n8n 2.x crashed while wording an error (a thrown error, an ``undefined`` result), Weft gives the error n8n
meant: ``<message> [Line N]`` and "No data got returned. Always return an Array of items!".
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.expressions import run_code
from weft.expressions.offload import run_in_worker
from weft.library.core._function_js import (
    UNDEFINED_MARK,
    fetch_binaries,
    split_line,
    store_binaries,
    unwrap,
    wrap_code,
)
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

DEFAULT_FUNCTION_CODE = """// Code here will run only once, no matter how many input items there are.
// More info and help:https://docs.n8n.io/integrations/builtin/core-nodes/n8n-nodes-base.function/
// Tip: You can use luxon for dates and $jmespath for querying JSON structures

// Loop over inputs and add a new field called 'myNewField' to the JSON of each one
for (item of items) {
  item.json.myNewField = 1;
}

// You can write logs to the browser console
console.log('Done!');

return items;"""

_HELP = "Return an array of items, e.g. return items; or return [{json: {key: 'value'}}];"


class Function(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.function",
        display_name="Function",
        versions=(1,),
        description="Run custom function code which gets executed once and allows you to add, remove, change and "
        "replace items",
        defaults={"functionCode": DEFAULT_FUNCTION_CODE},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        code = str(ctx.get_node_parameter("functionCode", 0, raw=True))
        count = len(ctx.get_input_data())
        source = wrap_code(code, per_item=False, fetched=await fetch_binaries(ctx, code, range(count)))
        try:
            result = await run_in_worker(run_code, source, ctx.expression_context(), _static_data(ctx))
            value, _ = unwrap(result.items)
            items = [await _finish_item(ctx, item) for item in normalize_items(ctx.node.name, value)]
        except NodeError as exc:
            message, line = split_line(exc)
            if ctx.continue_on_fail():
                return [[{"json": {"error": message}}]]
            if line is not None:
                exc.message = f"{message} [Line {line}]"
                exc.args = (exc.message,)
            raise
        return [items]


def _static_data(ctx: ExecuteContext) -> dict[str, Any] | None:
    workflow = getattr(ctx, "workflow", None)
    return None if workflow is None else workflow.static_data


async def _finish_item(ctx: ExecuteContext, item: dict[str, Any]) -> Item:
    """n8n's checks of a returned item; binary entries the code set are stored."""
    name = ctx.node.name
    if "json" not in item:
        raise NodeOperationError(name, 'All returned items have to contain a property named "json"!', description=_HELP)
    if not isinstance(item["json"], dict | list):
        raise NodeOperationError(name, "The json-property has to be an object!", description=_HELP)
    out: dict[str, Any] = {"json": item["json"]}
    if item.get("binary") is not None:
        if isinstance(item["binary"], list):
            raise NodeOperationError(name, "The binary-property has to be an object!")
        out["binary"] = await store_binaries(ctx, item["binary"])
    if item.get("pairedItem") is not None:
        out["pairedItem"] = item["pairedItem"]
    return out  # type: ignore[return-value]


def normalize_items(node_name: str, value: Any) -> list[dict[str, Any]]:
    """n8n's ``normalizeItems`` of what the code returned, with n8n's Function errors."""
    if value == UNDEFINED_MARK or value is None:
        raise NodeOperationError(node_name, "No data got returned. Always return an Array of items!", description=_HELP)
    if isinstance(value, dict):
        value = [value] if value.get("json") else [{"json": value}]
    if not isinstance(value, list):
        raise NodeOperationError(node_name, "Always an Array of items has to be returned!", description=_HELP)
    objects = [isinstance(item, dict) for item in value]
    with_json = [ok and "json" in item for ok, item in zip(objects, value, strict=True)]
    if all(with_json):
        return list(value)
    if any(with_json):
        raise NodeOperationError(node_name, "Inconsistent item format", description=_HELP)
    with_binary = [ok and "binary" in item for ok, item in zip(objects, value, strict=True)]
    if all(with_binary):
        return [{"json": {k: v for k, v in item.items() if k != "binary"}, "binary": item["binary"]} for item in value]
    if any(with_binary):
        raise NodeOperationError(node_name, "Inconsistent item format", description=_HELP)
    return [{"json": item} for item in value]
