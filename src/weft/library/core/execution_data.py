"""Execution Data (``n8n-nodes-base.executionData`` 1, 1.1): saves key/value pairs as the execution's custom data
(``$execution.customData``, what n8n lets one search executions by), for each item, and passes the items on
(recorded: cases n306-n308). Keys are cut to 50 characters, as n8n does (values are kept whole); an empty value
is ``""`` from 1.1 on.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

_UNDEFINED = object()
MAX_ITEMS = 50
MAX_KEY = 50


class ExecutionData(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.executionData",
        display_name="Execution Data",
        versions=(1, 1.1),
        description="Add execution data for search",
        defaults={"operation": "save", "dataToSave": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        if ctx.get_node_parameter("operation", 0, "save") != "save":
            return [items]
        custom = ctx.expression_context().custom_data
        out: list[Item] = []
        for index, item in enumerate(items):
            try:
                values = (ctx.get_node_parameter("dataToSave", index, {}) or {}).get("values") or []
                version = float(ctx.node.typeVersion)
                for pair in values:
                    _set(ctx, custom, pair.get("key"), _value(pair.get("value", _UNDEFINED), version))
            except NodeError as error:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                continue
            out.append(item)
        return [out]


def _value(value: Any, version: float) -> Any:
    """n8n: ``value ? value : version >= 1.1 ? '' : value`` (JavaScript truthiness)."""
    truthy = value is not _UNDEFINED and value is not None and value is not False and value != "" and value != 0
    return value if truthy else ("" if version >= 1.1 else value)


def _text(value: Any) -> str:
    """JavaScript's ``String(value)`` (``undefined`` for a pair without a value)."""
    return "undefined" if value is _UNDEFINED else js_string(value)


def _set(ctx: ExecuteContext, custom: dict[str, str], key: Any, value: Any) -> None:
    """n8n's ``customData.setAll`` for one pair: a key of at most 50 characters, at most 50 keys (case n308)."""
    name = _text(key)[:MAX_KEY]
    if name not in custom and len(custom) >= MAX_ITEMS:
        raise NodeOperationError(ctx.node.name, "Custom data can only contain up to 50 items")
    custom[name] = _text(value)


__all__ = ["ExecutionData"]
