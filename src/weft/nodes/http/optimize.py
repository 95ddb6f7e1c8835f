"""HTTP Request's "Optimize Response" (tool use): less data for the model (n8n's ``configureResponseOptimizer``).

Only the JSON optimizer is implemented (pick the field holding the data, keep or drop fields); the HTML one
(CSS selectors over the page) and the text one (Mozilla Readability) refuse with a typed error.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext

Optimizer = Callable[[Any], Any]
_ABSENT: Any = object()


def response_optimizer(ctx: NodeContext, index: int) -> Optimizer:
    """The optimizer the node's parameters ask for; the identity when ``optimizeResponse`` is off."""
    if not ctx.get_node_parameter("optimizeResponse", index, False):
        return lambda body: body
    kind = ctx.get_node_parameter("responseType", index, "json")
    if kind != "json":
        raise NodeOperationError(
            ctx.node.name,
            f"Optimize Response for {kind!r} responses is not supported yet",
            description="Set 'Expected Response Type' to JSON, or turn 'Optimize Response' off.",
            item_index=index,
        )
    return lambda body: _optimize_json(ctx, index, body)


def _optimize_json(ctx: NodeContext, index: int, body: Any) -> list[Any]:
    data = body
    if isinstance(body, str):
        try:
            data = json.loads(body)
        except ValueError:
            raise _fail(ctx, index, f"Received invalid JSON from response '{body}'") from None
    if not isinstance(data, dict | list):
        raise _fail(ctx, index, "The response type must be an object or an array of objects")
    records = _records(ctx, index, data)
    mode = ctx.get_node_parameter("fieldsToInclude", index, "all")
    if mode == "all":
        return records
    fields = ctx.get_node_parameter("fields", index, [])
    if isinstance(fields, str):
        fields = [f.strip() for f in fields.split(",")]
    if mode == "selected":
        return [_selected(record, fields) for record in records]
    if mode == "except":
        return [_without(record, fields) for record in records]
    return []


def _records(ctx: NodeContext, index: int, data: dict[str, Any] | list[Any]) -> list[Any]:
    """The records: the array, or the value of ``dataField`` (an array, or one record), or the object."""
    field = ctx.get_node_parameter("dataField", index, "")
    if isinstance(data, list):
        return [record.get(field) if isinstance(record, dict) else None for record in data] if field else data
    if not field:
        return [data]
    if field not in data:
        keys = ", ".join(data)
        raise _fail(
            ctx,
            index,
            f'Target field "{field}" not found in response.',
            f"The response contained these fields: [{keys}]",
        )
    value = data[field]
    return value if isinstance(value, list) else [value]


def _selected(record: Any, fields: list[str]) -> dict[str, Any]:
    """lodash ``set(out, field, get(record, field))`` for each dotted field."""
    out: dict[str, Any] = {}
    for field in fields:
        value = _get(record, field)
        target = out
        parts = field.split(".")
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        if value is not _ABSENT:  # lodash sets undefined, which JSON leaves out
            target[parts[-1]] = value
    return out


def _without(record: Any, fields: list[str]) -> Any:
    record = copy.deepcopy(record)
    for field in fields:
        parts = field.split(".")
        parent = _get(record, ".".join(parts[:-1])) if len(parts) > 1 else record
        if isinstance(parent, dict):
            parent.pop(parts[-1], None)
    return record


def _get(value: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return _ABSENT
    return value


def _fail(ctx: NodeContext, index: int, message: str, description: str | None = None) -> NodeOperationError:
    return NodeOperationError(ctx.node.name, message, description=description, item_index=index)


__all__ = ["Optimizer", "response_optimizer"]
