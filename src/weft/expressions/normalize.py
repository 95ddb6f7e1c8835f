"""What a Code node may return, and how n8n turns it into items (its ``result-validation`` and ``normalizeItems``).

Running once for all items, the code returns an array of items (``{json, binary?, pairedItem?}``) or of
plain objects (each becomes ``{json: obj}``), or a single object (one item); ``null`` means no items, while
returning nothing (``undefined``) or a primitive is an error. Running once per item, it returns one object,
or something falsy to drop the item; whatever it returns becomes that item's ``json`` (its own ``json`` key
when it has one), paired to the input item.
"""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.workflow import Item

ITEM_KEYS = frozenset({"json", "binary", "pairedItem", "error", "index"})
#: What the sandbox hands back when the code returned ``undefined`` (JSON carries no ``undefined``).
UNDEFINED = "\ufdd0undefined"

_NOT_ITEMS = "Code doesn't return items properly"
_NOT_ITEMS_HELP = "Please return an array of objects, one for each item you would like to output."


def _js_falsy(value: Any) -> bool:
    """JavaScript's falsy values as they come back from the sandbox (``{}`` and ``[]`` are truthy there)."""
    if value is None or value is False or value == UNDEFINED:
        return True
    if isinstance(value, int | float) and not isinstance(value, bool):
        return bool(value == 0)
    return bool(value == "")


def _suffix(index: int | None) -> str:
    return "" if index is None else f" [item {index}]"


def validate_item(node_name: str, item: dict[str, Any], index: int) -> None:
    """n8n ``validateItem``: ``json`` must be an object; ``binary``, when present, too."""
    if not isinstance(item.get("json"), dict):
        raise NodeOperationError(
            node_name,
            f"A 'json' property isn't an object{_suffix(index)}",
            description="In the returned data, every key named 'json' must point to an object.",
            item_index=index,
        )
    if "binary" in item and not isinstance(item["binary"], dict):
        raise NodeOperationError(
            node_name,
            f"A 'binary' property isn't an object{_suffix(index)}",
            description="In the returned data, every key named 'binary' must point to an object.",
            item_index=index,
        )


def _validate_top_level_keys(node_name: str, item: dict[str, Any], index: int) -> None:
    unknown = [key for key in item if key not in ITEM_KEYS]
    if not unknown:
        return
    reserved = next((key for key in item if key in ITEM_KEYS), None)
    if reserved is not None:
        raise NodeOperationError(
            node_name,
            f"Invalid output format{_suffix(index)}",
            description=f"An output item contains the reserved key <code>{reserved}</code>. To get around this, "
            "please wrap each item in an object, under a key called <code>json</code>.",
            item_index=index,
        )
    raise NodeOperationError(
        node_name,
        f"Unknown top-level item key: {unknown[0]}{_suffix(index)}",
        description="Access the properties of an item under `.json`, e.g. `item.json`",
        item_index=index,
    )


def _normalize_items(node_name: str, data: list[Any]) -> list[dict[str, Any]]:
    """n8n ``normalizeItems`` over a list of objects."""
    with_json = [isinstance(v, dict) and "json" in v for v in data]
    if all(with_json):
        return list(data)
    if any(with_json):
        raise NodeOperationError(node_name, "Inconsistent item format")
    with_binary = [isinstance(v, dict) and "binary" in v for v in data]
    if data and all(with_binary):
        return [{"json": {k: v for k, v in d.items() if k != "binary"}, "binary": d["binary"]} for d in data]
    if any(with_binary):
        raise NodeOperationError(node_name, "Inconsistent item format")
    return [{"json": value} for value in data]


def normalize_all_items(node_name: str, result: Any) -> list[Item]:
    """Items from what a run-once-for-all-items Code node returned."""
    if result is None:
        return []
    items: list[dict[str, Any]]
    if isinstance(result, dict):
        items = [result] if result.get("json") else [{"json": result}]
    elif isinstance(result, list):
        if _all_proper_items(result):  # the common case, checked in one pass: nothing to wrap or to report
            # decoded from the sandbox's JSON, so the run's own: an item of `json` alone needs no cleaning copy
            return [item if len(item) == 1 else _clean(item) for item in result]
        if not all(isinstance(value, dict) for value in result):
            raise NodeOperationError(node_name, _NOT_ITEMS, description=_NOT_ITEMS_HELP)
        if any(key in ITEM_KEYS for value in result for key in value):
            for index, value in enumerate(result):
                _validate_top_level_keys(node_name, value, index)
        items = _normalize_items(node_name, result)
    else:
        raise NodeOperationError(node_name, _NOT_ITEMS, description=_NOT_ITEMS_HELP)
    for index, item in enumerate(items):
        validate_item(node_name, item, index)
    return [_clean(item) for item in items]


def _all_proper_items(values: list[Any]) -> bool:
    """Whether each value is an item as n8n wants it: ``json`` an object, ``binary`` (if any) an object, and no
    key but the item keys (what the general checks below then let through unchanged)."""
    for value in values:
        if type(value) is not dict or type(value.get("json")) is not dict or not value.keys() <= ITEM_KEYS:
            return False
        if "binary" in value and not isinstance(value["binary"], dict):
            return False
    return True


def _clean(item: dict[str, Any]) -> Item:
    out: dict[str, Any] = {"json": item["json"]}
    if len(item) > 1:
        for key in ("binary", "pairedItem", "error", "index"):
            if item.get(key) is not None:
                out[key] = item[key]
    return out  # type: ignore[return-value]


def normalize_one_item(node_name: str, result: Any, item_index: int) -> Item | None:
    """The item from what a run-once-for-each-item Code node returned for input item ``item_index``."""
    if _js_falsy(result):
        return None
    json: Any = result
    binary: Any = None
    if isinstance(result, dict):
        if "json" in result:
            json = result["json"]
        elif "binary" in result:
            json = {}
        binary = result.get("binary")
    item: dict[str, Any] = {"json": json, "pairedItem": {"item": item_index}}
    if binary:
        item["binary"] = binary
    validate_item(node_name, item, item_index)
    return item  # type: ignore[return-value]
