"""The Notion node 3's manual filters for a data source query (n8n's ``mapDataSourceFilters``): each condition's
``Property Name|type`` key and condition as Notion's filter object, ``or``/``and`` by "Must Match"."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from weft.library.notion.properties import moment_utc, name_and_type

_EMPTY = ("is_empty", "is_not_empty")
_RELATIVE = ("next_month", "next_week", "next_year", "past_month", "past_week", "past_year", "this_week")
_TEXT = ("equals", "does_not_equal", "contains", "does_not_contain", "starts_with", "ends_with", *_EMPTY)
_NUMBER = ("equals", "does_not_equal", "greater_than", "less_than", "greater_than_or_equal_to",
           "less_than_or_equal_to")  # fmt: skip
_LIST = ("contains", "does_not_contain", *_EMPTY)
_CHOICE = ("equals", "does_not_equal", *_EMPTY)
CONDITIONS: dict[str, tuple[str, ...]] = {
    "checkbox": ("equals", "does_not_equal"),
    "date": ("equals", "before", "after", "on_or_before", "on_or_after", *_EMPTY, *_RELATIVE),
    "files": _EMPTY,
    "multi_select": _LIST,
    "number": (*_NUMBER, *_EMPTY),
    "people": _LIST,
    "phone_number": _TEXT,
    "relation": _LIST,
    "rich_text": _TEXT,
    "select": _CHOICE,
    "status": _CHOICE,
    "unique_id": _NUMBER,
    "verification": ("status",),
}
_FILTER_TYPE = {"created_by": "people", "created_time": "timestamp", "email": "rich_text", "last_edited_by": "people",
                "last_edited_time": "timestamp", "title": "rich_text", "url": "rich_text"}  # fmt: skip
_FORMULA_TYPES = ("checkbox", "date", "number", "string")


class FilterError(ValueError):
    """A condition n8n refuses (its plain ``Error``); the node turns it into a typed error."""


def _split_list(value: Any) -> Any:
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    if not isinstance(value, str):
        return ""
    entries = [e.strip() for e in value.split(",") if e.strip()]
    return entries if len(entries) > 1 else value


def _date_value(value: Any, timezone: str) -> Any:
    if not isinstance(value, str) or not value:
        return ""
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return moment_utc(value, timezone)


def _value(kind: str, condition: str, entry: dict[str, Any], timezone: str) -> Any:
    if condition in _EMPTY:
        return True
    if condition in _RELATIVE:
        return {}
    if kind == "checkbox":
        return entry.get("checkboxValue") is True
    if kind == "date":
        return _date_value(entry.get("dateValue"), timezone)
    if kind in ("number", "unique_id"):
        return entry.get("numberValue")
    if kind == "people":
        return entry.get("peopleValue")
    if kind in ("phone_number", "rich_text"):
        return entry.get("richTextValue")
    if kind == "relation":
        return entry.get("relationValue")
    if kind in ("select", "status", "multi_select"):
        return _split_list(entry.get("optionValue"))
    if kind == "verification":
        return entry.get("verificationStatus")
    return ""


def _condition(kind: str, condition: str, entry: dict[str, Any], timezone: str) -> dict[str, Any]:
    if condition not in CONDITIONS.get(kind, ()):
        raise FilterError(f'The condition "{condition}" is not supported for Notion {kind} filters')
    return {condition: _value(kind, condition, entry, timezone)}


def map_filter(entry: dict[str, Any], timezone: str) -> dict[str, Any]:
    """``mapDataSourceFilter``: one condition."""
    if not isinstance(entry.get("key"), str):
        return {}
    name, kind = name_and_type(entry["key"])
    filter_type = _FILTER_TYPE.get(kind, kind)
    if filter_type == "rollup":
        text = entry.get("rollupJson")
        try:
            rollup = json.loads(text) if isinstance(text, str) and text else {}
        except ValueError:
            raise FilterError("Rollup Filter (JSON) must be valid JSON") from None
        return {"property": name, "rollup": rollup}
    condition = entry.get("condition")
    if not isinstance(condition, str):
        return {}
    if filter_type == "timestamp":
        return {"timestamp": kind, kind: _condition("date", condition, entry, timezone)}
    if filter_type == "formula":
        returns = entry.get("returnType")
        if returns not in _FORMULA_TYPES:
            raise FilterError("Choose a formula return type before filtering")
        kind_of = "rich_text" if returns == "string" else str(returns)
        return {"property": name, "formula": {returns: _condition(kind_of, condition, entry, timezone)}}
    return {"property": name, filter_type: _condition(filter_type, condition, entry, timezone)}


def map_filters(entries: list[dict[str, Any]], match: str, timezone: str) -> dict[str, Any] | None:
    """``mapDataSourceFilters``."""
    mapped = [map_filter(e, timezone) for e in entries]
    if not mapped:
        return None
    return {"and": mapped} if match == "allFilters" else {"or": mapped}
