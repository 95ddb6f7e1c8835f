"""Split Out (``n8n-nodes-base.splitOut`` v1): turns a list (or object) inside each item into separate items."""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.expressions.offload import cooperate
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, get_path, split_fields, unset_path
from weft.workflow import Item, NodeOutput

_MISSING: Any = object()


class SplitOut(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.splitOut",
        display_name="Split Out",
        versions=(1,),
        description="Turn a list inside item(s) into separate items",
        group=("transform",),
        defaults={"fieldToSplitOut": "", "include": "noOtherFields", "fieldsToInclude": "", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        output: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            fields = split_fields(params.get("fieldToSplitOut", index, ""))
            if not fields:
                raise NodeOperationError(
                    ctx.node.name, "'Fields To Split Out' is required", description="Add the field(s) to split out"
                )
            options = params.get("options", index, {}) or {}
            include = params.get("include", index, "noOtherFields")
            try:
                split = _split_item(item, fields, options, include)
            except DestinationCountError as error:
                raise NodeOperationError(
                    ctx.node.name, str(error), description="Give one destination field name per field, comma-separated."
                ) from None
            for position, entry in enumerate(split):
                if not position & 1023:
                    cooperate()  # a list of 300,000 elements must not hold the event loop
                output.append(_finish(ctx, params, item, entry, fields, include, options, index))
        return [output]


class DestinationCountError(ValueError):
    """Several fields to split out, and a different number of destination fields."""


def destination_fields(options: dict[str, Any], field_count: int) -> list[str]:
    """``options.destinationFieldName`` as n8n reads it: one name per field to split out, comma-separated."""
    names = [name.strip() for name in str(options.get("destinationFieldName") or "").split(",") if name.strip()]
    if names and len(names) != field_count:
        raise DestinationCountError(
            "If multiple fields to split out are given, the same number of destination fields must be given"
        )
    return names


def _elements(item: Item, field: str, dot: bool) -> list[Any]:
    if field == "$binary":
        return [{key: value} for key, value in (item.get("binary") or {}).items()]
    value = get_path(item["json"], field, dot_notation=dot, default=_MISSING)
    if value is _MISSING:
        return []
    if not isinstance(value, dict | list):
        return [value]
    return list(value.values()) if isinstance(value, dict) else value


def _split_item(item: Item, fields: list[str], options: dict[str, Any], include: str) -> list[dict[str, Any]]:
    """One entry per element; several fields are split side by side (element ``i`` of each in entry ``i``)."""
    dot = not options.get("disableDotNotation")
    destinations = destination_fields(options, len(fields))
    multi = len(fields) > 1
    split: list[dict[str, Any]] = []
    for field_index, field in enumerate(fields):
        destination = destinations[field_index] if field_index < len(destinations) else ""
        for position, element in enumerate(_elements(item, field, dot)):
            if not position & 1023:
                cooperate()
            if position >= len(split):
                split.append({"json": {}})
            entry = split[position]
            if field == "$binary":
                entry.setdefault("binary", {}).update(element)
                continue
            name = destination or field
            if isinstance(element, dict | list) and not destination and not multi and include == "noOtherFields":
                spread = element if isinstance(element, dict) else {str(i): v for i, v in enumerate(element)}
                entry["json"] = {**entry["json"], **spread}
            else:
                entry["json"][name] = element
    return split


def _finish(
    ctx: ExecuteContext,
    params: Params,
    item: Item,
    entry: dict[str, Any],
    fields: list[str],
    include: str,
    options: dict[str, Any],
    index: int,
) -> Item:
    dot = not options.get("disableDotNotation")
    source = item["json"]
    new_item: dict[str, Any] = {"json": entry["json"], "pairedItem": {"item": index}}
    if "binary" in entry:
        new_item["binary"] = entry["binary"]
    if include == "allOtherFields":
        rest = dict(source)
        for field in fields:
            if dot:
                unset_path(rest, field)
            else:
                rest.pop(field, None)
        new_item["json"] = {**rest, **entry["json"]}
    elif include == "selectedOtherFields":
        selected = split_fields(params.get("fieldsToInclude", index, ""))
        if not selected:
            raise NodeOperationError(ctx.node.name, "No fields specified", description="Please add a field to include")
        for field in selected:
            value = get_path(source, field, dot_notation=dot, default=_MISSING)
            if value is not _MISSING:
                new_item["json"][field] = value
    if options.get("includeBinary") and item.get("binary") and "binary" not in new_item:
        new_item["binary"] = item["binary"]
    return new_item  # type: ignore[return-value]
