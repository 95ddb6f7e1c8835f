"""Switch v1 and v2 (``n8n-nodes-base.switch``): one typed value compared with each rule's value.

Parameters as n8n's ``SwitchV1``/``SwitchV2``: ``dataType`` (``number`` by default), ``value1`` and
``rules.rules[{operation, value2}]``; the first matching rule routes the item, else ``fallbackOutput`` (``-1``:
none). v1 has four outputs and each rule names its ``output``; v2 has one output per rule. Mode ``expression``
sends each item to the output index ``output`` evaluates to (v2: ``outputsAmount`` outputs, 4 by default).
The comparisons are If v1's (:mod:`._if_v1`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.library.core._if_v1 import date_time, operation_named
from weft.library.core._legacy import legacy_param
from weft.nodes.contract import ExecuteContext
from weft.nodes.user_regex import RegexTimedOut
from weft.nodes.values import js_to_number
from weft.workflow import MAIN, Item, NodeOutput

#: n8n's defaults of ``value1`` and of a rule's ``operation``/``value2``, per ``dataType``.
_DEFAULTS: dict[str, tuple[Any, str, Any]] = {
    "boolean": (False, "equal", False),
    "dateTime": ("", "after", 0),
    "number": (0, "smaller", 0),
    "string": ("", "equal", ""),
}


def is_legacy(parameters: Mapping[str, Any]) -> bool:
    """Whether the parameters are v1/v2's (``rules.rules``, ``outputsAmount``) rather than v3's."""
    return "rules" in (parameters.get("rules") or {}) or "outputsAmount" in parameters or "dataType" in parameters


def legacy_outputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """v1: four outputs (its rules name an ``output``); v2: ``outputsAmount`` in expression mode, else one per rule.

    Only the parameters are known here, so a v2 workflow is told from a v1 one by its rules lacking ``output``."""
    if parameters.get("mode") == "expression":
        count = parameters.get("outputsAmount", 4)
        return (MAIN,) * (count if isinstance(count, int) else 4)
    rules = (parameters.get("rules") or {}).get("rules") or []
    if not rules or any(isinstance(rule, Mapping) and "output" in rule for rule in rules):
        return (MAIN,) * 4
    return (MAIN,) * len(rules)


def execute_legacy_switch(ctx: ExecuteContext) -> NodeOutput:
    version = ctx.node.typeVersion
    items = ctx.get_input_data()
    outputs: NodeOutput = [[] for _ in range(4)] if version < 2 else []
    for index, item in enumerate(items):
        try:
            _route_located(ctx, version, outputs, item, index)
        except NodeOperationError as error:
            if not ctx.continue_on_fail() or not outputs:
                raise
            outputs[0].append({"json": {"error": str(error)}})
    return outputs


def _route_located(ctx: ExecuteContext, version: float, outputs: NodeOutput, item: Item, index: int) -> None:
    try:
        _route(ctx, version, outputs, item, index)
    except RegexTimedOut as timed_out:
        raise timed_out.at(ctx.node.name, "rules.rules", index) from None


def _route(ctx: ExecuteContext, version: float, outputs: NodeOutput, item: Item, index: int) -> None:
    rules: list[dict[str, Any]] = legacy_param(ctx, "rules.rules", index, []) or []
    if version >= 2:
        item = {**item, "pairedItem": {"item": index}}  # type: ignore[typeddict-item]
    if legacy_param(ctx, "mode", index, "rules") == "expression":
        if version >= 2 and index == 0:
            outputs.extend([] for _ in range(int(legacy_param(ctx, "outputsAmount", index, 4))))
        outputs[_checked(ctx, legacy_param(ctx, "output", index, 0), len(outputs))].append(item)
        return
    if version >= 2 and index == 0:
        outputs.extend([] for _ in rules)
    data_type = str(legacy_param(ctx, "dataType", 0, "number"))
    value1_default, operation_default, value2_default = _DEFAULTS.get(data_type, _DEFAULTS["number"])
    value1 = legacy_param(ctx, "value1", index, value1_default)
    if data_type == "dateTime":
        value1 = date_time(ctx, value1)
    for rule_index, rule in enumerate(rules):
        value2 = rule.get("value2", value2_default)
        if data_type == "dateTime":
            value2 = date_time(ctx, value2)
        if operation_named(ctx, rule.get("operation", operation_default))(value1, value2):
            target = _checked(ctx, rule.get("output", 0), len(outputs)) if version < 2 else rule_index
            outputs[target].append(item)
            return
    fallback = legacy_param(ctx, "fallbackOutput", index, -1)
    if js_to_number(fallback) != -1:
        outputs[_checked(ctx, fallback, len(outputs))].append(item)


def _checked(ctx: ExecuteContext, value: Any, count: int) -> int:
    """n8n ``checkIndexRange`` (its typo included)."""
    number = js_to_number(value)
    if not (0 <= number < count) or int(number) != number:
        raise NodeOperationError(
            ctx.node.name, f"The ouput {value} is not allowed. It has to be between 0 and {count - 1}!"
        )
    return int(number)
