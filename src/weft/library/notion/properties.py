"""Database page properties, filters and sorts as n8n's Notion node writes them (``mapProperties``,
``getPropertyKeyValue``, ``mapFilters``, ``mapSorting``). A property's ``key`` is ``<name>|<type>``."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from weft.errors import NodeOperationError
from weft.library.notion.blocks import rich_texts

#: The defaults n8n fills into each Property Values entry.
PROPERTY_DEFAULTS = {"richText": False, "ignoreIfEmpty": False, "includeTime": True, "timezone": "default",
                     "range": False, "textContent": "", "multiSelectValue": [], "peopleValue": [],
                     "relationValue": [], "selectValue": "", "numberValue": 0, "checkboxValue": False,
                     "urlValue": "", "emailValue": "", "phoneValue": "", "statusValue": "", "title": ""}  # fmt: skip
_UUID = re.compile(r"^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|"
                   r"00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$", re.I)  # fmt: skip


def name_and_type(key: str) -> tuple[str, str]:
    """``getNameAndType``: ``"Due Date|date"`` → ``("Due Date", "date")``."""
    if "|" not in key:
        return key, ""
    at = key.rindex("|")
    return key[:at], key[at + 1 :]


def _is_uuid(value: str) -> bool:
    return bool(_UUID.match(value))


def _relation_id(node: str, value: str) -> str:
    dashed = f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}" if len(value) == 32 else ""
    if _is_uuid(value) or (dashed and _is_uuid(dashed)):
        return value
    fix = "Give related pages by their IDs (32 hex digits, dashes optional)."
    raise NodeOperationError(
        node, f'The relation id "{value}" is not a valid uuid with optional dashes.', description=fix
    )


def moment_format(value: Any, zone: str, include_time: bool) -> str:
    """``moment.tz(value, zone).format(include_time ? "" : "yyyy-MM-DD")``."""
    moment = _moment(value, zone)
    if not include_time:
        return moment.strftime("%Y-%m-%d")
    text = moment.isoformat(timespec="seconds")
    return text[:-6] + "Z" if text.endswith("+00:00") else text  # moment formats a zero offset as "Z"


def moment_utc(value: Any, zone: str) -> str:
    """``moment.tz(value, zone).utc().format()``."""
    return _moment(value, zone).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _moment(value: Any, zone: str) -> datetime:
    """What moment-timezone parses: an ISO text in ``zone`` unless it carries an offset."""
    tz = ZoneInfo(zone)
    if isinstance(value, datetime):
        return value.astimezone(tz) if value.tzinfo else value.replace(tzinfo=tz)
    text = str(value).strip().replace(" ", "T", 1)
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        parsed = datetime.now(UTC)  # moment falls back on "now" for what it cannot read
    return parsed.astimezone(tz) if parsed.tzinfo else parsed.replace(tzinfo=tz)


def property_value(node: str, value: dict[str, Any], kind: str, timezone: str, version: int = 1) -> Any:
    """``getPropertyKeyValue``; ``None`` where n8n leaves the property out."""
    value = {**PROPERTY_DEFAULTS, **value}
    if kind == "rich_text":
        if not value["richText"]:
            return {"rich_text": [{"text": {"content": value["textContent"]}}]}
        return {"rich_text": rich_texts((value.get("text") or {}).get("text") or [])}
    if kind == "url":
        url = value["urlValue"]
        return None if not url and value["ignoreIfEmpty"] else {"type": "url", "url": url}
    if kind == "relation":
        ids = [part.strip() for r in value["relationValue"] if r and isinstance(r, str) for part in r.split(",")]
        return {"type": "relation", "relation": [{"id": _relation_id(node, r)} for r in ids]}
    if kind == "select":
        selected = value["selectValue"]
        if selected in (None, ""):
            return {"type": "select", "select": None}
        return {"type": "select", "select": {"id": selected} if version == 1 else {"name": selected}}
    if kind == "date":
        return _date(value, timezone)
    simple = _SIMPLE.get(kind)
    return simple(value) if simple is not None else {}


def _people(value: dict[str, Any]) -> dict[str, Any]:
    people = value["peopleValue"] if isinstance(value["peopleValue"], list) else [value["peopleValue"]]
    return {"type": "people", "people": [{"id": person} for person in people]}


def _files(value: dict[str, Any]) -> dict[str, Any]:
    files = ((value.get("fileUrls") or {}).get("fileUrl")) or []
    entries = [{"name": f.get("name"), "type": "external", "external": {"url": f.get("url")}} for f in files]
    return {"type": "files", "files": entries}


_SIMPLE: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "title": lambda v: {"title": [{"text": {"content": v["title"]}}]},
    "number": lambda v: {"type": "number", "number": v["numberValue"]},
    "checkbox": lambda v: {"type": "checkbox", "checkbox": v["checkboxValue"]},
    "multi_select": lambda v: _multi_select(v["multiSelectValue"]),
    "email": lambda v: {"type": "email", "email": v["emailValue"]},
    "people": _people,
    "phone_number": lambda v: {"type": "phone_number", "phone_number": v["phoneValue"]},
    "status": lambda v: {"type": "status", "status": {"name": v["statusValue"]}},
    "files": _files,
}


def _multi_select(selected: Any) -> dict[str, Any]:
    if selected in (None, ""):
        return {"type": "multi_select", "multi_select": []}
    names = selected if isinstance(selected, list) else [v.strip() for v in str(selected).split(",")]
    options = [{"id": o} if isinstance(o, str) and _is_uuid(o) else {"name": o} for o in names if o is not None]
    return {"type": "multi_select", "multi_select": options}


def _date(value: dict[str, Any], timezone: str) -> dict[str, Any]:
    zone = timezone if value["timezone"] == "default" else str(value["timezone"])
    include = bool(value["includeTime"])
    day = value.get("date", "" if value["range"] is not True else None)  # n8n fills in the shown field only
    if value["range"] is True:
        start = moment_format(value.get("dateStart", ""), zone, include)
        date: dict[str, Any] | None = {"start": start, "end": moment_format(value.get("dateEnd", ""), zone, include)}
    else:
        date = {"start": moment_format(day, zone, include), "end": None}
    if day == "" or (value.get("dateStart") == "" and value.get("dateEnd") == ""):
        date = None
    return {"type": "date", "date": date}


def map_properties(node: str, properties: list[dict[str, Any]], timezone: str, version: int = 1) -> dict[str, Any]:
    """``mapProperties``: the Property Values entries as the request's ``properties``."""
    out: dict[str, Any] = {}
    for prop in properties:
        if not isinstance(prop.get("key"), str):
            continue
        name, kind = name_and_type(prop["key"])
        value = property_value(node, prop, kind, timezone, version)
        if value and name != "__proto__":
            out[name] = value
    return out


def map_sorting(sorts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``mapSorting``."""
    return [{"direction": s.get("direction", ""), ("timestamp" if s.get("timestamp") else "property"):
             name_and_type(str(s.get("key", "")))[0]} for s in sorts]  # fmt: skip


def _camel(kind: str) -> str:
    head, *rest = kind.split("_")
    return head + "".join(part.capitalize() for part in rest)


def map_filter(value: dict[str, Any], timezone: str) -> dict[str, Any]:
    """``mapFilters`` of one condition."""
    name, key = name_and_type(str(value.get("key", "")))
    condition = value.get("condition")
    operand = value.get(_camel(key)) if key == "last_edited_time" else value.get(f"{_camel(key)}Value")
    if condition in ("is_empty", "is_not_empty"):
        operand = True
    elif condition in ("past_week", "past_month", "past_year", "next_week", "next_month", "next_year"):
        operand = {}
    if key in ("rich_text", "text"):
        key = "text"
    elif key == "phone_number":
        key = "phone"
    elif key == "date" and condition not in ("is_empty", "is_not_empty"):
        date = value.get("date", "")
        operand = {} if date == "" else _moment(date, timezone).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    elif key == "boolean":
        key = "checkbox"
    if value.get("type") == "formula":
        if condition in ("is_empty", "is_not_empty"):
            key = str(value.get("returnType"))
        else:
            returned = str(value.get("returnType"))
            inner = value.get(f"{_camel(returned)}Value")
            return {"property": name, key: {returned: {str(condition): inner}}}
    return {"property": name, key: {str(condition): operand}}
