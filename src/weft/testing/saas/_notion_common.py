"""What every handler of the fake Notion API (:mod:`.notion`) shares: Bearer auth and the ``Notion-Version``
header, Notion's error bodies (``object_not_found``, 429 ``rate_limited`` for :data:`._notion_data.RATE_LIMITED`),
ids with or without dashes, cursor pages, the JSON body, rich text as Notion reads a write back, and the view of
the API of data sources (``Notion-Version`` 2025-09-03 on) over the seeded objects."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, json_error, require
from weft.testing.saas._notion_data import (
    DATA_SOURCE_VERSION,
    PAGE,
    RATE_LIMITED,
    SOURCE_OF,
    TOKEN,
    USERS,
    rich,
)


def read_text(given: dict[str, Any]) -> dict[str, Any]:
    """A rich text entry as Notion reads it back (plain text, annotations with their defaults)."""
    text = given.get("text") or {}
    entry = rich(str(text.get("content", "")), (text.get("link") or {}).get("url"))
    if given.get("type") == "mention":
        mention = dict(given.get("mention") or {})
        kind = mention.get("type")
        user = next((u for u in USERS if u["id"] == (mention.get(kind) or {}).get("id")), None)
        if kind == "user" and user is not None:
            mention["user"] = {"object": "user", "id": user["id"]}
        label = f"@{user['name']}" if user else f"@{kind}"
        entry = {**entry, "type": "mention", "mention": mention, "plain_text": label}
        entry.pop("text")
    entry["annotations"] = {**entry["annotations"], **(given.get("annotations") or {})}
    return entry


def error(status: int, code: str, message: str, **headers: str) -> ApiReply:
    body = {"object": "error", "status": status, "code": code, "message": message}
    return json_error(status, body, **headers)


def authorized(request: ApiRequest) -> None:
    token = request.headers.get("authorization", "").strip()
    require(token == f"Bearer {TOKEN}", error(401, "unauthorized", "API token is invalid."))
    missing = (
        "Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`."
    )
    require(bool(request.headers.get("notion-version")), error(400, "missing_version", missing))


def not_found(kind: str, object_id: str) -> ApiReply:
    if object_id == RATE_LIMITED:
        return error(429, "rate_limited", "You have been rate limited. Please try again in a few minutes.",
                     **{"Retry-After": "3"})  # fmt: skip
    message = (f"Could not find {kind} with ID: {object_id}. Make sure the relevant pages and databases are shared "
               "with your integration.")  # fmt: skip
    return error(404, "object_not_found", message)


def canonical(object_id: str) -> str:
    plain = object_id.replace("-", "").lower()
    if len(plain) == 32:
        return f"{plain[:8]}-{plain[8:12]}-{plain[12:16]}-{plain[16:20]}-{plain[20:]}"
    return object_id


def list_page(results: list[dict[str, Any]], cursor: Any, size: Any, kind: str) -> dict[str, Any]:
    """One cursor page (the cursor is the first result's id)."""
    ids = [r["id"] for r in results]
    start = ids.index(cursor) if cursor in ids else 0
    page_size = min(int(size or 100), PAGE)
    page = results[start : start + page_size]
    more = start + page_size < len(results)
    return {"object": "list", "results": page, "next_cursor": ids[start + page_size] if more else None,
            "has_more": more, "type": kind, kind: {}}  # fmt: skip


def request_body(request: ApiRequest) -> dict[str, Any]:
    require(request.body is None or isinstance(request.body, dict),
            error(400, "invalid_json", "Error parsing JSON body."))  # fmt: skip
    return request.body or {}


def title_of(obj: dict[str, Any]) -> str:
    if obj["object"] == "database":
        return "".join(t["plain_text"] for t in obj["title"])
    prop = next(p for p in obj["properties"].values() if p["type"] == "title")
    return "".join(t["plain_text"] for t in prop["title"])


def new_api(request: ApiRequest) -> bool:
    return request.headers.get("notion-version", "") >= DATA_SOURCE_VERSION


def database_with_sources(database: dict[str, Any]) -> dict[str, Any]:
    """A database as the API of data sources reads it: its data sources listed, no properties."""
    out = {k: v for k, v in database.items() if k != "properties"}
    name = title_of(database)
    return {**out, "data_sources": [{"id": SOURCE_OF[database["id"]], "name": name}], "is_locked": False,
            "public_url": None}  # fmt: skip


def data_source(database: dict[str, Any]) -> dict[str, Any]:
    """A database's data source (its properties, titled as the database)."""
    source = SOURCE_OF[database["id"]]
    keep = ("created_time", "last_edited_time", "created_by", "last_edited_by", "icon", "cover", "title",
            "description", "properties", "archived", "in_trash", "is_inline")  # fmt: skip
    return {"object": "data_source", "id": source, **{k: database[k] for k in keep},
            "parent": {"type": "database_id", "database_id": database["id"]}, "database_parent": database["parent"],
            "url": f"https://www.notion.so/{source.replace('-', '')}", "public_url": None}  # fmt: skip


def versioned(request: ApiRequest, found: Any) -> Any:
    """What the request's ``Notion-Version`` reads: under data sources a database page's parent is its data
    source and a block's text is ``rich_text``."""
    if not new_api(request):
        return found
    if isinstance(found, list):
        return [versioned(request, entry) for entry in found]
    if not isinstance(found, dict):
        return found
    if found.get("object") == "list":
        return {**found, "results": versioned(request, found["results"])}
    parent = found.get("parent") or {}
    if found.get("object") == "page" and parent.get("type") == "database_id":
        source = {"type": "data_source_id", "data_source_id": SOURCE_OF[parent["database_id"]]}
        return {**found, "parent": {**source, "database_id": parent["database_id"]}}
    if found.get("object") == "database":
        return data_source(found)
    kind = found.get("type")
    content = found.get(kind) if found.get("object") == "block" and isinstance(kind, str) else None
    if isinstance(content, dict) and "text" in content:
        content = {("rich_text" if k == "text" else k): v for k, v in content.items()}
        return {**found, str(kind): content}
    return found
