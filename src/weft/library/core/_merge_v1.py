"""Merge v1, v2 and v2.1 (``n8n-nodes-base.merge``), as n8n's ``MergeV1`` and ``MergeV2``.

v1 modes: ``append`` (default), ``passThrough`` (``output`` ``input1``/``input2``), ``wait``, ``mergeByIndex``
(``join`` ``left``/``inner``/``outer``), ``multiplex``, ``mergeByKey``, ``keepKeyMatches``, ``removeKeyMatches``.
v2/v2.1 modes: ``append`` (default), ``combine`` (``combinationMode`` ``mergeByFields``/``mergeByPosition``/
``multiplex``) and ``chooseBranch``. The v2 ``combine`` modes share their code with Merge v3, whose parameters
they use under the same names.
"""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.core._legacy import legacy_param
from weft.nodes.contract import ExecuteContext
from weft.nodes.values import Params, get_path, js_string
from weft.workflow import Item, NodeOutput
from weft.workflow.items import paired_items_of


def execute_merge_legacy(ctx: ExecuteContext) -> NodeOutput:
    inputs = [ctx.get_input_data(0), ctx.get_input_data(1)]
    if ctx.node.typeVersion < 2:
        return [_merge_v1(ctx, inputs)]
    return [_merge_v2(ctx, inputs)]


# --------------------------------------------------------------------------- v1


def _merge_v1(ctx: ExecuteContext, inputs: list[list[Item]]) -> list[Item]:
    mode = legacy_param(ctx, "mode", 0, "append")
    input1, input2 = inputs
    if mode == "append":
        return [*input1, *input2]
    if mode == "passThrough":
        return list(input1 if legacy_param(ctx, "output", 0, "input1") == "input1" else input2)
    if mode == "wait":
        return [{"json": {}}]
    if mode == "mergeByIndex":
        return _by_index(str(legacy_param(ctx, "join", 0, "left")), input1, input2)
    if mode == "multiplex":
        return [_joined(entry1, entry2) for entry1 in input1 for entry2 in input2]
    if mode in ("mergeByKey", "keepKeyMatches", "removeKeyMatches"):
        return _by_key(ctx, mode, input1, input2)
    raise NodeOperationError(ctx.node.name, f"The mode {mode!r} is not known.")


def _joined(entry1: Item, entry2: Item) -> Item:
    """Both items' json in one item (input 2 wins), paired to both."""
    item: dict[str, Any] = {
        "json": {**entry1["json"], **entry2["json"]},
        "pairedItem": [*paired_items_of(entry1), *paired_items_of(entry2)],
    }
    if entry1.get("binary") is not None or entry2.get("binary") is not None:
        item["binary"] = {**(entry1.get("binary") or {}), **(entry2.get("binary") or {})}
    return item  # type: ignore[return-value]


def _by_index(join: str, input1: list[Item], input2: list[Item]) -> list[Item]:
    if not input1 and join in ("inner", "left"):
        return []
    if not input2:
        return list(input1) if join in ("left", "outer") else []
    if join == "inner":
        count = min(len(input1), len(input2))
    elif join == "left":
        count = len(input1)
    else:
        count = max(len(input1), len(input2))
    output: list[Item] = []
    for index in range(count):
        if index >= len(input1):
            output.append(input2[index])
        elif index >= len(input2):
            output.append(input1[index])
        else:
            output.append(_joined(input1[index], input2[index]))
    return output


def _key(item: Item, path: str) -> str | None:
    value = get_path(item["json"], path)
    return None if value is None else js_string(value)


def _by_key(ctx: ExecuteContext, mode: str, input1: list[Item], input2: list[Item]) -> list[Item]:
    """``mergeByKey`` adds the matching input 2 item's fields to each input 1 item; the ``…KeyMatches`` modes
    keep or drop the input 1 items that have a match."""
    name1 = str(legacy_param(ctx, "propertyName1", 0, ""))
    name2 = str(legacy_param(ctx, "propertyName2", 0, ""))
    by_key: dict[str, Item] = {}
    for entry in input2:
        key = _key(entry, name2)
        if key is not None:
            by_key[key] = entry  # n8n: a later item with the same key wins
    if mode != "mergeByKey":
        keep = mode == "keepKeyMatches"
        return [entry for entry in input1 if (_key(entry, name1) in by_key) == keep]
    overwrite = legacy_param(ctx, "overwrite", 0, "always")
    output: list[Item] = []
    for entry in input1:
        match = by_key.get(_key(entry, name1) or "")
        if match is None:
            output.append(entry)
            continue
        json = dict(entry["json"])
        for field, value in match["json"].items():
            if field == name2:
                continue
            absent = field not in json
            if overwrite == "always" or absent or (overwrite == "blank" and json[field] in (None, "")):
                json[field] = value
        output.append({**entry, "json": json})  # type: ignore[typeddict-item]
    return output


# --------------------------------------------------------------------------- v2, v2.1


class _AdvancedParams(Params):
    """Merge v2's ``mergeByFields.values`` are Merge v3's "advanced" field pairs."""

    def raw(self, name: str, default: Any = None) -> Any:
        return True if name == "advanced" else super().raw(name, default)


def _merge_v2(ctx: ExecuteContext, inputs: list[list[Item]]) -> list[Item]:
    from weft.library.core import merge as v3

    mode = legacy_param(ctx, "mode", 0, "append")
    if mode == "append":
        return [*inputs[0], *inputs[1]]
    if mode == "chooseBranch":
        return _choose_branch(ctx, inputs)
    if mode != "combine":
        raise NodeOperationError(ctx.node.name, f"The mode {mode!r} is not known.")
    combination = legacy_param(ctx, "combinationMode", 0, "mergeByFields")
    if combination == "mergeByPosition":
        return _by_position_v2(Params(ctx), inputs)
    if combination == "multiplex":
        return v3._combine_all(Params(ctx), inputs)
    return v3._combine_by_fields(ctx, _AdvancedParams(ctx), inputs)


def _by_position_v2(params: Params, inputs: list[list[Item]]) -> list[Item]:
    """v2 ``mergeByPosition``: pairs by index (each pair paired to both items); unpaired items go out as they are."""
    from weft.library.core._merge_fields import add_suffix, merge_method

    input1, input2 = inputs[0], inputs[1]
    if not input1 or not input2:
        return [*input1, *input2]
    clash: dict[str, Any] = params.get("options.clashHandling.values", 0, {}) or {}
    if clash.get("resolveClash") == "preferInput1":
        input1, input2 = input2, input1
    if clash.get("resolveClash") == "addSuffix":
        input1, input2 = add_suffix(input1, "1"), add_suffix(input2, "2")
    longest = params.get("options.includeUnpaired", 0, False)
    count = max(len(input1), len(input2)) if longest else min(len(input1), len(input2))
    merge = merge_method(clash)
    output: list[Item] = []
    for index in range(count):
        if index >= len(input1) or index >= len(input2):
            output.append(input2[index] if index >= len(input1) else input1[index])
            continue
        entry1, entry2 = input1[index], input2[index]
        binary = merge_method({})({}, entry1.get("binary") or {}, entry2.get("binary") or {})
        paired = [*paired_items_of(entry1), *paired_items_of(entry2)]
        merged = {"json": merge(entry1["json"], entry2["json"]), "binary": binary, "pairedItem": paired}
        output.append(merged)  # type: ignore[arg-type]
    return output


def _choose_branch(ctx: ExecuteContext, inputs: list[list[Item]]) -> list[Item]:
    output = legacy_param(ctx, "output", 0, "input1")
    if output == "input1":
        return list(inputs[0])
    if output == "input2":
        return list(inputs[1])
    paired = [p for items in inputs for item in items for p in paired_items_of(item)]
    return [{"json": {}, "pairedItem": paired}]  # type: ignore[typeddict-item]
