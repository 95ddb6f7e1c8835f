"""Database and data source queries of the fake Notion API (:mod:`.notion`): the ``filter`` (property
conditions, nested ``and`` / ``or``), the ``sorts`` (by property or timestamp), then one cursor page."""

from __future__ import annotations

import functools
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._notion_common import error, list_page, request_body, versioned
from weft.testing.saas._notion_data import PAGES, SCHEMA


def query(request: ApiRequest, db_id: str) -> ApiReply:
    body = request_body(request)
    rows = [p for p in PAGES.values() if p["parent"].get("database_id") == db_id]
    if body.get("filter"):
        rows = [p for p in rows if _matches(p, body["filter"])]
    for sort in reversed(body.get("sorts") or []):
        name = sort.get("property")
        require(name is None or name in SCHEMA, error(400, "validation_error",
                f"Could not find sort property with name or id: {name}"))  # fmt: skip
        key = str(sort.get("timestamp") or name)
        rows.sort(key=functools.partial(_sort_key, key=key), reverse=sort.get("direction") == "descending")
    listed = list_page(rows, body.get("start_cursor"), body.get("page_size"), "page_or_database")
    return ApiReply(body=versioned(request, listed))


def _plain(page: dict[str, Any], name: str) -> Any:
    prop = page["properties"][name]
    kind, value = prop["type"], prop[prop["type"]]
    if kind in ("title", "rich_text"):
        return "".join(t["plain_text"] for t in value)
    if kind == "select":
        return value["name"] if value else None
    if kind == "multi_select":
        return [o["name"] for o in value]
    if kind == "date":
        return value["start"] if value else None
    if kind in ("people", "relation"):
        return [o["id"] for o in value]
    return value


def _sort_key(page: dict[str, Any], key: str) -> Any:
    if key in ("created_time", "last_edited_time"):
        return (page[key], page["id"])
    value = _plain(page, key)
    return (value is None, value if not isinstance(value, list) else len(value), page["id"])


def _matches(page: dict[str, Any], spec: dict[str, Any]) -> bool:
    if "and" in spec:
        return all(_matches(page, s) for s in spec["and"])
    if "or" in spec:
        return any(_matches(page, s) for s in spec["or"])
    name = spec.get("property")
    require(name in SCHEMA, error(400, "validation_error", f"Could not find property with name or id: {name}"))
    value = _plain(page, str(name))
    _kind, condition = next(((k, c) for k, c in spec.items() if k != "property" and isinstance(c, dict)), ("", {}))
    require(bool(condition), error(400, "validation_error", "body failed validation: filter is invalid."))
    operator, operand = next(iter(condition.items()))
    return _compare(value, str(operator), operand)


def _compare(value: Any, operator: str, operand: Any) -> bool:
    if operator in ("is_empty", "is_not_empty"):
        empty = value in (None, "", [])
        return empty if operator == "is_empty" else not empty
    if isinstance(value, list):
        found = operand in value
        return found if operator == "contains" else not found
    if operator == "equals":
        return bool(value == operand)
    if operator == "does_not_equal":
        return bool(value != operand)
    if operator == "contains":
        return str(operand).lower() in str(value or "").lower()
    if operator == "does_not_contain":
        return str(operand).lower() not in str(value or "").lower()
    if operator == "starts_with":
        return str(value or "").startswith(str(operand))
    if value is None:
        return False
    compare = {"greater_than": value > operand, "less_than": value < operand,
               "greater_than_or_equal_to": value >= operand, "less_than_or_equal_to": value <= operand}  # fmt: skip
    if operator in compare:
        return bool(compare[operator])
    day = str(operand)[:10]
    dates = {"before": value < day, "after": value > day, "on_or_before": value <= day, "on_or_after": value >= day}
    return bool(dates.get(operator, False))
