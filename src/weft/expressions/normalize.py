"""What a Code node may return, and how n8n turns it into items.

Running once for all items, the code returns an array of items (``{json, binary?, pairedItem?}``) or of
plain objects (each becomes ``{json: obj}``), or a single object (one item). Running once per item, it
returns one object (or nothing, to drop the item); the result is paired to its input item.
"""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.workflow import Item

ITEM_KEYS = frozenset({"json", "binary", "pairedItem", "error", "index"})


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _as_item(node_name: str, value: Any, where: str) -> Item:
    if not isinstance(value, dict):
        raise NodeOperationError(
            node_name,
            f"Code doesn't return an object{where}",
            description=f"An object was expected, but the code returned a {_type_name(value)} "
            f"({str(value)[:40]!r}). Return objects, or items shaped like {{json: {{…}}}}.",
        )
    if "json" not in value:
        return {"json": value}
    unknown = sorted(set(value) - ITEM_KEYS)
    if unknown:
        raise NodeOperationError(
            node_name,
            f"Unknown top-level item key: {unknown[0]}{where}",
            description="Access the properties of an item under `.json`, e.g. `item.json`",
        )
    if not isinstance(value["json"], dict):
        raise NodeOperationError(
            node_name,
            f"A 'json' property isn't an object{where}",
            description="In the returned data, every key named 'json' must point to an object.",
        )
    item: dict[str, Any] = {"json": value["json"]}
    for key in ("binary", "pairedItem", "error"):
        if value.get(key) is not None:
            item[key] = value[key]
    return item  # type: ignore[return-value]


def normalize_all_items(node_name: str, result: Any) -> list[Item]:
    """Items from what a run-once-for-all-items Code node returned."""
    if result is None:
        raise NodeOperationError(
            node_name,
            "Code doesn't return items properly",
            description="Please return an array of objects, one for each item you would like to output.",
        )
    if isinstance(result, dict):
        return [_as_item(node_name, result, "")]
    if not isinstance(result, list):
        raise NodeOperationError(
            node_name,
            "Code doesn't return items properly",
            description="Please return an array of objects, one for each item you would like to output.",
        )
    with_json = [isinstance(v, dict) and "json" in v for v in result]
    if any(with_json) and not all(with_json):
        raise NodeOperationError(
            node_name,
            "Inconsistent item format",
            description="Please return all items in the same format: all as {json: {…}} or all as plain objects.",
        )
    return [_as_item(node_name, value, f" [item {i}]") for i, value in enumerate(result)]


def normalize_one_item(node_name: str, result: Any, item_index: int) -> Item | None:
    """The item from what a run-once-for-each-item Code node returned for input item ``item_index``."""
    if result is None:
        return None
    if isinstance(result, list):
        raise NodeOperationError(
            node_name,
            f"Code doesn't return a single object [item {item_index}]",
            description="An array of objects was returned. If you need to output multiple items, "
            "please use the 'Run Once for All Items' mode instead.",
            item_index=item_index,
        )
    item = _as_item(node_name, result, f" [item {item_index}]")
    item["pairedItem"] = {"item": item_index}
    return item
