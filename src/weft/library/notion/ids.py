"""Reading Notion ids from the node's parameters (ids, URLs, resource locators), as n8n's Notion helpers do."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext

_ID = "[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}"
_BASE = r"(?:https|http)://(?:www\.notion\.(?:so|com)|app\.notion\.com)/(?:p/)?(?:[a-z0-9-]{2,}/)?"
_PAGE_URL = re.compile(f"{_BASE}(?:[a-zA-Z0-9_-]{{1,}}-)?({_ID})")
_BLOCK_URL = re.compile(f"{_BASE}(?:[a-zA-Z0-9_-]{{2,}}-)?({_ID})")
_BLOCK_ANCHOR = re.compile(r"https://www\.notion\.so/.+\?pvs=[0-9]+#([a-f0-9]{2,})")


def extract_page_id(page: str = "") -> str:
    """``extractPageId``."""
    if "p=" in page:
        return page.split("p=")[1]
    if "-" in page and "https" in page:
        return page.split("-")[-1]
    return page


def extract_resource_id(resource: str) -> str:
    """``extractResourceId`` (a database id from its URL)."""
    if "?v=" in resource:
        return resource.split("?v=")[0].split("/")[-1]
    if "/" in resource:
        return resource.split("/")[-1]
    return resource


def page_id(ctx: ExecuteContext, index: int) -> str:
    """``getPageId``: the page id of the ``pageId`` locator (an id, or a page URL)."""
    page = ctx.get_node_parameter("pageId", index, {}) or {}
    found = ""
    value = page.get("value") if isinstance(page, dict) else page
    if isinstance(value, str) and value:
        if isinstance(page, dict) and page.get("mode") == "id":
            found = value
        elif "p=" in value:
            found = dict(parse_qsl(value)).get("p", "")
        else:
            match = _PAGE_URL.search(value)
            found = match.group(1) if match else ""
    if not found:
        raise NodeOperationError(ctx.node.name, f"Could not extract page ID from URL: {_js(value)}",
                                 description="Set 'Page' to the page's ID or its Notion URL.")  # fmt: skip
    return found


def _js(value: Any) -> str:
    return "undefined" if value is None else str(value)


def block_id(ctx: ExecuteContext, version: float, index: int) -> str:
    """``extractBlockId``: before 2.2 a plain value, from 2.2 a locator (an id, or a block or page URL)."""
    if version < 2.2:
        return extract_page_id(str(ctx.get_node_parameter("blockId", index, "", extract_value=True) or ""))
    data = ctx.get_node_parameter("blockId", index, {}) or {}
    if data.get("mode") == "id":
        return str(data.get("value"))
    value = str(data.get("value") or "")
    anchor = _BLOCK_ANCHOR.search(value)
    if anchor:
        return anchor.group(1)
    match = _BLOCK_URL.search(value)
    if match is None:
        raise NodeOperationError(ctx.node.name, "Invalid URL, could not find block ID or page ID", item_index=index,
                                 description="Set 'Block' to a block's ID or a Notion page or block URL.")  # fmt: skip
    return extract_page_id(match.group(1))


_DATABASE_URL = re.compile(f"{_BASE}({_ID})")


def database_id(ctx: ExecuteContext, index: int) -> str:
    """The ``databaseId`` locator's value; from a URL, the id in it (the locator's ``extractValue``)."""
    raw = ctx.get_node_parameter("databaseId", index, "", raw=False)
    value = str(ctx.get_node_parameter("databaseId", index, "", extract_value=True) or "")
    if isinstance(raw, dict) and raw.get("mode") == "url":
        match = _DATABASE_URL.search(value)
        return match.group(1) if match else value
    return value
