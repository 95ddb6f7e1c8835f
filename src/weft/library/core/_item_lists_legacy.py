"""Item Lists 1 and 2.x: their parameters as the standalone nodes read them, and their own checks.

Versions 1 and 2.x list fields in fixed collections (``fieldsToInclude.fields[].fieldName``) where the later
nodes take a comma-separated string, and they refuse input that version 3 accepts: a missing field to split
out or aggregate (before 2.1), a field that is not a list (1) or not an object (before 2.2).
"""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.nodes.values import get_path

_MISSING: Any = object()
_DOT_HINT = "If you're trying to use a nested field, make sure you turn off 'disable dot notation' in the node options"
#: Fixed collections of field names in versions 1 and 2.x, by parameter.
_FIELD_LISTS = ("fieldsToInclude", "fieldsToExclude", "fieldsToCompare")


def flatten_field_lists(parameters: dict[str, Any]) -> dict[str, Any]:
    """``{fields: [{fieldName: "a"}, …]}`` → ``["a", …]`` for the parameters that were fixed collections."""
    out = dict(parameters)
    for name in _FIELD_LISTS:
        value = out.get(name)
        if isinstance(value, dict):
            out[name] = [entry.get("fieldName", "") for entry in value.get("fields") or [] if isinstance(entry, dict)]
    return out


def _value(json: dict[str, Any], field: str, dot: bool) -> Any:
    if dot:
        return get_path(json, field, default=_MISSING)
    return json.get(field, _MISSING)


def _not_found(ctx: ExecuteContext, field: str, dot: bool, item_index: int | None = None) -> NodeOperationError:
    description = _DOT_HINT if not dot and "." in field else None
    return NodeOperationError(
        ctx.node.name,
        f"Couldn't find the field '{field}' in the input data",
        description=description,
        item_index=item_index,
    )


def split_out_fields(ctx: ExecuteContext, version: float, item_index: int) -> list[str]:
    """The fields version 1 or 2.x splits out of item ``item_index``, after its checks (1: one field)."""
    raw = str(ctx.get_node_parameter("fieldToSplitOut", item_index, ""))
    fields = [raw] if version < 2 else [field.strip() for field in raw.split(",")]
    options = ctx.get_node_parameter("options", item_index, {}) or {}
    dot = not options.get("disableDotNotation")
    json = ctx.get_input_data()[item_index]["json"]
    for field in fields:
        value = _value(json, field, dot)
        if value is _MISSING:
            if version < 2.1:
                raise _not_found(ctx, field, dot, None if not dot and "." in field else item_index)
            continue
        if version < 2 and not isinstance(value, list):
            raise NodeOperationError(
                ctx.node.name, f"The provided field '{field}' is not an array", item_index=item_index
            )
        if version < 2.2 and not isinstance(value, dict | list):
            raise NodeOperationError(
                ctx.node.name, f"The provided field '{field}' is not an array or object", item_index=item_index
            )
    return fields


def check_aggregated_fields(ctx: ExecuteContext) -> None:
    """Before 2.1, aggregating a field that no item has is an error (unless missing values are kept)."""
    if ctx.get_node_parameter("aggregate", 0, "aggregateIndividualFields") != "aggregateIndividualFields":
        return
    dot = not ctx.get_node_parameter("options.disableDotNotation", 0, False)
    keep_missing = ctx.get_node_parameter("options.keepMissing", 0, False)
    items = ctx.get_input_data()
    for entry in ctx.get_node_parameter("fieldsToAggregate.fieldToAggregate", 0, []) or []:
        field = str(entry.get("fieldToAggregate", ""))
        if field == "" and items:
            raise NodeOperationError(
                ctx.node.name, "Field to aggregate is blank", description="Please add a field to aggregate"
            )
        found = any(_value(item["json"], field, dot) is not _MISSING for item in items)
        if not found and not dot and "." in field:
            raise _not_found(ctx, field, dot)
        if not found and not keep_missing:
            raise _not_found(ctx, field, dot)
