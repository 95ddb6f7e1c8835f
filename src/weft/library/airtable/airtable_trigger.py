"""Airtable Trigger (``n8n-nodes-base.airtableTrigger`` v1): polls a table for records whose trigger field (a
"last modified time" or "created time" field) is after the last poll.

Each poll lists ``/v0/<base>/<table>`` (all pages, ``pageSize`` 100) with
``filterByFormula = IS_AFTER({<field>}, DATETIME_PARSE("<last poll>", "YYYY-MM-DD HH:mm:ss"))`` (and the
``formula`` option), then remembers this poll's start in ``lastTimeChecked``; a manual run takes one record with no
filter and refuses a trigger field the record lacks. Attachments of the named fields can be downloaded as binary
``<field>_<n>``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes import triggers
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import run_trigger_node, workflow_static_data
from weft.workflow import Item, NodeOutput

AIRTABLE_TRIGGER_TYPE = "n8n-nodes-base.airtableTrigger"
BASE_URL = "https://api.airtable.com/v0/"


class AirtableTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=AIRTABLE_TRIGGER_TYPE,
        display_name="Airtable Trigger",
        versions=(1,),
        description="Starts the workflow when Airtable events occur",
        group=("trigger",),
        inputs=(),
        credentials=("airtableApi", "airtableTokenApi", "airtableOAuth2Api"),
        defaults={"authentication": "airtableApi", "downloadAttachments": False, "additionalFields": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def poll(self, ctx: ExecuteContext) -> list[list[Item]] | None:
        state = workflow_static_data(ctx, "node")
        fields = ctx.get_node_parameter("additionalFields", default={}) or {}
        base = ctx.get_node_parameter("baseId", default="", extract_value=True)
        table = ctx.get_node_parameter("tableId", default="", extract_value=True)
        trigger_field = str(ctx.get_node_parameter("triggerField", default=""))
        now = triggers.now().strftime("%Y-%m-%dT%H:%M:%SZ")  # moment().utc().format()
        start = state.get("lastTimeChecked") or now
        qs: dict[str, Any] = {}
        if fields.get("viewId"):
            qs["view"] = fields["viewId"]
        if fields.get("fields"):
            qs["fields[]"] = str(fields["fields"]).split(",")
        qs["filterByFormula"] = f'IS_AFTER({{{trigger_field}}}, DATETIME_PARSE("{start}", "YYYY-MM-DD HH:mm:ss"))'
        if fields.get("formula"):
            qs["filterByFormula"] = f"AND({qs['filterByFormula']}, {fields['formula']})"
        if ctx.mode == "manual":
            del qs["filterByFormula"]
            qs["maxRecords"] = 1
        async with ApiRequests(ctx) as api:
            records = await _all_records(ctx, api, f"{base}/{table}", qs)
            state["lastTimeChecked"] = now
            if not records:
                return None
            if ctx.mode == "manual" and trigger_field not in (records[0].get("fields") or {}):
                raise NodeOperationError(ctx.node.name, f'The Field "{trigger_field}" does not exist.')
            if ctx.get_node_parameter("downloadAttachments", default=False):
                names = str(ctx.get_node_parameter("downloadFieldNames", default="")).split(",")
                return [await _with_attachments(ctx, api, records, names)]
        return [[{"json": record} for record in records]]


async def _request(ctx: ExecuteContext, api: ApiRequests, options: dict[str, Any]) -> Any:
    authentication = str(ctx.get_node_parameter("authentication", default="airtableApi"))
    return await api.request(authentication, {"json": True, **options})


async def _all_records(ctx: ExecuteContext, api: ApiRequests, endpoint: str, qs: dict[str, Any]) -> list[Any]:
    """n8n's ``apiRequestAllItems``: every page, following ``offset``."""
    query = {**qs, "pageSize": 100}
    records: list[Any] = []
    while True:
        page = await _request(ctx, api, {"method": "GET", "url": BASE_URL + endpoint, "qs": query})
        records += page.get("records") or []
        if page.get("offset") is None:
            return records
        query["offset"] = page["offset"]


async def _with_attachments(ctx: ExecuteContext, api: ApiRequests, records: list[Any], names: list[str]) -> list[Item]:
    items: list[Item] = []
    for record in records:
        item: dict[str, Any] = {"json": record}
        binary: dict[str, Any] = {}
        for name in names:
            for index, attachment in enumerate((record.get("fields") or {}).get(name) or []):
                options = {"method": "GET", "url": attachment["url"], "json": False, "encoding": "arraybuffer"}
                data = await _request(ctx, api, options)
                key = f"{name}_{index}"
                binary[key] = await ctx.prepare_binary_data(
                    bytes(data), attachment.get("filename"), attachment.get("type")
                )
        if binary:
            item["binary"] = binary
        items.append(item)  # type: ignore[arg-type]
    return items


__all__ = ["AIRTABLE_TRIGGER_TYPE", "AirtableTrigger"]
