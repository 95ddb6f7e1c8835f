"""The ``batchUpdate`` requests of the node's "Actions" (n8n's ``GoogleDocs.execute``, update): one request per
action, named ``<action><Object>`` (``insertText``, ``replaceAllText``, ``createHeader``, …)."""

from __future__ import annotations

from typing import Any


def _segment(field: dict[str, Any]) -> Any:
    return field.get("segmentId") if field.get("insertSegment") != "body" else ""


def _location(field: dict[str, Any]) -> dict[str, Any]:
    """``{[locationChoice]: {segmentId, index?}}``."""
    choice = str(field.get("locationChoice"))
    spot: dict[str, Any] = {"segmentId": _segment(field)}
    if choice == "location":
        spot["index"] = field.get("index")
    return {choice: spot}


def _cell(field: dict[str, Any]) -> dict[str, Any]:
    start = {"segmentId": _segment(field), "index": field.get("index")}
    return {"rowIndex": field.get("rowIndex"), "columnIndex": field.get("columnIndex"), "tableStartLocation": start}


def _range(field: dict[str, Any]) -> dict[str, Any]:
    return {"segmentId": _segment(field), "startIndex": field.get("startIndex"), "endIndex": field.get("endIndex")}


def _section(field: dict[str, Any]) -> dict[str, Any]:
    spot: dict[str, Any] = {"segmentId": _segment(field)}
    if field.get("locationChoice") == "location":
        spot["index"] = field.get("index")
    return {"type": "DEFAULT", "sectionBreakLocation": spot}


def request_body(field: dict[str, Any]) -> Any:
    """The body of one action (``None`` where n8n builds none, which keeps the previous action's, as in n8n)."""
    action, kind = field.get("action"), field.get("object")
    table: dict[tuple[Any, Any], Any] = {
        ("delete", "positionedObject"): lambda: {"objectId": field.get("objectId")},
        ("insert", "pageBreak"): lambda: _location(field),
        ("insert", "table"): lambda: {"rows": field.get("rows"), "columns": field.get("columns"), **_location(field)},
        ("create", "footer"): lambda: _section(field),
        ("delete", "footer"): lambda: {"footerId": field.get("footerId")},
        ("create", "header"): lambda: _section(field),
        ("delete", "header"): lambda: {"headerId": field.get("headerId")},
        ("insert", "tableColumn"): lambda: {"insertRight": field.get("insertPosition"),
                                            "tableCellLocation": _cell(field)},
        ("delete", "tableColumn"): lambda: {"tableCellLocation": _cell(field)},
        ("insert", "tableRow"): lambda: {"insertBelow": field.get("insertPosition"), "tableCellLocation": _cell(field)},
        ("delete", "tableRow"): lambda: {"tableCellLocation": _cell(field)},
        ("insert", "text"): lambda: {"text": field.get("text"), **_location(field)},
        ("replaceAll", "text"): lambda: {"replaceText": field.get("replaceText"), "containsText": {
            "text": field.get("text"), "matchCase": field.get("matchCase")}},
        ("create", "paragraphBullets"): lambda: {"bulletPreset": field.get("bulletPreset"), "range": _range(field)},
        ("delete", "paragraphBullets"): lambda: {"range": _range(field)},
        ("create", "namedRange"): lambda: {"name": field.get("name"), "range": _range(field)},
        ("delete", "namedRange"): lambda: {str(field.get("namedRangeReference")): field.get("value")},
    }  # fmt: skip
    build = table.get((action, kind))
    return build() if build else None


def requests(fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every action's request; an action n8n builds no body for repeats the previous body (none first: ``{}``)."""
    found: list[dict[str, Any]] = []
    body: Any = None
    for field in fields:
        built = request_body(field)
        body = built if built is not None else body
        kind = str(field.get("object") or "")
        name = f"{field.get('action')}{kind[:1].upper()}{kind[1:]}"
        found.append({name: _defined(body)} if body is not None else {})
    return found


def _defined(value: Any) -> Any:
    """What ``JSON.stringify`` keeps: entries whose value is undefined (a missing field, ``None`` here) dropped."""
    if isinstance(value, dict):
        return {k: _defined(v) for k, v in value.items() if v is not None}
    return value


__all__ = ["request_body", "requests"]
