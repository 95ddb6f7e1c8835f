"""n8n's "Simplify" output of the Notion node (``simplifyObjects``, ``simplifyProperties``): pages as ``id``,
``name``, ``url`` and one ``property_<snake_case name>`` per property, databases as ``id``, ``name``, ``url``."""

from __future__ import annotations

import re
from typing import Any

_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])|[0-9]+")


def snake_case(value: str) -> str:
    """change-case's ``snakeCase`` of an ASCII-folded name (``Due Date`` → ``due_date``)."""
    folded = re.sub(r"[^\x20-\x7E]", " ", value)
    words = []
    for chunk in re.split(r"[^A-Za-z0-9]+", folded):
        words.extend(_WORDS.findall(re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", chunk)))
    return "_".join(word.lower() for word in words)


def _simplify(prop: dict[str, Any]) -> Any:
    kind = prop.get("type")
    value = prop.get(kind) if isinstance(kind, str) else None
    if kind == "text":
        return prop.get("plain_text")
    if kind in ("rich_text", "title"):
        return "".join(str(_simplify(t)) for t in value) if isinstance(value, list) and value else ""
    if kind in ("url", "created_time", "checkbox", "number", "last_edited_time", "email", "phone_number", "date"):
        return value
    if kind in ("created_by", "last_edited_by", "select"):
        return value.get("name") if value else None
    if kind == "people":
        return [(p.get("person") or {}).get("email") or {} for p in value] if isinstance(value, list) else value
    if kind == "multi_select":
        options = value if isinstance(value, list) else (value or {}).get("options") or []
        return [(o or {}).get("name") or {} for o in options]
    if kind == "relation":
        return (
            [(r or {}).get("id") or {} for r in value] if isinstance(value, list) else (value or {}).get("database_id")
        )
    if kind == "formula":
        return (value or {}).get((value or {}).get("type"))
    if kind == "rollup":
        return _rollup(value or {})
    if kind == "files":
        return [(f.get(f.get("type")) or {}).get("url") for f in value or []]
    if kind == "status":
        return (value or {}).get("name")
    return None


def _rollup(value: dict[str, Any]) -> Any:
    function = str(value.get("function"))
    if function.startswith("count") or "empty" in function:
        number = value.get("number")
        return number * 100 if "percent" in function and isinstance(number, int | float) else number
    if function.startswith("show") and value.get("type") == "array":
        elements: list[Any] = []
        for entry in value.get("array") or []:
            simple = _simplify(entry)
            elements.extend(simple if isinstance(simple, list) else [simple])
        return list(dict.fromkeys(elements)) if function == "show_unique" else elements
    return None


def snake_case_v5(value: str) -> str:
    """change-case 5's ``snakeCase`` (letters of every script kept): the Notion node 3's property keys."""
    marked = []
    for at, char in enumerate(value):
        before = value[at - 1] if at else ""
        after = value[at + 1] if at + 1 < len(value) else ""
        if char.isupper() and (before.islower() or before.isdigit() or (before.isupper() and after.islower())):
            marked.append("\0")
        marked.append(char)
    return "_".join(word.lower() for word in re.split(r"[\W_\0]+", "".join(marked)) if word)


def simplify_properties(properties: dict[str, Any]) -> dict[str, Any]:
    return {key: _simplify(prop) for key, prop in properties.items()}


def _title(properties: dict[str, Any]) -> str:
    title = next(p for p in properties.values() if p.get("type") == "title")["title"]
    return str(title[0].get("plain_text") or "") if title else ""


def _prepend(properties: dict[str, Any], version: float) -> dict[str, Any]:
    to_key = snake_case_v5 if version >= 3 else snake_case
    return {f"property_{to_key(key)}": value for key, value in properties.items()}


def simplify_objects(objects: Any, version: float = 2) -> list[dict[str, Any]]:
    """``simplifyObjects`` (without downloaded files); 3 keeps non-ASCII letters in keys, simplifies data sources."""
    rows = objects if isinstance(objects, list) else [objects]
    results: list[dict[str, Any]] = []
    v2 = version > 1
    for obj in rows:
        kind, properties = obj.get("object"), obj.get("properties")
        parent = obj.get("parent") or {}
        if kind == "page" and parent.get("type") in ("page_id", "workspace"):
            name = properties["title"]["title"][0]["plain_text"]
            results.append({"id": obj.get("id"), "name": name, **({"url": obj.get("url")} if v2 else {})})
        elif kind == "page":
            simple = simplify_properties(properties)
            if v2:
                results.append({"id": obj.get("id"), "name": _title(properties), "url": obj.get("url"),
                                **_prepend(simple, version)})  # fmt: skip
            else:
                results.append({"id": obj.get("id"), **simple})
        elif kind == "database":
            title = obj.get("title") or []
            name = (title[0].get("plain_text") if title else "") or ""
            results.append({"id": obj.get("id"), **({"name": name, "url": obj.get("url")} if v2 else {"title": name})})
        elif kind == "data_source":
            results.append(_data_source(obj))
    return results


def _data_source(obj: dict[str, Any]) -> dict[str, Any]:
    """``{id, name: name ?? title[0].plain_text ?? "", url}``; an absent url is left out, as JSON drops undefined."""
    name = obj.get("name")
    if name is None:
        title = obj.get("title")
        first = title[0] if isinstance(title, list) and title else {}
        name = first.get("plain_text") if isinstance(first, dict) else None
    out = {"id": obj.get("id"), "name": "" if name is None else name}
    if "url" in obj:
        out["url"] = obj["url"]
    return out
