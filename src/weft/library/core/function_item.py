"""Function Item (``n8n-nodes-base.functionItem`` v1): n8n's legacy JavaScript node, run once per item.

The code sees ``item`` (a copy of the item's JSON, returned as the output item's JSON), the item's
``$json``/``$node``/``$parameter`` …, ``getBinaryData()``/``setBinaryData(data)`` and their async forms,
``getNodeParameter`` and ``getWorkflowStaticData``. Each output item is paired with its input item. It runs in
the Code node's sandbox, off the event loop, with one time limit for the whole node run. Where n8n 2.x crashed
while wording a thrown error, Weft gives the error n8n meant: ``<message> [Line N | Item Index: I]``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.expressions import ExpressionContext, run_code_for_item
from weft.expressions.code import code_deadline
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

DEFAULT_FUNCTION_ITEM_CODE = """// Code here will run once per input item.
// More info and help: https://docs.n8n.io/integrations/builtin/core-nodes/n8n-nodes-base.functionItem/
// Tip: You can use luxon for dates and $jmespath for querying JSON structures

// Add a new field called 'myNewField' to the JSON of the item
item.myNewField = 1;

// You can write logs to the browser console
console.log('Done!');

return item;"""


class FunctionItem(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.functionItem",
        display_name="Function Item",
        versions=(1,),
        description="Run custom function code which gets executed once per item",
        defaults={"functionCode": DEFAULT_FUNCTION_ITEM_CODE},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        code = str(ctx.get_node_parameter("functionCode", 0, raw=True))
        expression_ctx = ctx.expression_context()
        deadline = code_deadline(expression_ctx)  # one limit for the whole node run, as n8n's Code node
        out: list[Item] = []
        for index in range(len(ctx.get_input_data())):
            try:
                out.append(await self._run_item(ctx, expression_ctx, code, index, deadline))
            except NodeError as exc:
                if not ctx.continue_on_fail():
                    raise
                message, _ = split_line(exc)
                out.append({"json": {"error": message}, "pairedItem": {"item": index}})
        return [out]

    async def _run_item(
        self, ctx: ExecuteContext, expression_ctx: ExpressionContext, code: str, index: int, deadline: float
    ) -> Item:
        fetched = await fetch_binaries(ctx, code, range(index, index + 1))
        source = wrap_code(code, per_item=True, item_index=index, fetched=fetched)
        workflow = getattr(ctx, "workflow", None)
        static = None if workflow is None else workflow.static_data
        try:
            result = await run_in_worker(run_code_for_item, source, expression_ctx, index, static, deadline)
        except NodeError as exc:
            message, line = split_line(exc)
            where = f"Item Index: {index}" if line is None else f"Line {line} | Item Index: {index}"
            exc.message = f"{message} [{where}]"
            exc.args = (exc.message,)
            raise
        value, binary = unwrap(result.items)
        return await _output_item(ctx, value, binary, index)


async def _output_item(ctx: ExecuteContext, value: Any, binary: Any, index: int) -> Item:
    name = ctx.node.name
    if value == UNDEFINED_MARK:
        raise NodeOperationError(
            name,
            "No data got returned. Always an object has to be returned!",
            description="End the code with return item; (or return an object of your own).",
            item_index=index,
        )
    if not isinstance(value, dict):
        raise NodeOperationError(
            name,
            "The json-property has to be an object!",
            description="Return an object such as item or {key: 'value'}.",
            item_index=index,
        )
    out: dict[str, Any] = {"json": value, "pairedItem": {"item": index}}
    stored = await store_binaries(ctx, binary)
    if stored:
        out["binary"] = stored
    return out  # type: ignore[return-value]
