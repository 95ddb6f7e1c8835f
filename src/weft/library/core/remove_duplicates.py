"""Remove Duplicates (``n8n-nodes-base.removeDuplicates`` v1, 1.1, 2): drops items equal to an earlier one.

Items are compared on all fields, all fields except some, or selected fields (dot notation unless disabled);
the first of equal items is kept, found as n8n finds it (sorting, then comparing neighbours). Removing items
seen in previous executions is not supported yet.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import (
    Params,
    get_path,
    js_equal,
    js_less_than,
    js_typeof,
    set_path,
    split_fields,
)
from weft.workflow import Item, NodeOutput

_MISSING: Any = object()
_DOT_HINT = "If you're trying to use a nested field, make sure you turn off 'disable dot notation' in the node options"


class RemoveDuplicates(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.removeDuplicates",
        display_name="Remove Duplicates",
        versions=(1, 1.1, 2),
        description="Delete items with matching field values",
        group=("transform",),
        defaults={"operation": "removeDuplicateInputItems", "compare": "allFields", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        # v1/v1.1 have no operation (n8n 2.41.1 reads it in RemoveDuplicatesV2 only)
        operation = params.get("operation", 0, "removeDuplicateInputItems") if params.node_version >= 2 else None
        if params.node_version >= 2 and operation != "removeDuplicateInputItems":
            raise NodeOperationError(
                ctx.node.name,
                f"The operation {operation!r} is not supported yet",
                description="Weft keeps no deduplication history across executions yet; "
                "use 'Remove Items Repeated Within Current Input'.",
            )
        items = ctx.get_input_data()
        if not items:
            return [[]]
        options = params.get("options", 0, {}) or {}
        dot = not options.get("disableDotNotation")
        keys = _compare_keys(ctx, params, items, dot)
        kept = _without_repeats(ctx, items, keys, dot)
        if options.get("removeOtherFields"):
            return [[_picked(item, keys, dot, index) for index, item in enumerate(kept)]]
        return [kept]


def _without_repeats(ctx: ExecuteContext, items: list[Item], keys: list[str], dot: bool) -> list[Item]:
    """n8n's algorithm: sort by the keys (lodash ``isEqual``/``lt``), validate in that order, then drop each item
    equal to its predecessor. Python's sort is the TimSort V8 uses, so even where the comparison is inconsistent
    (``null`` beside strings) the same items survive as in n8n."""

    def compare(a: tuple[int, Item], b: tuple[int, Item]) -> int:
        for key in keys:
            left, right = _value(a[1], key, dot), _value(b[1], key, dot)
            if not js_equal(left, right):
                return -1 if js_less_than(left, right) else 1
        return 0

    ordered = sorted(enumerate(items), key=functools.cmp_to_key(compare))
    _validate(ctx, [item for _, item in ordered], keys, dot)
    removed: set[int] = set()
    previous = ordered[0]
    for current in ordered[1:]:
        if all(js_equal(_value(current[1], k, dot), _value(previous[1], k, dot)) for k in keys):
            removed.add(current[0])
        else:
            previous = current
    return [item for index, item in enumerate(items) if index not in removed]


def _value(item: Item, key: str, dot: bool) -> Any:
    return get_path(item["json"], key, dot_notation=dot, default=_MISSING)


def _compare_keys(ctx: ExecuteContext, params: Params, items: list[Item], dot: bool) -> list[str]:
    compare = params.get("compare", 0, "allFields")
    if compare == "selectedFields":
        fields = split_fields(params.get("fieldsToCompare", 0, ""))
        if not fields:
            raise NodeOperationError(ctx.node.name, "No fields specified. Please add a field to compare on")
        return fields
    keys: list[str] = []
    for item in items:
        for key in _flat_keys(item["json"]) if dot else list(item["json"]):
            if key not in keys:
                keys.append(key)
    if compare == "allFieldsExcept":
        excluded = split_fields(params.get("fieldsToExclude", 0, ""))
        if not excluded:
            raise NodeOperationError(
                ctx.node.name, "No fields specified. Please add a field to exclude from comparison"
            )
        if dot:
            keys = _flat_keys(items[0]["json"])
        keys = [k for k in keys if k not in excluded]
    return keys


def _flat_keys(value: Any, prefix: str = "") -> list[str]:
    """n8n ``flattenKeys``: dotted paths of the leaves (empty objects and lists have none)."""
    if isinstance(value, dict):
        return [k for key, child in value.items() for k in _flat_keys(child, f"{prefix}{key}.")]
    if isinstance(value, list):
        return [k for index, child in enumerate(value) for k in _flat_keys(child, f"{prefix}{index}.")]
    return [prefix[:-1]]


def _validate(ctx: ExecuteContext, items: list[Item], keys: list[str], dot: bool) -> None:
    """n8n ``validateInputData``: every key present in every item, always with the same type."""
    newer = float(ctx.node.typeVersion) > 1
    for key in keys:
        if key == "":
            raise NodeOperationError(ctx.node.name, "Name of field to compare is blank")
        seen_type: str | None = None
        for index, item in enumerate(items):
            value = get_path(item["json"], key, dot_notation=dot, default=_MISSING)
            if value is None and newer:
                continue
            if value is _MISSING:
                description = _DOT_HINT if not dot and "." in key else None
                raise NodeOperationError(
                    ctx.node.name, f"'{key}' field is missing from some input items", description=description
                )
            kind = js_typeof(value)
            if seen_type is not None and seen_type != kind:
                detail = ""
                if newer:
                    detail = f", in item [{index - 1}] it's a {seen_type} and in item [{index}] it's a {kind} "
                raise NodeOperationError(
                    ctx.node.name,
                    f"'{key}' isn't always the same type",
                    description=f"The type of this field varies between items{detail}",
                )
            seen_type = kind


def _picked(item: Item, keys: list[str], dot: bool, index: int) -> Item:
    """lodash ``pick(json, ...keys)``; n8n pairs the result with its position in the output."""
    picked: dict[str, Any] = {}
    for key in keys:
        value = get_path(item["json"], key, dot_notation=dot, default=_MISSING)
        if value is not _MISSING:
            set_path(picked, key, value)
    return {"json": picked, "pairedItem": {"item": index}}
