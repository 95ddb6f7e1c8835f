"""The Notion node 3 (n8n 2.41's default): Notion's API of ``2026-03-11``, where a database holds data sources and
pages live in a data source. Database pages are created in and queried from a data source
(``/data_sources/{id}/query``); a data source can be got and searched; databases are got; pages are created
(block builder, JSON blocks or Markdown), archived (``in_trash``), searched and read or edited as Markdown;
blocks are appended (optionally after a block) and listed; users are got. Each item fails on its own: its
error is the item's ``{"error": ...}`` under "continue", else the node's error naming the item."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from weft.errors import NodeError, NodeOperationError
from weft.expressions.session import DEFAULT_TIMEZONE
from weft.library.notion import ids
from weft.library.notion.api import Notion, segment
from weft.library.notion.blocks import extract_database_mentions, format_title, simplify_blocks
from weft.library.notion.blocks_v3 import format_blocks, normalize_blocks, normalize_properties
from weft.library.notion.filters_v3 import FilterError, map_filters
from weft.library.notion.properties import map_properties, map_sorting
from weft.library.notion.simplify import simplify_objects
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item, NodeOutput

Rows = list[dict[str, Any]]
Handler = Callable[[ExecuteContext, Notion, int], Awaitable[Any]]


async def execute(ctx: ExecuteContext, resource: str, operation: str) -> NodeOutput:
    """n8n's ``router``: the operation's handler over every item."""
    handler = HANDLERS.get((resource, operation))
    if handler is None:
        message = f'The operation "{operation}" is not supported for resource "{resource}"'
        raise NodeOperationError(ctx.node.name, message, description="Choose one of the Notion node's operations.")
    out: list[Item] = []
    async with ApiRequests(ctx) as api:
        notion = Notion(ctx, api)
        for index in range(len(ctx.get_input_data())):
            try:
                found = await handler(ctx, notion, index)
            except NodeError as error:
                if not ctx.continue_on_fail():
                    error.context.setdefault("itemIndex", index)
                    raise
                found = {"error": error.message}
            values = found if isinstance(found, list) else [found]
            out.extend(
                {"json": v if isinstance(v, dict) else {"json": v}, "pairedItem": {"item": index}} for v in values
            )
    return [out]


def _timezone(ctx: ExecuteContext) -> str:
    return str(ctx.workflow.settings.timezone or DEFAULT_TIMEZONE)


def _limit(ctx: ExecuteContext, index: int) -> int | None:
    if ctx.get_node_parameter("returnAll", index, False):
        return None
    return int(ctx.get_node_parameter("limit", index, 50)) or None


def _simple(ctx: ExecuteContext, index: int, found: Any, name: str = "simple") -> Any:
    return simplify_objects(found, 3) if ctx.get_node_parameter(name, index, True) else found


def _json(ctx: ExecuteContext, text: Any, index: int) -> Any:
    try:
        return json.loads(str(text))
    except ValueError:
        raise NodeOperationError(ctx.node.name, "JSON value must be valid JSON", item_index=index,
                                 description="Fix the JSON in 'Blocks (JSON)'.") from None  # fmt: skip


def _content(ctx: ExecuteContext, index: int) -> dict[str, Any]:
    """``getPageCreateContent``: the page's blocks from the builder, from JSON, or its Markdown."""
    kind = ctx.get_node_parameter("contentType", index, "blockUi")
    if kind == "json":
        text = ctx.get_node_parameter("blocksJson", index, "")
        parsed = _json(ctx, text, index) if text else []
        if not isinstance(parsed, list):
            message = "Blocks (JSON) must be an array of Notion block objects"
            fix = 'Give a JSON array such as [{"type": "paragraph", ...}].'
            raise NodeOperationError(ctx.node.name, message, item_index=index, description=fix)
        return {"children": [b for b in parsed if isinstance(b, dict)]}
    if kind == "markdown":
        return {"markdown": ctx.get_node_parameter("markdown", index, "")}
    values = normalize_blocks(list(ctx.get_node_parameter("blockUi.blockValues", index, []) or []))
    extract_database_mentions(values)
    return {"children": _blocks(ctx, values, index)}


def _blocks(ctx: ExecuteContext, values: list[dict[str, Any]], index: int) -> list[dict[str, Any]]:
    try:
        return format_blocks(values)
    except TypeError as error:
        raise NodeOperationError(ctx.node.name, str(error), item_index=index,
                                 description="Give each block's text as text.") from None  # fmt: skip


def _icon(ctx: ExecuteContext, index: int) -> dict[str, Any] | None:
    """``getIconFromOptions``: an http(s) URL is an external icon, anything else an emoji."""
    icon = (ctx.get_node_parameter("options", index, {}) or {}).get("icon")
    if not isinstance(icon, str) or icon == "":
        return None
    try:
        is_url = urlsplit(icon).scheme in ("http", "https") and bool(urlsplit(icon).netloc)
    except ValueError:
        is_url = False
    return {"type": "external", "external": {"url": icon}} if is_url else {"type": "emoji", "emoji": icon}


def _data_source_id(ctx: ExecuteContext, index: int) -> str:
    return str(ctx.get_node_parameter("dataSourceId", index, "", extract_value=True) or "")


async def _title_key(notion: Notion, data_source: str, index: int) -> str:
    found = await notion.request("GET", f"/data_sources/{segment(data_source)}", index=index)
    properties = found.get("properties") if isinstance(found, dict) else None
    if not isinstance(properties, dict):
        raise NodeOperationError(notion.ctx.node.name, "Notion did not return data source properties",
                                 item_index=index, description="Check the data source's ID.")  # fmt: skip
    return next((k for k, p in properties.items() if isinstance(p, dict) and p.get("type") == "title"), "")


def _required(ctx: ExecuteContext, message: str, index: int, fix: str) -> NodeOperationError:
    return NodeOperationError(ctx.node.name, message, item_index=index, description=fix)


async def _database_page_create(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    data_source = _data_source_id(ctx, index)
    if not data_source:
        raise _required(ctx, "DataSource ID is required to create a database page", index, "Choose a data source.")
    title = str(ctx.get_node_parameter("title", index, ""))
    if not title.strip():
        raise _required(ctx, "Title is required to create a database page", index, "Set 'Title'.")
    key = await _title_key(notion, data_source, index)
    properties: dict[str, Any] = {key: {"title": [{"text": {"content": title}}]}} if key else {}
    values = ctx.get_node_parameter("propertiesUi.propertyValues", index, []) or []
    if values:
        properties.update(map_properties(ctx.node.name, normalize_properties(values), _timezone(ctx), 3))
    parent = {"type": "data_source_id", "data_source_id": data_source}
    body = {"parent": parent, "properties": properties, **_content(ctx, index)}
    icon = _icon(ctx, index)
    if icon:
        body["icon"] = icon
    return _simple(ctx, index, await notion.request("POST", "/pages", body, index=index))


async def _database_page_get(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    _no_downloads(ctx, index)
    found = await notion.request("GET", f"/pages/{segment(ids.page_id(ctx, index))}", index=index)
    return _simple(ctx, index, found)


def _no_downloads(ctx: ExecuteContext, index: int) -> None:
    if ctx.get_node_parameter("options.downloadFiles", index, False):
        fix = "Turn 'Download Files' off and fetch the files' URLs with an HTTP Request node."
        raise NodeOperationError(ctx.node.name, "The option 'Download Files' is not supported yet", description=fix)


def _query_filter(ctx: ExecuteContext, index: int) -> Any:
    kind = ctx.get_node_parameter("filterType", index, "none")
    if kind == "manual":
        match = str(ctx.get_node_parameter("matchType", index, "anyFilter"))
        conditions = ctx.get_node_parameter("filters.conditions", index, []) or []
        try:
            return map_filters(conditions, match, _timezone(ctx))
        except FilterError as error:
            raise NodeOperationError(ctx.node.name, str(error), item_index=index,
                                     description="Choose a condition the property's type has.") from None  # fmt: skip
    if kind == "json":
        text = ctx.get_node_parameter("filterJson", index, "")
        try:
            return json.loads(str(text))
        except ValueError:
            raise NodeOperationError(ctx.node.name, "Filters (JSON) must be valid JSON", item_index=index,
                                     description="Fix the JSON in 'Filters (JSON)'.") from None  # fmt: skip
    return None


async def _database_page_get_all(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    data_source = _data_source_id(ctx, index)
    body: dict[str, Any] = {}
    found_filter = _query_filter(ctx, index)
    if _js_keys(found_filter):
        body["filter"] = found_filter
    sort = ctx.get_node_parameter("options.sort.sortValue", index, []) or []
    if sort:
        body["sorts"] = map_sorting(sort)
    limit = _limit(ctx, index)
    if limit:
        body["page_size"] = min(limit, 100)
    path = f"/data_sources/{segment(data_source)}/query"
    found = await notion.all_items("POST", path, body, {"limit": limit} if limit else {}, index)
    _no_downloads(ctx, index)
    return _simple(ctx, index, found)


def _js_keys(value: Any) -> bool:
    """Whether ``Object.keys(value ?? {})`` is non-empty (a string's characters, an array's entries)."""
    return isinstance(value, str | list | dict) and len(value) > 0


async def _database_page_update(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    values = normalize_properties(ctx.get_node_parameter("propertiesUi.propertyValues", index, []) or [])
    body: dict[str, Any] = {"properties": map_properties(ctx.node.name, values, _timezone(ctx), 3) if values else {}}
    icon = _icon(ctx, index)
    if icon:
        body["icon"] = icon
    page = ids.page_id(ctx, index)
    return _simple(ctx, index, await notion.request("PATCH", f"/pages/{segment(page)}", body, index=index))


async def _page_archive(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    page = ids.page_id(ctx, index)
    return _simple(
        ctx, index, await notion.request("PATCH", f"/pages/{segment(page)}", {"in_trash": True}, index=index)
    )


async def _page_create(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    body: dict[str, Any] = {"parent": {"page_id": ids.page_id(ctx, index)}}
    body["properties"] = format_title(ctx.get_node_parameter("title", index, ""))
    body.update(_content(ctx, index))
    icon = _icon(ctx, index)
    if icon:
        body["icon"] = icon
    return _simple(ctx, index, await notion.request("POST", "/pages", body, index=index))


async def _markdown(ctx: ExecuteContext, notion: Notion, index: int, target: str) -> Any:
    query = {"include_transcript": True} if ctx.get_node_parameter("includeTranscript", index, False) else {}
    return await notion.request("GET", f"/pages/{segment(target)}/markdown", qs=query, index=index)


async def _page_get_markdown(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    return await _markdown(ctx, notion, index, ids.page_id(ctx, index))


async def _page_update_markdown(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    kind = ctx.get_node_parameter("markdownUpdateType", index, "replace_content")
    if kind == "replace_content":
        body: dict[str, Any] = {"type": kind, kind: {"new_str": ctx.get_node_parameter("markdown", index, "")}}
    else:
        updates = [u for u in ctx.get_node_parameter("contentUpdates.updates", index, []) or [] if isinstance(u, dict)]
        changes = [_change(u) for u in updates]
        body = {"type": kind, "update_content": {"content_updates": changes}}
    page = ids.page_id(ctx, index)
    return await notion.request("PATCH", f"/pages/{segment(page)}/markdown", body, index=index)


def _change(update: dict[str, Any]) -> dict[str, Any]:
    every = {"replace_all_matches": True} if update.get("replaceAllMatches") else {}
    return {"old_str": update.get("oldString"), "new_str": update.get("newString"), **every}


def _search_sort(ctx: ExecuteContext, index: int) -> dict[str, Any] | None:
    sort = ctx.get_node_parameter("options.sort.sortValue", index, {})
    value = (sort[0] if sort else None) if isinstance(sort, list) else sort
    if not isinstance(value, dict):
        return None
    direction, timestamp = value.get("direction"), value.get("timestamp")
    if not isinstance(direction, str) or not isinstance(timestamp, str):
        return None
    return {"direction": direction, "timestamp": timestamp}


async def _search(ctx: ExecuteContext, notion: Notion, index: int, kind: str) -> list[Any]:
    body: dict[str, Any] = {"filter": {"property": "object", "value": kind}}
    text = ctx.get_node_parameter("text", index, "")
    if text:
        body["query"] = text
    sort = _search_sort(ctx, index)
    if sort:
        body["sort"] = sort
    limit = _limit(ctx, index)
    if limit:
        body["page_size"] = min(limit, 100)
    return await notion.all_items("POST", "/search", body, {"limit": limit} if limit else {}, index)


async def _page_search(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    return _simple(ctx, index, await _search(ctx, notion, index, "page"))


def flatten_data_sources(results: list[Any]) -> list[dict[str, Any]]:
    """``flattenDataSources``: data sources as they are; a database's data sources with its id and URL."""
    out: list[dict[str, Any]] = []
    for result in results:
        if result.get("object") == "data_source":
            out.append(result)
        elif isinstance(result.get("data_sources"), list):
            for source in result["data_sources"]:
                if isinstance(source, dict):
                    out.append({**source, "database_id": result.get("id"), **_url(result)})
    return out


def _url(result: dict[str, Any]) -> dict[str, Any]:
    return {"database_url": result["url"]} if "url" in result else {}


async def _data_source_search(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    return _simple(ctx, index, flatten_data_sources(await _search(ctx, notion, index, "data_source")))


async def _data_source_get(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    data_source = ids.extract_resource_id(_data_source_id(ctx, index))
    return _simple(ctx, index, await notion.request("GET", f"/data_sources/{segment(data_source)}", index=index))


async def _database_get(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    database = ids.database_id(ctx, index)
    return _simple(ctx, index, await notion.request("GET", f"/databases/{segment(database)}", index=index))


async def _block_append(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    block = ids.block_id(ctx, 3, index)
    raw = ctx.get_node_parameter("blockUi.blockValues", index, []) or []
    values = normalize_blocks([v for v in raw if isinstance(v, dict)] if isinstance(raw, list) else [])
    body: dict[str, Any] = {"children": _blocks(ctx, values, index)}
    after = ctx.get_node_parameter("afterBlockId", index, "")
    if after:
        body["position"] = {"type": "after_block", "after_block": {"id": after}}
    return await notion.request("PATCH", f"/blocks/{segment(block)}/children", body, index=index)


async def _block_get_markdown(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    return await _markdown(ctx, notion, index, ids.block_id(ctx, 3, index))


async def _block_get_all(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    block = ids.block_id(ctx, 3, index)
    limit = _limit(ctx, index)
    path = f"/blocks/{segment(block)}/children"
    found = await notion.all_items("GET", path, {}, {"page_size": min(limit, 100), "limit": limit} if limit else {},
                                   index)  # fmt: skip
    if ctx.get_node_parameter("fetchNestedBlocks", index, False):
        found = await _nested(notion, found, [], limit, index)
    if ctx.get_node_parameter("simplifyOutput", index, True):
        found = simplify_blocks(found, block)
    return found


async def _nested(notion: Notion, blocks: Rows, found: Rows, limit: int | None, index: int) -> Rows:
    """Version 3's ``fetchNestedBlocks``: each block, then its children, depth first, at most ``limit``."""
    for block in blocks:
        found.append(block)
        if limit and len(found) >= limit:
            return found[:limit]
        block_id = block.get("id")
        if not isinstance(block_id, str) or block.get("type") in ("child_page", "unsupported"):
            continue
        if not block.get("has_children"):
            continue
        children = await notion.all_items("GET", f"/blocks/{segment(block_id)}/children", {}, {}, index)
        await _nested(notion, [{"object": c.get("object"), "parent_id": block_id, **c} for c in children], found,
                      limit, index)  # fmt: skip
        if limit and len(found) >= limit:
            return found[:limit]
    return found


async def _user_get(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    user = ctx.get_node_parameter("userId", index, "")
    return await notion.request("GET", f"/users/{segment(user)}", index=index)


async def _user_get_all(ctx: ExecuteContext, notion: Notion, index: int) -> Any:
    limit = _limit(ctx, index)
    return await notion.all_items("GET", "/users", {}, {"limit": limit} if limit else {}, index)


HANDLERS: dict[tuple[str, str], Handler] = {
    ("block", "append"): _block_append,
    ("block", "getAll"): _block_get_all,
    ("block", "getMarkdown"): _block_get_markdown,
    ("dataSource", "get"): _data_source_get,
    ("dataSource", "search"): _data_source_search,
    ("database", "get"): _database_get,
    ("databasePage", "create"): _database_page_create,
    ("databasePage", "get"): _database_page_get,
    ("databasePage", "getAll"): _database_page_get_all,
    ("databasePage", "update"): _database_page_update,
    ("page", "archive"): _page_archive,
    ("page", "create"): _page_create,
    ("page", "getMarkdown"): _page_get_markdown,
    ("page", "search"): _page_search,
    ("page", "updateMarkdown"): _page_update_markdown,
    ("user", "get"): _user_get,
    ("user", "getAll"): _user_get_all,
}
