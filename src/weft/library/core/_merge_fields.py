"""Merge's matching and merging helpers (n8n ``Merge/v3/helpers/utils.ts``): find matches, resolve clashes."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.nodes.values import get_path, is_number, js_equal, js_number_repr
from weft.workflow import Item
from weft.workflow.items import paired_items_of

Merger = Callable[..., dict[str, Any]]

_MISSING: Any = object()


# --------------------------------------------------------------------------- comparing


def _falsy(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, list | dict) and not value) or value is _MISSING


def _fuzzy_equal(a: Any, b: Any) -> bool:
    """n8n ``fuzzyCompare(true)``: numbers match their strings, empty values match each other."""
    if a is not None and b is not None and _same_kind(a, b):
        return js_equal(a, b)
    if _falsy(a) and _falsy(b):
        return True
    if is_number(a) and isinstance(b, str):
        return js_number_repr(a) == b
    if isinstance(a, str) and is_number(b):
        return a == js_number_repr(b)
    if isinstance(a, bool) and isinstance(b, str):
        return str(a).lower() == b.lower()
    if isinstance(a, str) and isinstance(b, bool):
        return a.lower() == str(b).lower()
    if isinstance(a, dict | list) and isinstance(b, str):
        return _json_equal(b, a)
    if isinstance(a, str) and isinstance(b, dict | list):
        return _json_equal(a, b)
    return js_equal(a, b)


def _json_equal(text: str, value: Any) -> bool:
    try:
        return js_equal(json.loads(text), value)
    except ValueError:
        return False


def _same_kind(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    if is_number(a) or is_number(b):
        return is_number(a) and is_number(b)
    return isinstance(a, str) == isinstance(b, str)


def comparer(fuzzy: bool) -> Callable[[Any, Any], bool]:
    return _fuzzy_equal if fuzzy else js_equal


# --------------------------------------------------------------------------- matching


@dataclass(slots=True)
class Matches:
    matched: list[tuple[Item, list[Item]]] = field(default_factory=list)
    matched2: list[Item] = field(default_factory=list)
    unmatched1: list[Item] = field(default_factory=list)
    unmatched2: list[Item] = field(default_factory=list)


def _value(item: Item, path: str, dot: bool) -> Any:
    return get_path(item["json"], path, dot_notation=dot, default=_MISSING)


def find_matches(
    input1: list[Item], input2: list[Item], pairs: list[tuple[str, str]], options: Mapping[str, Any]
) -> Matches:
    """n8n ``findMatches``: each input-1 item with its matching input-2 items."""
    equal = comparer(bool(options.get("fuzzyCompare")))
    dot = not options.get("disableDotNotation")
    first_only = (options.get("multipleMatches") or "all") != "all"
    split = options.get("outputDataFrom") == "both" or options.get("joinMode") in ("enrichInput1", "enrichInput2")
    result = Matches()
    matched_in_2: set[int] = set()
    for entry in input1:
        lookup = {field2: _value(entry, field1, dot) for field1, field2 in pairs}
        if any(v is _MISSING for v in lookup.values()):
            result.unmatched1.append(entry)
            continue
        found: list[int] = []
        for index, candidate in enumerate(input2):
            if all(equal(expected, _value(candidate, key, dot)) for key, expected in lookup.items()):
                found.append(index)
                if first_only:
                    break
        matched_in_2.update(found)
        if not found:
            result.unmatched1.append(entry)
        elif split:
            result.matched.extend((entry, [input2[i]]) for i in found)
        else:
            result.matched.append((entry, [input2[i] for i in found]))
    for index, entry in enumerate(input2):
        (result.matched2 if index in matched_in_2 else result.unmatched2).append(entry)
    return result


# --------------------------------------------------------------------------- merging


def _deep_merge(target: dict[str, Any], source: Mapping[str, Any], skip_empty: bool) -> dict[str, Any]:
    """lodash ``merge`` (plain objects and arrays merged by key/index)."""
    for key, value in source.items():
        if skip_empty and (value is None or value == ""):
            continue
        current = target.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            target[key] = _deep_merge(dict(current), value, skip_empty)
        elif isinstance(value, list) and isinstance(current, list):
            target[key] = _merge_lists(current, value, skip_empty)
        else:
            target[key] = copy.deepcopy(value) if isinstance(value, dict | list) else value
    return target


def _merge_lists(current: list[Any], value: list[Any], skip_empty: bool) -> list[Any]:
    merged = list(current)
    for index, element in enumerate(value):
        if index < len(merged) and isinstance(element, dict) and isinstance(merged[index], dict):
            merged[index] = _deep_merge(dict(merged[index]), element, skip_empty)
        elif index < len(merged):
            merged[index] = element
        else:
            merged.append(element)
    return merged


def merge_method(clash: Mapping[str, Any]) -> Merger:
    """n8n ``selectMergeMethod``: deep (default) or shallow merge, optionally skipping empty values."""
    skip_empty = bool(clash.get("overrideEmpty"))
    shallow = clash.get("mergeMode") == "shallowMerge"

    def merge(target: Mapping[str, Any] | None, *sources: Mapping[str, Any] | None) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for source in (target, *sources):
            if not source:
                continue
            if shallow:
                result.update({k: v for k, v in source.items() if not (skip_empty and v in (None, ""))})
            else:
                _deep_merge(result, source, skip_empty)
        return result

    return merge


def add_suffix(items: list[Item], suffix: str) -> list[Item]:
    """n8n ``addSuffixToEntriesKeys``."""
    return [{**item, "json": {f"{k}_{suffix}": v for k, v in item["json"].items()}} for item in items]  # type: ignore[misc]


def merge_matched(
    matched: list[tuple[Item, list[Item]]], clash: Mapping[str, Any], join_mode: str | None = None
) -> list[Item]:
    """n8n ``mergeMatched``: each match merged into one item paired to all of its sources."""
    merge = merge_method(clash)
    resolve = clash.get("resolveClash")
    if resolve is None:
        resolve = "preferInput1" if join_mode == "enrichInput2" else "preferLast"
    output: list[Item] = []
    for entry, matches in matched:
        if resolve == "addSuffix":
            entry = add_suffix([entry], "1")[0]
            matches = add_suffix(matches, "2")
            order = [entry, *matches]
        elif resolve == "preferInput1":
            order = [*matches, entry]
        else:
            order = [entry, *matches]
        merged: dict[str, Any] = {
            "json": merge(*(i["json"] for i in order)),
            "binary": merge(*(i.get("binary") or {} for i in order)),
            "pairedItem": [p for i in order for p in paired_items_of(i)],
        }
        output.append(merged)  # type: ignore[arg-type]
    return output
