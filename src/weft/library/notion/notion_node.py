"""Notion (``n8n-nodes-base.notion`` 1, 2, 2.1, 2.2, 3; 1 in :mod:`weft.library.notion.notion_v1`, 3 in
:mod:`weft.library.notion.notion_v3`): databases (get,
get many, search), database pages (create with every common property type, get, get many with manual or JSON
filters and sorts, update), pages (archive, create, search; get in 1), blocks (append, get many with nested
blocks) and users (get, get many). Version 3 (n8n 2.41's default) speaks Notion's API of data sources.

Requests go to ``https://api.notion.com/v1`` with the ``notionApi`` credential's secret as a Bearer token and
the ``Notion-Version`` n8n sends (``2021-08-16``); lists follow ``next_cursor`` while ``has_more``. "Simplify"
gives n8n's short form (``id``, ``name``, ``url``, ``property_<name>``). A Notion error fails the item with n8n's
message (the status's), Notion's own message as the description; under "continue" the item's output is
``{"error": <message>}``.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeError, NodeOperationError
from weft.expressions.session import DEFAULT_TIMEZONE
from weft.library.notion import ids, notion_v1, notion_v3
from weft.library.notion.api import Notion, segment
from weft.library.notion.blocks import extract_database_mentions, format_blocks, format_title, simplify_blocks
from weft.library.notion.properties import map_filter, map_properties, map_sorting
from weft.library.notion.simplify import simplify_objects
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

Rows = list[dict[str, Any]]


class NotionNode(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.notion",
        display_name="Notion",
        versions=(1, 2, 2.1, 2.2, 3),
        description="Consume Notion API",
        group=("output",),
        usable_as_tool=True,
        credentials=("notionApi", "notionOAuth2Api"),
        defaults={
            "resource": "page",
            "operation": "get",
            "simple": True,
            "returnAll": False,
            "limit": 50,
            "options": {},
            "text": "",
            "title": "",
            "filterType": "none",
            "matchType": "anyFilter",
            "fetchNestedBlocks": False,
            "simplifyOutput": True,
            "userId": "",
        },
    )
    #: n8n marks 2.x and 3 ``usableAsTool``, not 1.
    tool_versions: ClassVar[tuple[float, ...]] = (2, 2.1, 2.2, 3)
    parameter_order: ClassVar[tuple[str, ...]] = (
        *("resource", "operation", "blockId", "databaseId", "pageId", "userId", "title", "text", "simple"),
        *("propertiesUi", "blockUi", "returnAll", "limit", "filterType", "matchType", "filters", "filterJson"),
        *("fetchNestedBlocks", "simplifyOutput", "options"),
        *("authentication", "dataSourceId", "afterBlockId", "contentType", "blocksJson", "markdown"),
        *("markdownUpdateType", "contentUpdates", "includeTranscript"),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        resource = str(ctx.get_node_parameter("resource", 0, "page"))
        operation = str(ctx.get_node_parameter("operation", 0, "get"))
        if ctx.node.typeVersion < 2:
            return await _execute_v1(ctx, resource, operation)
        if ctx.node.typeVersion >= 3:
            return await notion_v3.execute(ctx, resource, operation)
        handler = _HANDLERS.get((resource, operation))
        if handler is None:
            raise _unsupported(ctx, resource, operation)
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            notion = Notion(ctx, api)
            state: dict[str, Any] = {}
            for index in range(len(ctx.get_input_data())):
                try:
                    rows = await handler(ctx, notion, index, state)
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        error.context.setdefault("itemIndex", index)
                        raise
                    rows = [{"error": error.message}]
                out.extend({"json": row, "pairedItem": {"item": index}} for row in rows)
        return [out]


def _unsupported(ctx: ExecuteContext, resource: str, operation: str) -> NodeOperationError:
    message = f'The operation "{operation}" of "{resource}" is not supported in version {ctx.node.typeVersion:g}'
    return NodeOperationError(ctx.node.name, message, description="Choose one of the Notion node's operations.")


async def _execute_v1(ctx: ExecuteContext, resource: str, operation: str) -> NodeOutput:
    handler = notion_v1.HANDLERS.get((resource, operation))
    if handler is None:
        raise _unsupported(ctx, resource, operation)
    out: list[Item] = []
    async with ApiRequests(ctx) as api:
        notion = Notion(ctx, api)
        for index in range(len(ctx.get_input_data())):
            found = await handler(ctx, notion, index, _timezone(ctx))
            out.extend({"json": row, "pairedItem": {"item": index}} for row in _rows(found))
    return [out]


def _rows(value: Any) -> Rows:
    """n8n's ``returnJsonArray``."""
    values = value if isinstance(value, list) else [value]
    return [v if isinstance(v, dict) else {"json": v} for v in values]


def _timezone(ctx: ExecuteContext) -> str:
    return str(ctx.workflow.settings.timezone or DEFAULT_TIMEZONE)


def _limited(ctx: ExecuteContext, index: int) -> int | None:
    return (
        None if ctx.get_node_parameter("returnAll", index, False) else int(ctx.get_node_parameter("limit", index, 50))
    )


async def _block_append(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    block = ids.block_id(ctx, ctx.node.typeVersion, index)
    values = list(ctx.get_node_parameter("blockUi.blockValues", index, []) or [])
    extract_database_mentions(values)
    body = {"children": format_blocks(values)}
    return _rows(await notion.request("PATCH", f"/blocks/{segment(block)}/children", body, index=index))


async def _block_get_all(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    block = ids.block_id(ctx, ctx.node.typeVersion, index)
    nested = ctx.get_node_parameter("fetchNestedBlocks", index, False)
    path = f"/blocks/{segment(block)}/children"
    limit = _limited(ctx, index)
    query = {} if limit is None else {"page_size": min(limit, 100), "limit": limit}
    found = await notion.all_items("GET", path, {}, query, index)
    if nested:
        found = await notion.with_children(found, [], limit, index)
    found = [{"object": b.get("object"), "parent_id": block, **b} for b in found]
    if ctx.node.typeVersion > 2 and ctx.get_node_parameter("simplifyOutput", index, True):
        found = simplify_blocks(found, block)
    return _rows(found)


async def _database_get(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    database = ids.extract_resource_id(ids.database_id(ctx, index))
    found = await notion.request("GET", f"/databases/{segment(database)}", index=index)
    if ctx.get_node_parameter("simple", 0, True):
        found = simplify_objects(found)[0]
    return _rows(found)


async def _search(ctx: ExecuteContext, notion: Notion, index: int, body: dict[str, Any], limit_first: bool) -> Any:
    limit = _limited(ctx, index)
    if limit is not None and limit_first:
        body["page_size"] = min(limit, 100)
        return await notion.all_items("POST", "/search", body, {"limit": limit}, index)
    found = await notion.all_items("POST", "/search", body, {}, index)
    return found if limit is None else found[:limit]


async def _database_get_all(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    found = await _search(ctx, notion, index, {"filter": {"property": "object", "value": "database"}}, True)
    return _rows(simplify_objects(found) if ctx.get_node_parameter("simple", 0, True) else found)


async def _database_search(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    body: dict[str, Any] = {"filter": {"property": "object", "value": "database"}}
    _search_options(ctx, index, body, with_filter=False)
    found = await _search(ctx, notion, index, body, False)
    return _rows(simplify_objects(found) if ctx.get_node_parameter("simple", index, True) else found)


def _search_options(ctx: ExecuteContext, index: int, body: dict[str, Any], *, with_filter: bool) -> None:
    text = ctx.get_node_parameter("text", index, "")
    options = ctx.get_node_parameter("options", index, {}) or {}
    if text:
        body["query"] = text
    if with_filter and options.get("filter"):
        body["filter"] = (options["filter"] or {}).get("filters") or []
    if options.get("sort"):
        body["sort"] = (options["sort"] or {}).get("sortValue") or {}


def _icon(options: dict[str, Any], typed: bool) -> dict[str, Any] | None:
    if not options.get("icon"):
        return None
    if options.get("iconType") == "file":
        external = {"external": {"url": options["icon"]}}
        return {"type": "external", **external} if typed else external
    return {"type": "emoji", "emoji": options["icon"]} if typed else {"emoji": options["icon"]}


async def _page_create_in_database(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    if "title_key" not in state:  # n8n reads the database once, for item 0's database
        database = ids.database_id(ctx, 0)
        found = await notion.request("GET", f"/databases/{segment(database)}", index=0)
        state["title_key"] = next((k for k, p in reversed(found["properties"].items()) if p["type"] == "title"), "")
    title = ctx.get_node_parameter("title", index, "")
    body: dict[str, Any] = {"parent": {}, "properties": {}}
    if title != "":
        body["properties"][state["title_key"]] = {"title": [{"text": {"content": title}}]}
    body["parent"]["database_id"] = ids.database_id(ctx, index)
    values = ctx.get_node_parameter("propertiesUi.propertyValues", index, []) or []
    if values:
        body["properties"].update(map_properties(ctx.node.name, values, _timezone(ctx), 2))
    blocks = list(ctx.get_node_parameter("blockUi.blockValues", index, []) or [])
    extract_database_mentions(blocks)
    body["children"] = format_blocks(blocks)
    icon = _icon(ctx.get_node_parameter("options", index, {}) or {}, typed=False)
    if icon:
        body["icon"] = icon
    found = await notion.request("POST", "/pages", body, index=index)
    return _rows(simplify_objects(found) if ctx.get_node_parameter("simple", index, True) else found)


async def _page_get(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    page = ids.page_id(ctx, index)
    simple = ctx.get_node_parameter("simple", index, True)
    found = await notion.request("GET", f"/pages/{segment(page)}", index=index)
    return _rows(simplify_objects(found) if simple else found)


async def _database_page_get_all(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    if ctx.get_node_parameter("options.downloadFiles", 0, False):
        fix = "Turn 'Download Files' off and fetch the files' URLs with an HTTP Request node."
        raise NodeOperationError(ctx.node.name, "The option 'Download Files' is not supported yet", description=fix)
    simple = ctx.get_node_parameter("simple", 0, True)
    database = ids.database_id(ctx, index)
    body: dict[str, Any] = {"filter": {}}
    filter_type = ctx.get_node_parameter("filterType", 0, "none")
    if filter_type == "manual":
        conditions = ctx.get_node_parameter("filters.conditions", index, []) or []
        match = ctx.get_node_parameter("matchType", 0, "anyFilter")
        mapped = [map_filter(c, _timezone(ctx)) for c in conditions]
        if match in ("anyFilter", "allFilters"):
            body["filter"]["or" if match == "anyFilter" else "and"] = mapped
    elif filter_type == "json":
        text = ctx.get_node_parameter("filterJson", index, "")
        try:
            body["filter"] = json.loads(str(text))
        except ValueError:
            raise NodeApiError(ctx.node.name, "Filters (JSON) must be a valid json", item_index=index) from None
    if not body["filter"]:
        del body["filter"]
    sort = ctx.get_node_parameter("options.sort.sortValue", index, []) or []
    if sort:
        body["sorts"] = map_sorting(sort)
    limit = _limited(ctx, index)
    path = f"/databases/{segment(database)}/query"
    if limit is not None:
        body["page_size"] = min(limit, 100)
    found = await notion.all_items("POST", path, body, {} if limit is None else {"limit": limit}, index)
    return _rows(simplify_objects(found) if simple else found)


async def _database_page_update(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    page = ids.page_id(ctx, index)
    simple = ctx.get_node_parameter("simple", index, True)
    values = ctx.get_node_parameter("propertiesUi.propertyValues", index, []) or []
    body: dict[str, Any] = {"properties": {}}
    if values:
        body["properties"] = map_properties(ctx.node.name, values, _timezone(ctx), 2)
    icon = _icon(ctx.get_node_parameter("options", index, {}) or {}, typed=True)
    if icon:
        body["icon"] = icon
    found = await notion.request("PATCH", f"/pages/{segment(page)}", body, index=index)
    return _rows(simplify_objects(found) if simple else found)


async def _user_get(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    user = ctx.get_node_parameter("userId", index, "")
    return _rows(await notion.request("GET", f"/users/{segment(user)}", index=index))


async def _user_get_all(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    limit = _limited(ctx, index)
    found = await notion.all_items("GET", "/users", {}, {}, index)
    return _rows(found if limit is None else found[:limit])


async def _page_archive(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    page = ids.page_id(ctx, index)
    simple = ctx.get_node_parameter("simple", index, True)
    found = await notion.request("PATCH", f"/pages/{segment(page)}", {"archived": True}, index=index)
    return _rows(simplify_objects(found) if simple else found)


async def _page_create(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    simple = ctx.get_node_parameter("simple", index, True)
    body: dict[str, Any] = {"parent": {"page_id": ids.page_id(ctx, index)}}
    body["properties"] = format_title(ctx.get_node_parameter("title", index, ""))
    blocks = list(ctx.get_node_parameter("blockUi.blockValues", index, []) or [])
    extract_database_mentions(blocks)
    body["children"] = format_blocks(blocks)
    icon = _icon(ctx.get_node_parameter("options", index, {}) or {}, typed=False)
    if icon:
        body["icon"] = icon
    found = await notion.request("POST", "/pages", body, index=index)
    return _rows(simplify_objects(found) if simple else found)


async def _page_search(ctx: ExecuteContext, notion: Notion, index: int, state: dict[str, Any]) -> Rows:
    body: dict[str, Any] = {}
    _search_options(ctx, index, body, with_filter=True)
    found = await _search(ctx, notion, index, body, False)
    return _rows(simplify_objects(found) if ctx.get_node_parameter("simple", index, True) else found)


_HANDLERS = {
    ("block", "append"): _block_append,
    ("block", "getAll"): _block_get_all,
    ("database", "get"): _database_get,
    ("database", "getAll"): _database_get_all,
    ("database", "search"): _database_search,
    ("databasePage", "create"): _page_create_in_database,
    ("databasePage", "get"): _page_get,
    ("databasePage", "getAll"): _database_page_get_all,
    ("databasePage", "update"): _database_page_update,
    ("user", "get"): _user_get,
    ("user", "getAll"): _user_get_all,
    ("page", "archive"): _page_archive,
    ("page", "create"): _page_create,
    ("page", "search"): _page_search,
}
