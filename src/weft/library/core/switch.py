"""Switch (``n8n-nodes-base.switch`` v3–3.4; v1 and v2 in :mod:`._switch_legacy`): routes items to outputs by
rules or by an output-index expression.

Mode ``rules``: one output per rule (``rules.values[]``, each a filter), plus an ``extra`` fallback output when
``options.fallbackOutput`` is ``extra``. Mode ``expression``: ``numberOutputs`` outputs and ``output`` (an
expression) gives each item's output index.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.library.core._filter_node import CompiledFilter, filter_error, node_filter_settings
from weft.library.core._switch_legacy import execute_legacy_switch, is_legacy, legacy_outputs
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, js_to_number
from weft.workflow import MAIN, Item, NodeOutput


def configured_outputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """n8n ``configuredOutputs``: the outputs implied by the parameters."""
    if is_legacy(parameters):
        return legacy_outputs(parameters)
    if parameters.get("mode") == "expression":
        count = parameters.get("numberOutputs", 4)
        return (MAIN,) * (count if isinstance(count, int) else 4)
    rules = (parameters.get("rules") or {}).get("values") or []
    extra = (parameters.get("options") or {}).get("fallbackOutput") == "extra"
    return (MAIN,) * (len(rules) + (1 if extra else 0))


def _filter_version(node_version: float) -> int:
    return 3 if node_version >= 3.4 else 2 if node_version >= 3.2 else 1


class Switch(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.switch",
        display_name="Switch",
        versions=(1, 2, 3, 3.1, 3.2, 3.3, 3.4),
        description="Route items depending on defined expression or rules",
        group=("transform",),
        outputs=configured_outputs,
        defaults={"mode": "rules", "numberOutputs": 4, "options": {}, "looseTypeValidation": False},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if ctx.node.typeVersion < 3:
            return execute_legacy_switch(ctx)
        params = Params(ctx)
        items = ctx.get_input_data()
        if params.get("mode", 0, "rules") == "expression":
            return self._by_expression(ctx, params, items)
        return self._by_rules(ctx, params, items)

    def _by_expression(self, ctx: ExecuteContext, params: Params, items: list[Item]) -> NodeOutput:
        outputs: NodeOutput = []
        for index, item in enumerate(items):
            try:
                if index == 0:
                    outputs = [[] for _ in range(int(params.get("numberOutputs", index, 4)))]
                target = _output_index(ctx, params.get("output", index), len(outputs), index)
                outputs[target].append(_paired(item, index))
            except Exception as error:
                if not ctx.continue_on_fail() or not outputs:
                    raise _as_node_error(ctx, error, index) from error
                outputs[0].append({"json": {"error": str(error)}})
        return outputs or [[]]

    def _by_rules(self, ctx: ExecuteContext, params: Params, items: list[Item]) -> NodeOutput:
        options: dict[str, Any] = params.get("options", 0, {}) or {}
        rules: list[dict[str, Any]] = params.raw("rules.values", []) or []
        if not rules:
            return [[]]
        settings = node_filter_settings(params, loose_since=3.1, version=_filter_version(params.node_version))
        filters = [CompiledFilter(rule.get("conditions"), settings) for rule in rules]
        fallback = options.get("fallbackOutput")
        outputs: NodeOutput = [[] for _ in range(len(rules) + (1 if fallback == "extra" else 0))]
        for index, item in enumerate(items):
            try:
                self._route(ctx, params, filters, options, outputs, item, index)
            except Exception as error:
                if not ctx.continue_on_fail():
                    raise filter_error(ctx, error, index, bool(settings["loose"]), "rules.values") from error
                outputs[0].append({"json": {"error": str(error)}})
        return outputs

    def _route(
        self,
        ctx: ExecuteContext,
        params: Params,
        filters: list[CompiledFilter],
        options: dict[str, Any],
        outputs: NodeOutput,
        item: Item,
        index: int,
    ) -> None:
        routed = _paired(item, index)
        matched = False
        for rule_index, rule_filter in enumerate(filters):
            if rule_filter.passes(params, index):
                matched = True
                outputs[rule_index].append(routed)
                if not options.get("allMatchingOutputs"):
                    return
        fallback = options.get("fallbackOutput")
        if matched or fallback is None or fallback == "none":
            return
        if fallback == "extra":
            outputs[-1].append(routed)
            return
        outputs[_output_index(ctx, fallback, len(outputs), index)].append(routed)


def _paired(item: Item, index: int) -> Item:
    routed: Item = {**item, "pairedItem": {"item": index}}  # type: ignore[typeddict-item]
    return routed


def _output_index(ctx: ExecuteContext, value: Any, count: int, item_index: int) -> int:
    """n8n ``checkIndexRange``: the output index, or an error naming the allowed range."""
    number = js_to_number(value)
    if number == count:
        raise NodeOperationError(
            ctx.node.name,
            f"The ouput {value} is not allowed. ",
            description=f"Output indexes are zero based, if you want to use the extra output use {count - 1}",
            item_index=item_index,
        )
    invalid = isinstance(number, float) and (math.isnan(number) or not number.is_integer())
    if invalid or number < 0 or number > count:
        raise NodeOperationError(
            ctx.node.name,
            f"The ouput {value} is not allowed",
            description=f"It has to be between 0 and {count - 1}",
            item_index=item_index,
        )
    return int(number)


def _as_node_error(ctx: ExecuteContext, error: Exception, item_index: int) -> NodeOperationError:
    if isinstance(error, NodeOperationError):
        return error
    return NodeOperationError(ctx.node.name, str(error), item_index=item_index)
