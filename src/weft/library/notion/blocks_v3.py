"""Blocks, rich text and property values as the Notion node 3 writes them (n8n's v3 ``formatBlocks``,
``formatRichText``, ``normalizeBlockValues``, ``normalizePropertyValues``): block text goes in ``rich_text``."""

from __future__ import annotations

from typing import Any


def _js_type(value: Any) -> str:
    if value is None:
        return "object"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "object" if isinstance(value, dict | list) else type(value).__name__


def parse_text(value: Any) -> str:
    """``parseText``: text, or a number or boolean as JavaScript writes it; anything else is refused."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    raise TypeError(f"Text value must be a string, number, or boolean. Received: {_js_type(value)}")


def _annotations(entry: dict[str, Any]) -> dict[str, Any]:
    return {"annotations": entry["annotationUi"]} if isinstance(entry.get("annotationUi"), dict) else {}


def _link(entry: dict[str, Any]) -> dict[str, Any]:
    link = entry.get("textLink")
    return {"link": {"url": link}} if entry.get("isLink") is True and isinstance(link, str) and link else {}


def _mention(entry: dict[str, Any]) -> dict[str, Any] | None:
    kind = entry.get("mentionType")
    if not isinstance(kind, str):
        return None
    if kind == "date":
        date = ({"start": entry.get("dateStart"), "end": entry.get("dateEnd")} if entry.get("range") is True
                else {"start": entry.get("date"), "end": None})  # fmt: skip
        return {"type": "mention", "mention": {"type": "date", "date": date}, **_annotations(entry)}
    value = entry.get(kind)
    found = value if isinstance(value, str) else value.get("value") if isinstance(value, dict) else None
    if not isinstance(found, str) or not found:
        return None
    return {"type": "mention", "mention": {"type": kind, kind: {"id": found}}, **_annotations(entry)}


def rich_text(values: Any) -> list[dict[str, Any]]:
    """``formatRichText``."""
    out: list[dict[str, Any]] = []
    for entry in values if isinstance(values, list) else []:
        if not isinstance(entry, dict):
            continue
        kind = entry.get("textType")
        if kind == "text":
            text = {"content": parse_text(entry.get("text")), **_link(entry)}
            out.append({"type": "text", "text": text, **_annotations(entry)})
        elif kind == "mention":
            mention = _mention(entry)
            if mention:
                out.append(mention)
        elif kind == "equation":
            equation = {"expression": parse_text(entry.get("expression"))}
            out.append({"type": "equation", "equation": equation, **_annotations(entry)})
    return out


def _text(block: dict[str, Any]) -> list[dict[str, Any]]:
    if block.get("richText") is True and isinstance(block.get("text"), dict):
        return rich_text(block["text"].get("text"))
    return [{"text": {"content": parse_text(block.get("textContent", ""))}}]


def format_blocks(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The block builder's values as Notion blocks (a block without a type is left out)."""
    out: list[dict[str, Any]] = []
    for block in values:
        kind = block.get("type")
        if not isinstance(kind, str):
            continue
        body: dict[str, Any] = {}
        if kind == "to_do":
            if "checked" in block:
                body["checked"] = block["checked"]
            body["rich_text"] = _text(block)
        elif kind == "child_page":
            if "title" in block:
                body["title"] = block["title"]
        elif kind == "image":
            body = {"type": "external", "external": {"url": block.get("url")}}
        else:
            body["rich_text"] = _text(block)
        out.append({"object": "block", "type": kind, kind: body})
    return out


def normalize_blocks(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``normalizeBlockValues``: a block with plain text is not rich text."""
    return [{**v, "richText": False} if isinstance(v.get("textContent"), str) else v for v in values]


def normalize_properties(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``normalizePropertyValues``: plain text is not rich text; a date's range, time and zone get defaults and
    only the shown date fields stay."""
    out = []
    for value in values:
        value = dict(value)
        if isinstance(value.get("textContent"), str):
            value["richText"] = False
        key = value.get("key")
        if value.get("type") == "date" or (isinstance(key, str) and key.endswith("|date")):
            for name, default in (("range", False), ("includeTime", True), ("timezone", "default")):
                if value.get(name) is None:
                    value[name] = default
            for name in ("date",) if value["range"] else ("dateStart", "dateEnd"):
                value.pop(name, None)
        out.append(value)
    return out
