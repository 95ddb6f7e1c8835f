"""Compare Datasets' comparing helpers (n8n ``CompareDatasets/GenericFunctions`` and ``utils/utilities``):
``fuzzyCompare`` at each version, the "include both versions" item (``compareItems``) and the mix (``combineItems``).

JavaScript's ``undefined`` (a field an item does not have) is :data:`UNDEFINED`; :func:`strip_undefined` drops it
from the output as ``JSON.stringify`` would.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.paths import get_path, set_path, unset_path
from weft.nodes.values import is_number, js_equal, js_number_repr, js_truthy
from weft.workflow import Item

UNDEFINED: Any = object()
Equal = Callable[[Any, Any], bool]


def _typeof(value: Any) -> str:
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def lodash_equal(a: Any, b: Any) -> bool:
    """lodash ``isEqual``, where ``undefined`` equals only ``undefined``."""
    if a is UNDEFINED or b is UNDEFINED:
        return a is b
    return js_equal(a, b)


def _is_falsy(value: Any) -> bool:
    """n8n's ``isFalsy``: ``null``, ``""`` and ``[]`` (not ``{}``, not ``undefined``)."""
    return value is None or (value == "" and isinstance(value, str)) or (isinstance(value, list) and not value)


def fuzzy_compare(use_fuzzy: bool, version: float = 1) -> Equal:
    """n8n ``fuzzyCompare(useFuzzyCompare, compareVersion)``."""
    if not use_fuzzy:
        return lodash_equal

    def equal(a: Any, b: Any) -> bool:
        if a is not None and b is not None and _typeof(a) == _typeof(b):
            return lodash_equal(a, b)
        if version >= 2 and (_null_like(a, b) or _null_like(b, a)):
            return True
        if _is_falsy(a) and (_is_falsy(b) or b is UNDEFINED):
            return True
        if a is UNDEFINED and _is_falsy(b):
            return True
        return _loosely_equal(a, b) or _loosely_equal(b, a) or lodash_equal(a, b)

    return equal


def _null_like(a: Any, b: Any) -> bool:
    return a is None and (b is None or (is_number(b) and b == 0) or b == "0")


def _loosely_equal(a: Any, b: Any) -> bool:
    """The one-directional rules of ``fuzzyCompare``: number/string, object/JSON text, boolean/string or number."""
    kind_a, kind_b = _typeof(a), _typeof(b)
    if kind_a == "number" and kind_b == "string":
        return bool(js_number_repr(a) == b)
    if kind_a == "object" and a is not None and kind_b == "string":
        try:
            return lodash_equal(json.loads(b), a)
        except ValueError:
            return False
    if kind_a == "boolean" and kind_b == "string":
        return bool(b.lower() == ("true" if a else "false") or b == ("1" if a else "0"))
    if kind_a == "boolean" and kind_b == "number":
        return bool(b == (1 if a else 0))
    return False


def _nullish(version: float) -> Callable[[Any], Any]:
    if version >= 2:
        return lambda value: None if value is UNDEFINED else value
    return lambda value: value if value is not UNDEFINED and js_truthy(value) else None


def _union(first: list[str], second: list[str]) -> list[str]:
    return first + [key for key in second if key not in first]


def compare_items(
    item1: Item,
    item2: Item,
    fields: list[dict[str, Any]],
    options: dict[str, Any],
    skip: list[str],
    equal: Equal,
    node_name: str,
) -> Item:
    """n8n ``compareItems``: ``{keys, same, different, skipped?}`` of a matched pair that differs."""
    json1, json2 = item1["json"], item2["json"]
    version = float(options["nodeVersion"])
    keys = {str(f.get("field1", "")): json1.get(str(f.get("field1", "")), UNDEFINED) for f in fields}
    all_keys = _union(list(json1), list(json2))
    if options.get("fuzzyCompare") and version >= 2.1:
        to_compare = all_keys
    else:
        to_compare = [key for key in json1 if key in json2]
    same = {k: json1.get(k, UNDEFINED) for k in to_compare if equal(json1.get(k, UNDEFINED), json2.get(k, UNDEFINED))}
    different: dict[str, Any] = {}
    skipped: dict[str, Any] = {}
    nullish = _nullish(version)
    names = ("inputA", "inputB") if version >= 2 else ("input1", "input2")
    for index, key in enumerate(k for k in all_keys if k not in same):
        value1, value2 = nullish(json1.get(key, UNDEFINED)), nullish(json2.get(key, UNDEFINED))
        resolve = options.get("resolve")
        if resolve in ("preferInput1", "preferInput2"):
            different[key] = value1 if resolve == "preferInput1" else value2
        elif version >= 2.1 and not options.get("disableDotNotation") and key not in skip:
            try:
                different[key] = _without_nested_skips(key, index, value1, value2, skip, skipped, names)
            except ValueError as error:
                raise NodeOperationError(
                    node_name,
                    str(error),
                    description="Remove the nested field from 'Fields to Skip Comparing', or compare objects there.",
                ) from None
        elif key in skip:
            skipped[key] = {names[0]: value1, names[1]: value2}
        else:
            different[key] = {names[0]: value1, names[1]: value2}
    result: dict[str, Any] = {"keys": keys, "same": same, "different": different}
    if skipped:
        result["skipped"] = skipped
    paired = _paired_list(item1.get("pairedItem")) + _paired_list(item2.get("pairedItem"))
    return {"json": result, "pairedItem": paired}  # type: ignore[typeddict-item]


def _without_nested_skips(
    key: str, index: int, value1: Any, value2: Any, skip: list[str], skipped: dict[str, Any], names: tuple[str, str]
) -> dict[str, Any]:
    nested = [field for field in skip if field.startswith(key) and "." in field]
    value1, value2 = copy.deepcopy(value1), copy.deepcopy(value2)
    if nested and (_typeof(value1) != "object" or _typeof(value2) != "object"):
        raise ValueError(f"The field '{key}' in item {index} is not an object. It is not possible to use dot notation.")
    if nested and key not in skipped:
        skipped[key] = {names[0]: {}, names[1]: {}}
    for field in nested:
        inner = field.replace(f"{key}.", "", 1)
        for name, value in zip(names, (value1, value2), strict=True):
            found = get_path(value, inner, default=UNDEFINED) if isinstance(value, dict | list) else UNDEFINED
            set_path(skipped[key][name], inner, found)
            if isinstance(value, dict):
                unset_path(value, inner)
    return {names[0]: value1, names[1]: value2}


def _paired_list(paired: Any) -> list[Any]:
    """n8n ``preparePairedItemDataArray``."""
    if paired is None:
        return []
    if isinstance(paired, int):
        return [{"item": paired}]
    return list(paired) if isinstance(paired, list) else [paired]


def combine_items(item1: Item, item2: Item, prefer: Any, except_fields: Any, disable_dot_notation: bool) -> Item:
    """n8n ``combineItems`` (2.41.1): the preferred item, with the excepted fields taken from the other one.

    As n8n, the preferred input item itself is changed (callers pass copies of the input)."""
    entry, match = (item1, item2) if prefer == "input1" else (item2, item1)
    if isinstance(except_fields, list) and except_fields:
        fields = [str(field) for field in except_fields]
    else:
        fields = [field.strip() for field in str(except_fields).split(",")] if except_fields else []
    for field in fields:
        if disable_dot_notation:
            entry["json"][field] = match["json"].get(field, UNDEFINED)
        else:
            value = get_path(match["json"], field, default=UNDEFINED)
            entry["json"][field] = None if value is UNDEFINED or value is None else value
    return entry


def strip_undefined(value: Any) -> Any:
    """The value as ``JSON.stringify`` writes it: ``undefined`` object values dropped, array ones ``null``."""
    if isinstance(value, dict):
        return {k: strip_undefined(v) for k, v in value.items() if v is not UNDEFINED}
    if isinstance(value, list):
        return [None if v is UNDEFINED else strip_undefined(v) for v in value]
    return value


__all__ = ["UNDEFINED", "combine_items", "compare_items", "fuzzy_compare", "lodash_equal", "strip_undefined"]
