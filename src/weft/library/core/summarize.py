"""Summarize (``n8n-nodes-base.summarize`` v1, 1.1): aggregates fields over all items (count, count unique, sum,
average, min, max, concatenate, append), optionally split into groups by other fields (recorded: n450-n457).

As n8n: a numerical aggregation (sum, average) reads only JavaScript numbers; min and max compare with
JavaScript's ``<``/``>``; "count unique" counts as a JavaScript ``Set`` does (every object distinct); a group key
that is an object is its ``JSON.stringify``. Version 1 turns every group key into a string (``String(value)``:
a missing field groups as ``"undefined"``), 1.1 keeps its type. Output keys are the aggregation's prefix and the
field, ``.``/space turned into ``_``. A field no item has is an error in version 1 (unless
``continueIfFieldNotFound``) and only a hint in 1.1.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import get_path, is_number, js_less_than, js_string
from weft.workflow import Item, NodeOutput
from weft.workflow.jsjson import js_json

#: JavaScript's ``undefined``: a field the item does not have.
UNDEFINED: Any = object()
_PREFIX = {
    "append": "appended_",
    "average": "average_",
    "concatenate": "concatenated_",
    "count": "count_",
    "countUnique": "unique_count_",
    "max": "max_",
    "min": "min_",
    "sum": "sum_",
}
Getter = Callable[[dict[str, Any], str], Any]
Row = tuple[int, dict[str, Any]]


class Summarize(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.summarize",
        display_name="Summarize",
        versions=(1, 1.1),
        description="Sum, count, max, etc. across items",
        group=("transform",),
        defaults={
            "fieldsToSummarize": {"values": [{"aggregation": "count", "field": ""}]},
            "fieldsToSplitBy": "",
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        rows: list[Row] = [(index, item["json"]) for index, item in enumerate(ctx.get_input_data())]
        options = ctx.get_node_parameter("options", 0, {}) or {}
        split_keys = [f.strip() for f in js_string(ctx.get_node_parameter("fieldsToSplitBy", 0, "")).split(",")]
        split_keys = [key for key in split_keys if key]
        aggregations = ctx.get_node_parameter("fieldsToSummarize.values", 0, []) or []
        if not [entry for entry in aggregations if entry.get("field", "") != ""]:
            raise NodeOperationError(
                ctx.node.name,
                "You need to add at least one aggregation to 'Fields to Summarize' with non empty 'Field'",
                description="Add an aggregation and enter the name of the input field it summarizes.",
            )
        get = _getter(bool(options.get("disableDotNotation")))
        version = float(ctx.node.typeVersion)
        summary = Summary(aggregations, options, get, keys_to_string=version == 1)
        result = summary.split(rows, split_keys)
        missing = _missing_field(rows, aggregations, get)
        if missing is not None and version == 1 and not options.get("continueIfFieldNotFound"):
            raise NodeOperationError(
                ctx.node.name,
                f"The field '{missing}' does not exist in any items",
                description="Check the field name, or turn on 'Continue if Field Not Found'.",
            )
        if options.get("outputFormat") == "singleItem":
            return [[{"json": _to_object(result), "pairedItem": [{"item": index} for index, _ in rows]}]]
        return [[_output_item(data, indices) for data, indices in _to_rows(result)]]


def _getter(disable_dot_notation: bool) -> Getter:
    def get(data: dict[str, Any], field: str) -> Any:
        if disable_dot_notation:
            return data.get(field, UNDEFINED)
        return get_path(data, field, default=UNDEFINED)

    return get


def _missing_field(rows: list[Row], aggregations: list[dict[str, Any]], get: Getter) -> str | None:
    for entry in aggregations:
        field = entry.get("field", "")
        if field != "" and all(get(data, field) is UNDEFINED for _, data in rows):
            return str(field)
    return None


def _output_item(data: dict[str, Any], indices: list[int]) -> Item:
    return {"json": {k: v for k, v in data.items() if v is not UNDEFINED}, "pairedItem": [{"item": i} for i in indices]}


def _is_empty(value: Any) -> bool:
    return value is UNDEFINED or value is None or (value == "" and isinstance(value, str))


def _output_key(entry: dict[str, Any]) -> str:
    prefix = _PREFIX.get(entry.get("aggregation", "count"), "undefined")
    return _normalize_field_name(prefix + str(entry.get("field", "")))


def _normalize_field_name(name: str) -> str:
    for char in '[]"':
        name = name.replace(char, "")
    return name.replace(" ", "_").replace(".", "_")


class Summary:
    """n8n's ``aggregateAndSplitData``: a leaf is ``(returnData, item indices)``, a split is ``(field, groups)``."""

    def __init__(
        self, aggregations: list[dict[str, Any]], options: dict[str, Any], get: Getter, *, keys_to_string: bool
    ):
        self.aggregations = aggregations
        self.options = options
        self.get = get
        self.keys_to_string = keys_to_string

    def split(self, rows: list[Row], keys: list[str]) -> Any:
        if not keys:
            data = {_output_key(entry): self.aggregate(rows, entry) for entry in self.aggregations}
            return ("leaf", data, [index for index, _ in rows])
        groups: dict[tuple[str, Any], tuple[Any, list[Row]]] = {}
        for row in rows:
            value = self.get(row[1], keys[0])
            if isinstance(value, dict | list):
                value = js_json(value)
            if self.keys_to_string:
                value = "undefined" if value is UNDEFINED else js_string(value)
            if self.options.get("skipEmptySplitFields") and not is_number(value) and not _truthy(value):
                continue
            groups.setdefault(_group_key(value), (value, []))[1].append(row)
        return ("split", keys[0], [(value, self.split(members, keys[1:])) for value, members in groups.values()])

    def aggregate(self, rows: list[Row], entry: dict[str, Any]) -> Any:
        kind, field = entry.get("aggregation", "count"), str(entry.get("field", ""))
        values = [self.get(data, field) for _, data in rows]
        if kind in ("average", "sum"):
            numbers = [v for v in values if is_number(v)]
            total: float = 0
            for number in numbers:
                total += number
            if kind == "sum":
                return total
            return total / len(numbers) if numbers else None  # NaN, which JSON writes as null
        include_empty = bool(entry.get("includeEmpty"))
        kept = values if include_empty else [v for v in values if not _is_empty(v)]
        if kind == "append":
            return [None if v is UNDEFINED else v for v in kept]
        if kind == "concatenate":
            return _separator(entry).join(_concat_text(v) for v in kept)
        if kind in ("min", "max"):
            return _extreme([v for v in values if not _is_empty(v)], kind == "min")
        if kind == "countUnique":
            return len({_unique_key(v, position) for position, v in enumerate(kept)})
        return len(kept)


def _truthy(value: Any) -> bool:
    if value is UNDEFINED or value is None:
        return False
    if isinstance(value, bool | str):
        return bool(value)
    return not (is_number(value) and (value == 0 or math.isnan(value)))


def _group_key(value: Any) -> tuple[str, Any]:
    if value is UNDEFINED:
        return ("undefined", None)
    if value is None:
        return ("null", None)
    if isinstance(value, bool):
        return ("boolean", value)
    return ("number" if is_number(value) else "string", value)


def _unique_key(value: Any, position: int) -> tuple[str, Any]:
    if isinstance(value, dict | list):
        return ("object", position)
    return _group_key(value)


def _separator(entry: dict[str, Any]) -> str:
    separator = entry.get("separateBy", ",")
    if separator == "other":
        separator = entry.get("customSeparator", "")
    return "" if separator is None else js_string(separator)


def _concat_text(value: Any) -> str:
    if value is UNDEFINED:
        return "undefined"
    if value is None or isinstance(value, dict | list):
        return js_json(value)
    return js_string(value)


def _extreme(values: list[Any], smallest: bool) -> Any:
    best: Any = UNDEFINED
    for value in values:
        if best is UNDEFINED or (js_less_than(value, best) if smallest else js_less_than(best, value)):
            best = value
    return None if best is UNDEFINED else best


def _to_object(result: Any) -> Any:
    """``flattenAggregationResultToObject``: nested objects keyed by the group values (as strings)."""
    if result[0] == "leaf":
        return result[1]
    return {_object_key(value): _to_object(inner) for value, inner in result[2]}


def _object_key(value: Any) -> str:
    return "undefined" if value is UNDEFINED else js_string(value)


def _to_rows(result: Any) -> list[tuple[dict[str, Any], list[int]]]:
    """``flattenAggregationResultToArray``: one row per leaf, each group's value added after the aggregations."""
    if result[0] == "leaf":
        return [(dict(result[1]), result[2])]
    rows: list[tuple[dict[str, Any], list[int]]] = []
    for value, inner in result[2]:
        for data, indices in _to_rows(inner):
            data[_normalize_field_name(result[1])] = value
            rows.append((data, indices))
    return rows


__all__ = ["Summarize"]
