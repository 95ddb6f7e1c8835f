"""RSS Feed Trigger (``n8n-nodes-base.rssFeedReadTrigger`` v1): polls a feed and starts the workflow with the
items published since the newest one it saw (n8n's ``lastItemDate`` in the node's static data; the first poll
counts from the activation). A manual run answers the feed's first item."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.library.rss.rss_read import read_feed
from weft.nodes import triggers
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import run_trigger_node, workflow_static_data
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput


class RssFeedReadTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.rssFeedReadTrigger",
        display_name="RSS Feed Trigger",
        versions=(1,),
        description="Starts a workflow when an RSS feed is updated",
        group=("trigger",),
        inputs=(),
        defaults={"feedUrl": "https://blog.n8n.io/rss/"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def poll(self, ctx: ExecuteContext) -> list[list[Item]] | None:
        state = workflow_static_data(ctx, "node")
        url = js_string(ctx.get_node_parameter("feedUrl", 0, ""))
        since = _millis(state.get("lastItemDate") or state.get("lastTimeChecked")) or triggers.now().timestamp() * 1000
        if not url:
            raise NodeOperationError(ctx.node.name, 'The parameter "URL" has to be set!')
        feed = await read_feed(ctx, 0, url, {}, relaxed_accept=False)
        if ctx.mode == "manual":
            return [[{"json": feed[0]}]] if feed else None
        fresh = [item for item in feed if item.get("isoDate") and (_millis(item["isoDate"]) or 0) > since]
        dated = [item for item in feed if _millis(item.get("isoDate")) is not None]
        if dated:
            state["lastItemDate"] = max(dated, key=lambda item: _millis(item["isoDate"]) or 0)["isoDate"]
        return [[{"json": item} for item in fresh]] if fresh else None


def _millis(value: Any) -> float | None:
    """``Date.parse`` of an ISO date (or a datetime), in milliseconds; None when it is not one."""
    if isinstance(value, datetime):
        return value.timestamp() * 1000
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000
    except ValueError:
        return None


__all__ = ["RssFeedReadTrigger"]
