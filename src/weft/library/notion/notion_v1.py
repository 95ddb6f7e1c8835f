"""Notion 1 (``n8n-nodes-base.notion`` 1, n8n's ``NotionV1``): the same resources with Notion-Version
``2021-05-13``, property names kept as they are in the simplified output (no ``name``/``url``), a select set by
its id, filters as a single condition or ``or``/``and`` lists, a limit as one page of that size. An error stops
the node (the engine applies "continue on fail")."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from weft.library.notion import ids
from weft.library.notion.api import Notion, segment
from weft.library.notion.blocks import extract_database_mentions, format_blocks, format_title
from weft.library.notion.properties import map_filter, map_properties, map_sorting
from weft.library.notion.simplify import simplify_objects
from weft.nodes.contract import ExecuteContext

Rows = Any
Handler = Callable[[ExecuteContext, Notion, int, str], Awaitable[Any]]


def _param(ctx: ExecuteContext, name: str, index: int, default: Any = None) -> Any:
    return ctx.get_node_parameter(name, index, default)


def _simple(ctx: ExecuteContext, found: Any, index: int, first_item: bool = False) -> Any:
    return simplify_objects(found, 1) if _param(ctx, "simple", 0 if first_item else index, True) else found


def _locator_text(ctx: ExecuteContext, name: str, index: int) -> str:
    return str(ctx.get_node_parameter(name, index, "", extract_value=True) or "")


async def _block_append(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    block = ids.extract_page_id(_locator_text(ctx, "blockId", index))
    values = list(_param(ctx, "blockUi.blockValues", index, []) or [])
    extract_database_mentions(values)
    return await notion.request("PATCH", f"/blocks/{segment(block)}/children", {"children": format_blocks(values)})


async def _block_get_all(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    path = f"/blocks/{segment(ids.extract_page_id(_locator_text(ctx, 'blockId', index)))}/children"
    if _param(ctx, "returnAll", index, False):
        return await notion.all_items("GET", path, {}, {}, index)
    page = await notion.request("GET", path, {}, {"page_size": _param(ctx, "limit", index, 50)}, index)
    return page["results"]


async def _database_get(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    database = ids.extract_resource_id(_locator_text(ctx, "databaseId", index))
    return await notion.request("GET", f"/databases/{segment(database)}", index=index)


async def _database_get_all(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    body: dict[str, Any] = {"filter": {"property": "object", "value": "database"}}
    if _param(ctx, "returnAll", index, False):
        return await notion.all_items("POST", "/search", body, {}, index)
    body["page_size"] = _param(ctx, "limit", index, 50)
    return (await notion.request("POST", "/search", body, index=index))["results"]


async def _database_page_create(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    body: dict[str, Any] = {"parent": {"database_id": ids.database_id(ctx, index)}, "properties": {}}
    values = _param(ctx, "propertiesUi.propertyValues", index, []) or []
    if values:
        body["properties"] = map_properties(ctx.node.name, values, tz)
    blocks = list(_param(ctx, "blockUi.blockValues", index, []) or [])
    extract_database_mentions(blocks)
    body["children"] = format_blocks(blocks)
    return _simple(ctx, await notion.request("POST", "/pages", body, index=index), index)


def _v1_filter(options_filter: dict[str, Any], tz: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if options_filter.get("singleCondition"):
        found = map_filter(options_filter["singleCondition"], tz)
    multiple = (options_filter.get("multipleCondition") or {}).get("condition") or {}
    for join in ("or", "and"):
        conditions = multiple.get(join)
        if isinstance(conditions, list) and conditions:
            found[join] = [map_filter(c, tz) for c in conditions]
    return found


async def _database_page_get_all(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    database = ids.database_id(ctx, index)
    body: dict[str, Any] = {"filter": _v1_filter(_param(ctx, "options.filter", index, {}) or {}, tz)}
    if not body["filter"]:
        del body["filter"]
    body["sorts"] = map_sorting(_param(ctx, "options.sort.sortValue", index, []) or [])
    path = f"/databases/{segment(database)}/query"
    if _param(ctx, "returnAll", index, False):
        found = await notion.all_items("POST", path, body, {}, index)
    else:
        body["page_size"] = _param(ctx, "limit", index, 50)
        found = (await notion.request("POST", path, body, index=index))["results"]
    return _simple(ctx, found, index, first_item=True)


async def _database_page_update(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    page = ids.extract_page_id(_locator_text(ctx, "pageId", index))
    values = _param(ctx, "propertiesUi.propertyValues", index, []) or []
    body = {"properties": map_properties(ctx.node.name, values, tz) if values else {}}
    return _simple(ctx, await notion.request("PATCH", f"/pages/{segment(page)}", body, index=index), index)


async def _user_get(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    return await notion.request("GET", f"/users/{segment(_param(ctx, 'userId', index, ''))}", index=index)


async def _user_get_all(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    found = await notion.all_items("GET", "/users", {}, {}, index)
    return found if _param(ctx, "returnAll", index, False) else found[: int(_param(ctx, "limit", index, 50))]


async def _page_create(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    body: dict[str, Any] = {"parent": {"page_id": ids.extract_page_id(_locator_text(ctx, "pageId", index))}}
    body["properties"] = format_title(_param(ctx, "title", index, ""))
    blocks = list(_param(ctx, "blockUi.blockValues", index, []) or [])
    extract_database_mentions(blocks)
    body["children"] = format_blocks(blocks)
    return _simple(ctx, await notion.request("POST", "/pages", body, index=index), index)


async def _page_get(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    page = ids.extract_page_id(str(_param(ctx, "pageId", index, "")))
    return _simple(ctx, await notion.request("GET", f"/pages/{segment(page)}", index=index), index)


async def _page_search(ctx: ExecuteContext, notion: Notion, index: int, tz: str) -> Any:
    body: dict[str, Any] = {}
    text = _param(ctx, "text", index, "")
    options = _param(ctx, "options", index, {}) or {}
    if text:
        body["query"] = text
    if options.get("filter"):
        body["filter"] = (options["filter"] or {}).get("filters") or []
    if options.get("sort"):
        body["sort"] = (options["sort"] or {}).get("sortValue") or {}
    found = await notion.all_items("POST", "/search", body, {}, index)
    if not _param(ctx, "returnAll", index, False):
        found = found[: int(_param(ctx, "limit", index, 50))]
    return _simple(ctx, found, index)


HANDLERS: dict[tuple[str, str], Handler] = {
    ("block", "append"): _block_append,
    ("block", "getAll"): _block_get_all,
    ("database", "get"): _database_get,
    ("database", "getAll"): _database_get_all,
    ("databasePage", "create"): _database_page_create,
    ("databasePage", "getAll"): _database_page_get_all,
    ("databasePage", "update"): _database_page_update,
    ("user", "get"): _user_get,
    ("user", "getAll"): _user_get_all,
    ("page", "create"): _page_create,
    ("page", "get"): _page_get,
    ("page", "search"): _page_search,
}
