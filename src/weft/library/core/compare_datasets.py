"""Compare Datasets (``n8n-nodes-base.compareDatasets`` v1, 2, 2.1, 2.2, 2.3): pairs the items of Input A and
Input B whose match fields are equal and sorts them into four outputs: In A only, Same, Different, In B only
(recorded: n460-n468).

As n8n: the first (or every) item of B whose fields match an item of A is its match, an A item missing a match
field is "In A only"; a matched pair is "Same" when all fields but the skipped ones are equal (lodash
``isEqual``, or n8n's ``fuzzyCompare``), else "Different", resolved by the ``resolve`` option (A's version, B's,
a mix, or both versions side by side). Items with empty JSON are dropped. Before 2.2 a match field no item of an
input has is an error. The default of ``resolve`` is ``preferInput2`` up to version 2 and ``includeBoth`` from
2.1. Weft mixes copies of the input items, where n8n changes the items of the previous node in place.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.library.core._compare_datasets_items import (
    UNDEFINED,
    Equal,
    combine_items,
    compare_items,
    fuzzy_compare,
    strip_undefined,
)
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.paths import get_path, unset_path
from weft.workflow import MAIN, Item, NodeOutput

_DESCRIBE_PAIR = "Enter a field of Input A and the field of Input B it must equal, for each pair in 'Fields to Match'."


class CompareDatasets(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.compareDatasets",
        display_name="Compare Datasets",
        versions=(1, 2, 2.1, 2.2, 2.3),
        description="Compare two inputs for changes",
        group=("transform",),
        inputs=(MAIN, MAIN),
        outputs=(MAIN, MAIN, MAIN, MAIN),
        required_inputs=1,
        defaults={
            "mergeByFields": {"values": [{"field1": "", "field2": ""}]},
            "fuzzyCompare": False,
            "preferWhenMix": "input1",
            "exceptWhenMix": "",
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        merge_by = ctx.get_node_parameter("mergeByFields", 0, {"values": [{"field1": "", "field2": ""}]}) or {}
        fields = _match_fields(ctx, merge_by.get("values", []) or [])
        options = dict(ctx.get_node_parameter("options", 0, {}) or {})
        version = float(ctx.node.typeVersion)
        options["nodeVersion"] = version
        if version >= 2:
            options["fuzzyCompare"] = ctx.get_node_parameter("fuzzyCompare", 0, False)
        dot = not options.get("disableDotNotation")
        input1 = _without_empty(ctx.get_input_data(0))
        input2 = _without_empty(ctx.get_input_data(1))
        if version < 2.2:
            _check_fields(ctx, input1, [str(f["field1"]) for f in fields], dot, "Input A")
            _check_fields(ctx, input2, [str(f["field2"]) for f in fields], dot, "Input B")
        options["resolve"] = ctx.get_node_parameter("resolve", 0, "includeBoth" if version >= 2.1 else "preferInput2")
        if options["resolve"] == "mix":
            options["preferWhenMix"] = ctx.get_node_parameter("preferWhenMix", 0, "input1")
            options["exceptWhenMix"] = ctx.get_node_parameter("exceptWhenMix", 0, "")
        outputs = _Matcher(ctx.node.name, fields, options).run(input1, input2)
        return [[{**item, "json": strip_undefined(item["json"])} for item in output] for output in outputs]


def _match_fields(ctx: ExecuteContext, pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """n8n ``checkMatchFieldsInput``."""
    if len(pairs) == 1 and pairs[0].get("field1", "") == "" and pairs[0].get("field2", "") == "":
        raise NodeOperationError(
            ctx.node.name,
            'You need to define at least one pair of fields in "Fields to Match" to match on',
            description=_DESCRIBE_PAIR,
        )
    for index, pair in enumerate(pairs):
        first, second = pair.get("field1", ""), pair.get("field2", "")
        if first == "" or second == "":
            raise NodeOperationError(
                ctx.node.name,
                f'You need to define both fields in "Fields to Match" for pair {index + 1},\n'
                f"\t\t\t\t field 1 = '{first}'\n\t\t\t\t field 2 = '{second}'",
                description=_DESCRIBE_PAIR,
            )
    return pairs


def _without_empty(items: list[Item]) -> list[Item]:
    """Copies of the items whose JSON is not empty (n8n ``checkInput``)."""
    return [copy.deepcopy(item) for item in items if item.get("json")]


def _check_fields(ctx: ExecuteContext, items: list[Item], fields: list[str], dot: bool, label: str) -> None:
    """n8n ``checkInputAndThrowError`` (before 2.2)."""
    if not items:
        return
    for field in fields:
        if not any(_value(item, field, dot) is not UNDEFINED for item in items):
            raise NodeOperationError(
                ctx.node.name,
                f"Field '{field}' is not present in any of items in '{label}'",
                description=f"Check the field name in 'Fields to Match', or the items of {label}.",
            )


def _value(item: Item, field: str, dot: bool) -> Any:
    if dot:
        return get_path(item["json"], field, default=UNDEFINED)
    return item["json"].get(field, UNDEFINED)


class _Matcher:
    """n8n ``findMatches``."""

    def __init__(self, node_name: str, fields: list[dict[str, Any]], options: dict[str, Any]) -> None:
        self.node_name = node_name
        self.fields = fields
        self.options = options
        self.dot = not options.get("disableDotNotation")
        self.equal: Equal = fuzzy_compare(bool(options.get("fuzzyCompare")), float(options["nodeVersion"]))
        self.skip = [field.strip() for field in str(options.get("skipFields") or "").split(",")]
        dotted = next((field for field in self.skip if "." in field), None)
        if not self.dot and dotted is not None:
            raise NodeOperationError(
                node_name,
                f"Dot notation is disabled, but field to skip comparing '{dotted}' contains dot",
                description="Turn off 'Disable Dot Notation', or skip only top-level fields.",
            )

    def run(self, input1: list[Item], input2: list[Item]) -> list[list[Item]]:
        only1: list[Item] = []
        matched: list[tuple[Item, list[Item]]] = []
        seen2: set[int] = set()
        for entry in input1:
            lookup = {str(f["field2"]): _value(entry, str(f["field1"]), self.dot) for f in self.fields}
            if any(value is UNDEFINED for value in lookup.values()):
                only1.append(entry)
                continue
            found = self._find(input2, lookup)
            seen2.update(index for index, _ in found)
            if found:
                matched.append((entry, [match for _, match in found]))
            else:
                only1.append(entry)
        same: list[Item] = []
        different: list[Item] = []
        for entry, matches in matched:
            kept = self._sort(entry, matches, different)
            if kept is not None:
                same.append(kept)
        only2 = [entry for index, entry in enumerate(input2) if index not in seen2]
        return [only1, same, different, only2]

    def _find(self, items: list[Item], lookup: dict[str, Any]) -> list[tuple[int, Item]]:
        found: list[tuple[int, Item]] = []
        for index, item in enumerate(items):
            if all(self.equal(expected, _value(item, key, self.dot)) for key, expected in lookup.items()):
                found.append((index, item))
                if self.options.get("multipleMatches", "first") != "all":
                    break
        return found

    def _sort(self, entry: Item, matches: list[Item], different: list[Item]) -> Item | None:
        kept: Item | None = None
        resolve = self.options.get("resolve")
        for match in matches:
            if self._items_equal(entry["json"], match["json"]):
                if kept is None:
                    fuzzy_b = self.options.get("fuzzyCompare") and resolve == "preferInput2"
                    kept = match if fuzzy_b else entry
            elif resolve == "preferInput1":
                different.append(entry)
            elif resolve == "preferInput2":
                different.append(match)
            elif resolve == "mix":
                prefer, except_fields = self.options.get("preferWhenMix"), self.options.get("exceptWhenMix")
                different.append(combine_items(entry, match, prefer, except_fields, not self.dot))
            else:
                different.append(
                    compare_items(entry, match, self.fields, self.options, self.skip, self.equal, self.node_name)
                )
        return kept

    def _items_equal(self, json1: dict[str, Any], json2: dict[str, Any]) -> bool:
        if not self.dot or not any("." in field for field in self.skip):
            json1 = {k: v for k, v in json1.items() if k not in self.skip}
            json2 = {k: v for k, v in json2.items() if k not in self.skip}
        else:
            json1, json2 = copy.deepcopy(json1), copy.deepcopy(json2)
            for field in self.skip:
                unset_path(json1, field)
                unset_path(json2, field)
        if self.options.get("fuzzyCompare"):
            return all(self.equal(value, json2.get(key, UNDEFINED)) for key, value in json1.items())
        return self.equal(json1, json2)


__all__ = ["CompareDatasets"]
