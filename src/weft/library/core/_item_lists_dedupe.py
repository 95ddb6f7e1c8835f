"""Item Lists 3.1's Remove Duplicates: values of different types are ordered by type, not refused.

Before 3.1 (and in Remove Duplicates 1) a field whose type varies between items is an error; 3.1 sorts by n8n's
``typeToNumber`` first and compares the values as before. The keys, the missing-field check and "remove other
fields" are Remove Duplicates' own.
"""

from __future__ import annotations

import functools
from typing import Any

from weft.errors import NodeOperationError
from weft.library.core.remove_duplicates import _DOT_HINT, _MISSING, _compare_keys, _picked, _value
from weft.nodes.contract import ExecuteContext
from weft.nodes.values import Params, js_equal, js_less_than
from weft.workflow import Item, NodeOutput


def _type_number(value: Any) -> int:
    """n8n ``typeToNumber``: string 1, number 2, boolean 4, undefined 6, object 7, array 9, null 10."""
    if value is _MISSING:
        return 6
    if value is None:
        return 10
    if isinstance(value, list):
        return 9
    if isinstance(value, bool):
        return 4
    if isinstance(value, int | float):
        return 2
    return 1 if isinstance(value, str) else 7


def remove_duplicates_31(ctx: ExecuteContext) -> NodeOutput:
    """Item Lists 3.1's ``removeDuplicates``."""
    params = Params(ctx)
    items = ctx.get_input_data()
    if not items:
        return [[]]
    options = params.get("options", 0, {}) or {}
    dot = not options.get("disableDotNotation")
    keys = _compare_keys(ctx, params, items, dot)

    def compare(a: tuple[int, Item], b: tuple[int, Item]) -> int:
        for key in keys:
            left, right = _value(a[1], key, dot), _value(b[1], key, dot)
            if _type_number(left) != _type_number(right):
                return _type_number(left) - _type_number(right)
            if not js_equal(left, right):
                return -1 if js_less_than(left, right) else 1
        return 0

    ordered = sorted(enumerate(items), key=functools.cmp_to_key(compare))
    for key in keys:
        if key == "":
            raise NodeOperationError(ctx.node.name, "Name of field to compare is blank")
        if any(_value(item, key, dot) is _MISSING for _, item in ordered):
            description = _DOT_HINT if not dot and "." in key else None
            raise NodeOperationError(
                ctx.node.name, f"'{key}' field is missing from some input items", description=description
            )
    removed: set[int] = set()
    previous = ordered[0]
    for current in ordered[1:]:
        if all(js_equal(_value(current[1], k, dot), _value(previous[1], k, dot)) for k in keys):
            removed.add(current[0])
        else:
            previous = current
    kept = [item for index, item in enumerate(items) if index not in removed]
    if options.get("removeOtherFields"):
        return [[_picked(item, keys, dot, index) for index, item in enumerate(kept)]]
    return [kept]
