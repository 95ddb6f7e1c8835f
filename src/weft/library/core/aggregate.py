"""Aggregate (``n8n-nodes-base.aggregate`` v1): combines fields of all items (or whole items) into one item."""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, get_path, set_path, split_fields, unset_path
from weft.workflow import Item, NodeOutput

_MISSING: Any = object()


class Aggregate(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.aggregate",
        display_name="Aggregate",
        versions=(1,),
        description="Combine a field from many items into a list in a single item",
        group=("transform",),
        defaults={
            "aggregate": "aggregateIndividualFields",
            "destinationFieldName": "data",
            "include": "allFields",
            "fieldsToInclude": "",
            "fieldsToExclude": "",
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        items = ctx.get_input_data()
        if params.get("aggregate", 0, "aggregateIndividualFields") == "aggregateIndividualFields":
            result = _individual_fields(ctx, params, items)
        else:
            result = _all_item_data(params, items)
        if params.get("options.includeBinaries", 0, False):
            result["binary"] = _binaries(items, result)
        return [[result]]


def _binaries(items: list[Item], result: Item) -> dict[str, Any]:
    """The binaries of the aggregated items, renamed ``data_0``, ``data_1`` … (``keepOnlyUnique`` not supported)."""
    binaries: dict[str, Any] = {}
    for paired in result.get("pairedItem") or []:  # type: ignore[union-attr]
        index = int(paired["item"] if isinstance(paired, dict) else paired)
        for value in (items[index].get("binary") or {}).values():
            binaries[f"data_{len(binaries)}"] = value
    return binaries


def _individual_fields(ctx: ExecuteContext, params: Params, items: list[Item]) -> Item:
    options = params.get("options", 0, {}) or {}
    dot = not options.get("disableDotNotation")
    fields = params.get("fieldsToAggregate.fieldToAggregate", 0, []) or []
    if not fields:
        raise NodeOperationError(ctx.node.name, "No fields specified", description="Please add a field to aggregate")
    values: dict[str, list[Any]] = {}
    used: list[str] = []
    for spec in fields:
        field = str(spec.get("fieldToAggregate", ""))
        output_name = spec.get("outputFieldName") or ""
        name = output_name if spec.get("renameField") else field
        if name in used:
            raise NodeOperationError(
                ctx.node.name,
                f"The '{name}' output field is used more than once",
                description="Please make sure each output field name is unique",
            )
        used.append(name)
        if field == "":
            continue
        key = output_name or (field.split(".")[-1] if dot and "." in field else field)
        values[key] = _collect(items, field, dot, options)
    json: dict[str, Any] = {}
    for key, collected in values.items():
        if dot:
            set_path(json, key, collected)
        else:
            json[key] = collected
    return {"json": json, "pairedItem": [{"item": i} for i in range(len(items))]}  # type: ignore[typeddict-item]


def _collect(items: list[Item], field: str, dot: bool, options: dict[str, Any]) -> list[Any]:
    collected: list[Any] = []
    for item in items:
        value = get_path(item["json"], field, dot_notation=dot, default=_MISSING)
        if not options.get("keepMissing"):
            if isinstance(value, list):
                value = [v for v in value if v is not None]
            elif value is None or value is _MISSING:
                continue
        if value is _MISSING:
            value = None
        if isinstance(value, list) and options.get("mergeLists"):
            collected.extend(value)
        else:
            collected.append(value)
    return collected


def _all_item_data(params: Params, items: list[Item]) -> Item:
    destination = params.get("destinationFieldName", 0, "data")
    include = params.get("include", 0, "allFields")
    to_include = split_fields(params.get("fieldsToInclude", 0, "")) if include == "specifiedFields" else []
    to_exclude = split_fields(params.get("fieldsToExclude", 0, "")) if include == "allFieldsExcept" else []
    if not to_include and not to_exclude:
        data = [item["json"] for item in items]
        paired = [{"item": i} for i in range(len(items))]
    else:
        data, paired = [], []
        for index, item in enumerate(items):
            picked = _pick(item["json"], to_include, to_exclude)
            if picked:
                data.append(picked)
                paired.append({"item": index})
    return {"json": {destination: data}, "pairedItem": paired}  # type: ignore[typeddict-item]


def _pick(json: dict[str, Any], include: list[str], exclude: list[str]) -> dict[str, Any]:
    if include:
        picked: dict[str, Any] = {}
        for field in include:
            value = get_path(json, field, default=_MISSING)
            if value is not _MISSING:
                set_path(picked, field, value)
    else:
        picked = dict(json)
    for field in exclude:
        unset_path(picked, field)
    return picked
