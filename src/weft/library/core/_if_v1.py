"""IF v1 (``n8n-nodes-base.if`` typeVersion 1): typed condition lists, combined with ``all`` or ``any``.

Parameters as n8n's ``IfV1``: ``conditions.{boolean,dateTime,number,string}[{value1, operation, value2}]`` and
``combineOperation`` (``all`` by default). Missing entry fields take n8n's defaults (``number`` operations default
to ``smaller``, ``dateTime`` to ``after``, the others to ``equal``). Conditions are checked in the order boolean,
dateTime, number, string; the first that decides the item (a pass under ``any``, a fail under ``all``) routes it.
Items go out unchanged: ``true`` on output 0, ``false`` on output 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from weft.errors import NodeOperationError
from weft.library.core._legacy import legacy_param
from weft.nodes.contract import ExecuteContext
from weft.nodes.user_regex import RegexTimedOut, compile_user_regex, parse_literal
from weft.nodes.values import js_strict_equal, js_string, js_to_number, js_truthy
from weft.workflow import Item, NodeOutput

_DATA_TYPES = ("boolean", "dateTime", "number", "string")

#: n8n's per-type defaults of one condition entry.
_ENTRY_DEFAULTS: dict[str, dict[str, Any]] = {
    "boolean": {"value1": False, "operation": "equal", "value2": False},
    "dateTime": {"value1": "", "operation": "after", "value2": ""},
    "number": {"value1": 0, "operation": "smaller", "value2": 0},
    "string": {"value1": "", "operation": "equal", "value2": ""},
}


def _primitive(value: Any) -> float | str:
    """The primitive JavaScript compares: strings stay strings, everything else becomes a number."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, bool | int | float):
        return float(js_to_number(value))
    if isinstance(value, list):
        return js_string(value)
    return math.nan


def _relation(a: Any, b: Any) -> int | None:
    """-1, 0 or 1 as JavaScript's ``<``/``>`` would order ``a`` and ``b``; ``None`` when incomparable (NaN)."""
    left, right = _primitive(a), _primitive(b)
    if isinstance(left, str) and isinstance(right, str):
        return (left > right) - (left < right)
    left_n = left if isinstance(left, float) else float(js_to_number(left))
    right_n = right if isinstance(right, float) else float(js_to_number(right))
    if math.isnan(left_n) or math.isnan(right_n):
        return None
    return (left_n > right_n) - (left_n < right_n)


def _is_empty(value: Any) -> bool:
    """n8n: ``[undefined, null, '', NaN].includes(v)`` or an object/array without entries."""
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return True
    return isinstance(value, dict | list) and len(value) == 0


def _regex(value1: Any, value2: Any) -> bool:
    """n8n: ``(value1 || '').toString().match(new RegExp(...))``, on the user-regex engines."""
    return compile_user_regex(*parse_literal(_text(value2))).test(_text(value1))


def _text(value: Any) -> str:
    """n8n: ``(value || '').toString()``."""
    return js_string(value) if js_truthy(value) else ""


def _ordered(check: Callable[[int], bool]) -> Callable[[Any, Any], bool]:
    """n8n: ``(value1 || 0) > (value2 || 0)`` and the like."""

    def compare(a: Any, b: Any) -> bool:
        relation = _relation(a if js_truthy(a) else 0, b if js_truthy(b) else 0)
        return relation is not None and check(relation)

    return compare


#: n8n ``compareOperationFunctions``.
_OPERATIONS: dict[str, Callable[[Any, Any], bool]] = {
    "after": _ordered(lambda r: r > 0),
    "before": _ordered(lambda r: r < 0),
    "larger": _ordered(lambda r: r > 0),
    "largerEqual": _ordered(lambda r: r >= 0),
    "smaller": _ordered(lambda r: r < 0),
    "smallerEqual": _ordered(lambda r: r <= 0),
    "equal": js_strict_equal,
    "notEqual": lambda a, b: not js_strict_equal(a, b),
    "contains": lambda a, b: _text(b) in _text(a),
    "notContains": lambda a, b: _text(b) not in _text(a),
    "startsWith": lambda a, b: _text(a).startswith(_text(b)),
    "notStartsWith": lambda a, b: not _text(a).startswith(_text(b)),
    "endsWith": lambda a, b: _text(a).endswith(_text(b)),
    "notEndsWith": lambda a, b: not _text(a).endswith(_text(b)),
    "isEmpty": lambda a, _b: _is_empty(a),
    "isNotEmpty": lambda a, _b: not _is_empty(a),
    "regex": _regex,
    "notRegex": lambda a, b: not _regex(a, b),
}


def date_time(ctx: ExecuteContext, value: Any) -> float:
    """n8n ``convertDateTime``: a date string or a number to epoch milliseconds."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            return moment.timestamp() * 1000
        except ValueError:
            pass
    raise NodeOperationError(ctx.node.name, f'The value "{js_string(value)}" is not a valid DateTime.')


def _passes(ctx: ExecuteContext, data_type: str, entry: dict[str, Any]) -> bool:
    values = {**_ENTRY_DEFAULTS[data_type], **entry}
    value1, value2 = values["value1"], values["value2"]
    if data_type == "dateTime":
        value1, value2 = date_time(ctx, value1), date_time(ctx, value2)
    return operation_named(ctx, values["operation"])(value1, value2)


def operation_named(ctx: ExecuteContext, name: Any) -> Callable[[Any, Any], bool]:
    """The comparison ``name`` of n8n's ``compareOperationFunctions`` (If v1, Switch v1/v2), else the node's error."""
    operation = _OPERATIONS.get(str(name))
    if operation is None:
        raise NodeOperationError(ctx.node.name, f"The operation {name!r} is not known.")
    return operation


def _route(ctx: ExecuteContext, item_index: int, combine_parameter: str) -> bool:
    """Whether item ``item_index`` goes to the ``true`` output."""
    combine = legacy_param(ctx, combine_parameter, item_index, "all")
    every = combine in ("all", "AND")
    for data_type in _DATA_TYPES:
        for entry in legacy_param(ctx, f"conditions.{data_type}", item_index, []) or []:
            passed = _passes(ctx, data_type, entry)
            if passed and not every:
                return True
            if not passed and every:
                return False
    # no condition decided the item: "all" means every one passed, "any" means none did
    return every


def execute_if_v1(ctx: ExecuteContext, combine_parameter: str = "combineOperation") -> NodeOutput:
    """If v1 (``combineOperation`` all/any); Filter v1 is the same with ``combineConditions`` AND/OR."""
    true_items: list[Item] = []
    false_items: list[Item] = []
    # no per-item error handling, as in n8n's IfV1: an error fails the node (the engine applies `onError`)
    for index, item in enumerate(ctx.get_input_data()):
        try:
            passed = _route(ctx, index, combine_parameter)
        except RegexTimedOut as timed_out:
            raise timed_out.at(ctx.node.name, "conditions.string", index) from None
        (true_items if passed else false_items).append(item)
    return [true_items, false_items]
