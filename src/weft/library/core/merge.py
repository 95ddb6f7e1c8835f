"""Merge (``n8n-nodes-base.merge`` v3, 3.1): append, combine (by fields, position, all) or choose a branch.

The legacy versions 1, 2 and 2.1 live in :mod:`._merge_v1`.

``numberInputs`` (default 2) sets the inputs. As in n8n, the node runs when the stack runs dry with only
some inputs fed (``requiredInputs`` is 1), except in ``chooseBranch`` mode, which needs every input.
``combineBySql`` is not supported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.library.core._merge_fields import add_suffix, find_matches, merge_matched, merge_method
from weft.library.core._merge_v1 import execute_merge_legacy
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, split_fields
from weft.workflow import MAIN, Item, NodeOutput
from weft.workflow.items import paired_items_of


def _input_count(parameters: Mapping[str, Any]) -> int:
    count = parameters.get("numberInputs", 2)
    return count if isinstance(count, int) and count > 0 else 2


def configured_inputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    return (MAIN,) * _input_count(parameters)


def required_inputs(parameters: Mapping[str, Any]) -> int | tuple[int, ...]:
    """n8n: ``mode === 'chooseBranch' ? [0 … n-1] : 1``."""
    if parameters.get("mode") == "chooseBranch":
        return tuple(range(_input_count(parameters)))
    return 1


class Merge(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.merge",
        display_name="Merge",
        versions=(1, 2, 2.1, 3, 3.1, 3.2),
        description="Merges data of multiple streams once data from both is available",
        group=("transform",),
        inputs=configured_inputs,
        required_inputs=required_inputs,
        defaults={
            "mode": "append",
            "combineBy": "combineByFields",
            "joinMode": "keepMatches",
            "outputDataFrom": "both",
            "advanced": False,
            "fieldsToMatchString": "",
            "chooseBranchMode": "waitForAll",
            "output": "specifiedInput",
            "useDataOfInput": 1,
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if ctx.node.typeVersion < 3:
            return execute_merge_legacy(ctx)
        params = Params(ctx)
        inputs = [ctx.get_input_data(i) for i in range(_input_count(ctx.node.parameters))]
        mode = params.get("mode", 0, "append")
        if mode == "combine":
            mode = params.get("combineBy", 0, "combineByFields")
        if mode == "append":
            return [[item for items in inputs for item in items]]
        if mode == "combineByFields":
            return [_combine_by_fields(ctx, params, inputs)]
        if mode == "combineByPosition":
            return [_combine_by_position(params, inputs)]
        if mode == "combineAll":
            return [_combine_all(params, inputs)]
        if mode == "chooseBranch":
            return [_choose_branch(ctx, params, inputs)]
        raise NodeOperationError(
            ctx.node.name,
            f"The merge mode {mode!r} is not supported yet",
            description="Weft supports append, combineByFields, combineByPosition, combineAll and chooseBranch.",
        )


def _clash(params: Params) -> dict[str, Any]:
    return params.get("options.clashHandling.values", 0, {}) or {}


def _match_pairs(ctx: ExecuteContext, params: Params) -> list[tuple[str, str]]:
    if params.get("advanced", 0, False):
        values = params.get("mergeByFields.values", 0, []) or []
    else:
        values = [{"field1": f, "field2": f} for f in split_fields(params.get("fieldsToMatchString", 0, ""))]
        values = values or [{"field1": "", "field2": ""}]
    if len(values) == 1 and values[0].get("field1") == "" and values[0].get("field2") == "":
        raise NodeOperationError(
            ctx.node.name, 'You need to define at least one pair of fields in "Fields to Match" to match on'
        )
    for index, pair in enumerate(values):
        if not pair.get("field1") or not pair.get("field2"):
            raise NodeOperationError(
                ctx.node.name,
                f'You need to define both fields in "Fields to Match" for pair {index + 1},\n'
                f"\t\t\t\t field 1 = '{pair.get('field1', '')}'\n\t\t\t\t field 2 = '{pair.get('field2', '')}'",
            )
    return [(str(p["field1"]), str(p["field2"])) for p in values]


def _combine_by_fields(ctx: ExecuteContext, params: Params, inputs: list[list[Item]]) -> list[Item]:
    pairs = _match_pairs(ctx, params)
    join_mode = params.get("joinMode", 0, "keepMatches")
    output_from = params.get("outputDataFrom", 0, "both")
    options = {**(params.get("options", 0, {}) or {}), "joinMode": join_mode, "outputDataFrom": output_from}
    input1, input2 = inputs[0], inputs[1]
    if not input1 or not input2:
        return _one_side_empty(input1, input2, join_mode, output_from)
    matches = find_matches(input1, input2, pairs, options)
    clash = _clash(params)
    suffix = clash.get("resolveClash") == "addSuffix"
    if join_mode in ("keepMatches", "keepEverything"):
        if output_from == "input1":
            output = [entry for entry, _ in matches.matched]
        elif output_from == "input2":
            output = list(matches.matched2)
        else:
            output = merge_matched(matches.matched, clash)
        if join_mode == "keepEverything":
            rest1 = add_suffix(matches.unmatched1, "1") if suffix else matches.unmatched1
            rest2 = add_suffix(matches.unmatched2, "2") if suffix else matches.unmatched2
            output = [*output, *rest1, *rest2]
        return output
    if join_mode == "keepNonMatches":
        if output_from == "input1":
            return matches.unmatched1
        if output_from == "input2":
            return matches.unmatched2
        return [*_with_source(matches.unmatched1, "input1"), *_with_source(matches.unmatched2, "input2")]
    merged = merge_matched(matches.matched, clash, join_mode)
    if join_mode == "enrichInput1":
        return [*merged, *(add_suffix(matches.unmatched1, "1") if suffix else matches.unmatched1)]
    return [*merged, *(add_suffix(matches.unmatched2, "2") if suffix else matches.unmatched2)]


def _one_side_empty(input1: list[Item], input2: list[Item], join_mode: str, output_from: str) -> list[Item]:
    if join_mode == "keepNonMatches" and output_from == "input1" and not input1:
        return []
    if join_mode == "keepNonMatches" and output_from == "input2" and not input2:
        return []
    if join_mode == "keepMatches":
        return []
    if (join_mode == "enrichInput1" and not input1) or (join_mode == "enrichInput2" and not input2):
        return []
    return [*input1, *input2]


def _with_source(items: list[Item], source: str) -> list[Item]:
    return [{**item, "json": {**item["json"], "_source": source}} for item in items]  # type: ignore[misc]


def _combine_by_position(params: Params, inputs: list[list[Item]]) -> list[Item]:
    clash = _clash(params)
    resolve = str(clash.get("resolveClash") or "")
    preferred_index = int(resolve.replace("preferInput", "")) - 1 if "preferInput" in resolve else len(inputs) - 1
    preferred = inputs[preferred_index]
    if resolve == "addSuffix":
        inputs = [add_suffix(items, str(index + 1)) for index, items in enumerate(inputs)]
        preferred = inputs[preferred_index]
    lengths = [len(items) for items in inputs] + [len(preferred)]
    include_unpaired = bool(params.get("options.includeUnpaired", 0, False))
    count = max(lengths) if include_unpaired else min(lengths)
    merge = merge_method(clash)
    output: list[Item] = []
    for index in range(count):
        row = [items[index] if index < len(items) else None for items in inputs]
        chosen = preferred[index] if index < len(preferred) else None
        entries = [e for e in (*row, chosen) if e is not None]
        json = merge({}, *(e["json"] for e in entries))
        binary = merge_method({})({}, *(e.get("binary") or {} for e in entries))
        paired = [p for e in entries for p in paired_items_of(e)]
        output.append({"json": json, "binary": binary, "pairedItem": paired})  # type: ignore[typeddict-item]
    return output


def _combine_all(params: Params, inputs: list[list[Item]]) -> list[Item]:
    clash = _clash(params)
    input1, input2 = inputs[0], inputs[1]
    if clash.get("resolveClash") == "preferInput1":
        input1, input2 = input2, input1
    if clash.get("resolveClash") == "addSuffix":
        input1, input2 = add_suffix(input1, "1"), add_suffix(input2, "2")
    merge = merge_method(clash)
    output: list[Item] = []
    for entry1 in input1:
        for entry2 in input2:
            merged = {
                "json": merge(entry1["json"], entry2["json"]),
                "binary": merge_method({})({}, entry1.get("binary") or {}, entry2.get("binary") or {}),
                "pairedItem": [*paired_items_of(entry1), *paired_items_of(entry2)],
            }
            output.append(merged)  # type: ignore[arg-type]
    return output


def _choose_branch(ctx: ExecuteContext, params: Params, inputs: list[list[Item]]) -> list[Item]:
    if params.get("chooseBranchMode", 0, "waitForAll") != "waitForAll":
        return []
    output = params.get("output", 0, "specifiedInput")
    if output == "specifiedInput":
        use = int(params.get("useDataOfInput", 0, 1))
        if use > len(inputs):
            raise NodeOperationError(
                ctx.node.name,
                f"Input {use} doesn't exist",
                description=f"The node has only {len(inputs)} inputs, so selecting input {use} is not possible.",
            )
        return list(inputs[use - 1])
    if output == "empty":
        paired = [p for items in inputs[:2] for item in items for p in paired_items_of(item)]
        return [{"json": {}, "pairedItem": paired}]  # type: ignore[typeddict-item]
    return []
