"""Notion Trigger (``n8n-nodes-base.notionTrigger`` v1, 1.1): polls a database (v1.1: a data source) for pages
added (``created_time``) or updated (``last_edited_time``) since the last poll.

Notion's times are to the minute, so each poll asks for pages ``on_or_after`` the minute of the last poll, newest
first, and leaves out the ids the previous poll emitted at its newest time (``possibleDuplicates``). A manual run
takes the newest page with no filter. With ``simple`` the pages are simplified as the Notion node v1 does.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from weft.nodes import triggers
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import run_trigger_node, workflow_static_data
from weft.workflow import Item, NodeOutput

NOTION_TRIGGER_TYPE = "n8n-nodes-base.notionTrigger"
API = "https://api.notion.com/v1"
_V1_VERSION = "2022-02-22"
_V3_VERSION = "2026-03-11"


def _minute(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(second=0, microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse(value: Any) -> datetime:
    return datetime.fromisoformat(str(value).replace("Z", "+00:00"))


class NotionTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=NOTION_TRIGGER_TYPE,
        display_name="Notion Trigger",
        versions=(1, 1.1),
        description="Starts the workflow when Notion events occur",
        group=("trigger",),
        inputs=(),
        credentials=("notionApi", "notionOAuth2Api"),
        defaults={"event": "pageAddedToDatabase", "simple": True, "authentication": "apiKey"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def poll(self, ctx: ExecuteContext) -> list[list[Item]] | None:
        state = workflow_static_data(ctx, "node")
        sort = "created_time" if ctx.get_node_parameter("event") == "pageAddedToDatabase" else "last_edited_time"
        simple = bool(ctx.get_node_parameter("simple", default=True))
        now = _minute(triggers.now())
        last = state.get("lastTimeChecked") or now
        state["lastTimeChecked"] = now
        duplicates = list(state.get("possibleDuplicates") or [])
        body: dict[str, Any] = {"page_size": 1, "sorts": [{"timestamp": sort, "direction": "descending"}]}
        if ctx.mode != "manual":
            body["filter"] = {"timestamp": sort, sort: {"on_or_after": _minute(_parse(last))}}
        async with ApiRequests(ctx) as api:
            data = (await _query(ctx, api, body)).get("results") or []
            if ctx.mode == "manual":
                return [_items(data, simple)] if data else None
            if not data or not data[0]:
                return None
            records = await _since(ctx, api, body, sort, _parse(last))
        records = [r for r in records if r.get("id") not in duplicates]
        if records:
            newest = _parse(records[0][sort])
            state["possibleDuplicates"] = [r["id"] for r in records if _parse(r[sort]) == newest]
        else:
            state.pop("possibleDuplicates", None)
        return [_items(records, simple)] if records else None


async def _since(ctx: ExecuteContext, api: ApiRequests, body: dict[str, Any], sort: str, last: datetime) -> list[Any]:
    """Pages of 10, newest first, until one is older than ``last`` (or no more)."""
    records: list[Any] = []
    body = {**body, "page_size": 10}
    while True:
        page = await _query(ctx, api, body)
        records += page.get("results") or []
        if page.get("next_cursor") is not None:
            body["start_cursor"] = page["next_cursor"]
        if not records or _parse(records[-1][sort]) < last or not page.get("has_more"):
            return records


async def _query(ctx: ExecuteContext, api: ApiRequests, body: dict[str, Any]) -> Any:
    credential = (
        "notionOAuth2Api" if ctx.get_node_parameter("authentication", default="apiKey") == "oAuth2" else "notionApi"
    )
    if ctx.node.typeVersion >= 1.1:
        source = ctx.get_node_parameter("dataSourceId", default="", extract_value=True)
        url, version = f"{API}/data_sources/{source}/query", _V3_VERSION
    else:
        database = ctx.get_node_parameter("databaseId", default="", extract_value=True)
        url, version = f"{API}/databases/{database}/query", _V1_VERSION
    options = {"method": "POST", "url": url, "body": body, "json": True, "headers": {"Notion-Version": version}}
    return await api.request(credential, options)


def _items(records: list[Any], simple: bool) -> list[Item]:
    if simple:
        from weft.library.notion.simplify import simplify_objects

        records = simplify_objects(records, 1)
    return [{"json": record} for record in records]


__all__ = ["NOTION_TRIGGER_TYPE", "NotionTrigger"]
