"""Pages of the fake Notion API (:mod:`.notion`): read one, create one in a database, a data source or under a
page, update one (properties, icon, the trash). It keeps no state: a written page is built from the request and
the seeded page or schema, its properties checked against the schema and answered in Notion's read format."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._notion_common import (
    authorized,
    canonical,
    error,
    not_found,
    read_text,
    request_body,
    title_of,
    versioned,
)
from weft.testing.saas._notion_data import (
    DATABASE_OF,
    DATABASES,
    OPTIONS,
    PAGES,
    TITLE_ONLY,
    USERS,
    make_id,
    page_object,
    page_url,
    select_option,
)


def get_page(request: ApiRequest) -> ApiReply:
    authorized(request)
    found = PAGES.get(canonical(request.params["id"]))
    return ApiReply(body=versioned(request, found)) if found else not_found("page", request.params["id"])


def _written(schema: dict[str, tuple[str, str]], properties: dict[str, Any]) -> dict[str, Any]:
    """The page properties a write sets, checked against the schema, in Notion's read format."""
    out: dict[str, Any] = {}
    for name, given in properties.items():
        require(name in schema, error(400, "validation_error", f"{name} is not a property that exists."))
        prop_id, kind = schema[name]
        if isinstance(given, list) and kind == "title":  # the short form of a page's title
            given = {"title": given}
        require(isinstance(given, dict) and kind in given, error(400, "validation_error",
                f"{name} is expected to be {kind}."))  # fmt: skip
        value = given[kind]
        if kind in ("title", "rich_text"):
            value = [read_text(t) for t in value]
        elif kind == "select":
            value = _select(name, value) if value else None
        elif kind == "multi_select":
            value = [select_option(name, option.get("name")) for option in value]
        elif kind == "people":
            value = [
                next((u for u in USERS if u["id"] == p.get("id")), {"object": "user", "id": p.get("id")}) for p in value
            ]
        elif kind == "date" and value is not None:
            value = {"start": value.get("start"), "end": value.get("end"), "time_zone": None}
        out[name] = {"id": prop_id, "type": kind, kind: value}
    return out


def _select(prop: str, given: dict[str, Any]) -> dict[str, Any]:
    """A select option by name, or by id (an unknown id is Notion's validation error)."""
    if "id" not in given:
        return select_option(prop, str(given.get("name")))
    found = next((select_option(prop, n) for n in OPTIONS[prop] if select_option(prop, n)["id"] == given["id"]), None)
    require(found is not None, error(400, "validation_error", f"Invalid select option id: {given['id']}."))
    assert found is not None
    return found


def create_page(request: ApiRequest) -> ApiReply:
    authorized(request)
    body = request_body(request)
    parent = body.get("parent") or {}
    new_id = make_id("9a9e0000", 900)
    if parent.get("data_source_id"):
        db_id = DATABASE_OF.get(canonical(str(parent["data_source_id"])), "")
        if not db_id:
            return not_found("data source", str(parent["data_source_id"]))
        parent = {"database_id": db_id}
    if parent.get("database_id"):
        db_id = canonical(str(parent["database_id"]))
        if db_id not in DATABASES:
            return not_found("database", str(parent["database_id"]))
        schema = {n: (p["id"], p["type"]) for n, p in DATABASES[db_id]["properties"].items()}
        page = page_object(new_id, {"type": "database_id", "database_id": db_id}, {}, schema)
    else:
        page_id = canonical(str(parent.get("page_id") or ""))
        if page_id not in PAGES:
            return not_found("page", str(parent.get("page_id")))
        schema = TITLE_ONLY
        page = page_object(new_id, {"type": "page_id", "page_id": page_id}, {}, schema)
    page["properties"].update(_written(schema, body.get("properties") or {}))
    page["created_time"] = page["last_edited_time"] = "2024-06-01T09:00:00.000Z"
    page["url"] = page_url(title_of(page), new_id)
    if body.get("icon"):
        icon = body["icon"]
        page["icon"] = {"type": "emoji", **icon} if "emoji" in icon else {"type": "external", **icon}
    return ApiReply(body=versioned(request, page))


def update_page(request: ApiRequest) -> ApiReply:
    authorized(request)
    page_id = canonical(request.params["id"])
    if page_id not in PAGES:
        return not_found("page", request.params["id"])
    body = request_body(request)
    page = {**PAGES[page_id], "properties": dict(PAGES[page_id]["properties"])}
    db_id = page["parent"].get("database_id")
    schema = {n: (p["id"], p["type"]) for n, p in DATABASES[db_id]["properties"].items()} if db_id else TITLE_ONLY
    page["properties"].update(_written(schema, body.get("properties") or {}))
    for key in ("archived", "in_trash"):
        if key in body:
            page["archived"] = page["in_trash"] = bool(body[key])
    if body.get("icon"):
        page["icon"] = body["icon"]
    page["last_edited_time"] = "2024-06-02T09:00:00.000Z"
    return ApiReply(body=versioned(request, page))
