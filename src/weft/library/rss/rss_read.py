"""RSS Read (``n8n-nodes-base.rssFeedRead`` 1, 1.1, 1.2): reads a feed URL and outputs one item per feed item,
shaped as rss-parser shapes them (:mod:`weft.library.rss._rss_parser`; recorded: cases n537-n542).

1 reads the URL of the first input item only (its items paired with every input item); 1.1 reads one feed per
input item; 1.2 also asks for Atom, RDF and XML feeds in its ``Accept`` header. The request goes through the HTTP
Request node's client (``http_request._send``); ``ignoreSSL`` skips certificate checks.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import httpx

from weft.errors import NodeError, NodeOperationError
from weft.library.rss._rss_parser import FeedError, parse_feed_items
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.http import transfer as http
from weft.nodes.http.clients import new_client
from weft.nodes.http.errors import HttpRequestError
from weft.nodes.values import js_string
from weft.nodes.xml.sax_tags import SaxError
from weft.nodes.xml.xml2js import THREAD_THRESHOLD
from weft.workflow import Item, NodeOutput

_ACCEPT = "application/rss+xml"
_RELAXED_ACCEPT = (
    "application/rss+xml, application/rdf+xml;q=0.8, application/atom+xml;q=0.6, application/xml;q=0.4, text/xml;q=0.4"
)
_TIMEOUT_MS = 60_000


class RssFeedRead(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.rssFeedRead",
        display_name="RSS Read",
        versions=(1, 1.1, 1.2),
        description="Reads data from an RSS Feed",
        group=("input",),
        usable_as_tool=True,
        defaults={"url": "", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        items = ctx.get_input_data()
        count = len(items) if version >= 1.1 else min(len(items), 1)
        fallback = None if version >= 1.1 else [{"item": i} for i in range(len(items))]
        out: list[Item] = []
        for index in range(count):
            paired: Any = fallback if fallback is not None else [{"item": index}]
            try:
                feed_items = await _read(ctx, index, version)
                out.extend({"json": row, "pairedItem": paired} for row in feed_items)
            except NodeError as error:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": error.message}, "pairedItem": paired})
        return [out]


async def _read(ctx: ExecuteContext, index: int, version: float) -> list[dict[str, Any]]:
    url = ctx.get_node_parameter("url", index, "")
    options = ctx.get_node_parameter("options", index, {}) or {}
    if not url:
        raise _error(ctx, index, 'The parameter "URL" has to be set!', "Set the feed's URL.")
    url = js_string(url)
    if not _valid_url(url):
        raise _error(ctx, index, 'The provided "URL" is not valid!', f"{url!r} is not an absolute URL.")
    return await read_feed(ctx, index, url, options, relaxed_accept=version >= 1.2)


async def read_feed(
    ctx: ExecuteContext, index: int, url: str, options: dict[str, Any], *, relaxed_accept: bool
) -> list[dict[str, Any]]:
    """The feed's items as rss-parser gives them (n8n's ``parseFeedUrl``), or a node error."""
    headers = {"User-Agent": "rss-parser", "Accept": _RELAXED_ACCEPT if relaxed_accept else _ACCEPT}
    request = http.Request(
        method="GET", url=url, headers=headers, timeout_ms=_TIMEOUT_MS, response={"neverError": True}
    )
    verify = not options.get("ignoreSSL")
    try:
        async with new_client(verify) as client:
            _, response = await http.send(ctx, index, client, request)
    except HttpRequestError as error:
        if error.code == "ECONNREFUSED":
            message = f'It was not possible to connect to the URL. Please make sure the URL "{url}" it is valid!'
            raise _error(ctx, index, message, "Check that the feed's server is running.") from None
        raise _error(ctx, index, error.message, error.description) from None
    if not 200 <= response.status_code < 300:  # n8n 2.41's request helper (2.8.4's rss-parser: "Status code 404")
        message = f"Request failed with status code {response.status_code}"
        raise _error(ctx, index, message, f"The feed's server answered {url!r} with an error.")
    custom = str(options.get("customFields") or "")
    fields = [field.strip() for field in custom.split(",")] if custom else []
    try:
        text = response.text
        if len(text) > THREAD_THRESHOLD:  # a long feed is read in a worker thread, the event loop serving meanwhile
            return await asyncio.to_thread(parse_feed_items, text, fields)
        return parse_feed_items(text, fields)
    except (SaxError, FeedError) as error:
        raise _error(ctx, index, str(error), "The URL does not answer with an RSS or Atom feed.") from None


def _valid_url(url: str) -> bool:
    """``new URL(url)`` succeeds: a scheme, and for the usual network schemes a host."""
    try:
        parts = httpx.URL(url) if ":" in url else None
    except (httpx.InvalidURL, ValueError):
        return False
    return parts is not None and bool(parts.scheme) and (parts.scheme not in ("http", "https") or bool(parts.host))


def _error(ctx: ExecuteContext, index: int, message: str, description: str | None) -> NodeOperationError:
    return NodeOperationError(ctx.node.name, message, description=description, item_index=index)


__all__ = ["RssFeedRead", "read_feed"]
