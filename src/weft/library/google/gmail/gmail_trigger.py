"""Gmail Trigger (``n8n-nodes-base.gmailTrigger`` v1-1.4): polls for messages received since the last poll.

Each poll lists ``users/me/messages`` with ``q`` = the filters and ``after:<last poll>`` (a manual run: the newest
message, ``maxResults=1``), fetches each message (``format=metadata`` with the address and subject headers when
``simple``, else ``raw``, resolved as the Gmail node does) and remembers the newest message's date and the ids
seen at it (``possibleDuplicates``), so that a message is emitted once. Drafts are left out from v1.2 unless
``filters.includeDrafts``, sent mail not in the inbox from v1.3. The state lives in the node's static data
(v1: ``node:<name>``; later versions one level deeper, under the node's name, as n8n keeps it).
"""

from __future__ import annotations

from email.utils import parsedate_to_datetime
from typing import Any, ClassVar

from weft.library.google._common import google_request
from weft.nodes import triggers
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import run_trigger_node, workflow_static_data
from weft.workflow import Item, NodeOutput

GMAIL_TRIGGER_TYPE = "n8n-nodes-base.gmailTrigger"
BASE = "https://www.googleapis.com"
METADATA_HEADERS = ["From", "To", "Cc", "Bcc", "Subject"]


def _state(ctx: ExecuteContext) -> dict[str, Any]:
    data = workflow_static_data(ctx, "node")
    if ctx.node.typeVersion > 1:
        data = data.setdefault(ctx.node.name, {})
    return data


def _query(filters: dict[str, Any], after: int | None) -> dict[str, Any]:
    """n8n's ``prepareQuery``: ``sender``, ``readStatus`` and ``receivedAfter`` become Gmail search terms."""
    qs = {k: v for k, v in filters.items() if k not in ("sender", "readStatus", "includeDrafts")}
    terms = [str(qs.pop("q"))] if qs.get("q") else []
    if filters.get("sender"):
        terms.append(f"from:{filters['sender']}")
    if filters.get("readStatus") and filters["readStatus"] != "both":
        terms.append(f"is:{filters['readStatus']}")
    if after is not None:
        terms.append(f"after:{after}")
    if not qs.get("labelIds"):
        qs.pop("labelIds", None)
    if terms:
        qs["q"] = " ".join(terms)
    return qs


def _date_seconds(message: dict[str, Any], fallback: float) -> float:
    if message.get("internalDate"):
        return float(message["internalDate"]) / 1000
    headers = message.get("headers")
    raw = message.get("date") or (headers.get("date") if isinstance(headers, dict) else None)
    try:
        return parsedate_to_datetime(str(raw)).timestamp() if raw else fallback
    except (TypeError, ValueError):
        return fallback


class GmailTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=GMAIL_TRIGGER_TYPE,
        display_name="Gmail Trigger",
        versions=(1, 1.1, 1.2, 1.3, 1.4),
        description="Fetches emails from Gmail and starts the workflow on specified polling intervals.",
        group=("trigger",),
        inputs=(),
        credentials=("gmailOAuth2", "googleApi"),
        defaults={"authentication": "oAuth2", "simple": True, "filters": {}, "options": {}, "event": "messageReceived"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def poll(self, ctx: ExecuteContext) -> list[list[Item]] | None:
        state = _state(ctx)
        now = int(triggers.now().timestamp())
        manual = ctx.mode == "manual"
        if not manual:
            state.setdefault("lastTimeChecked", now)
        start = int(state.get("lastTimeChecked") or now)
        options = dict(ctx.get_node_parameter("options", default={}) or {})
        filters = dict(ctx.get_node_parameter("filters", default={}) or {})
        qs = {**_query(filters, None if manual else start), **options}
        if manual:
            qs["maxResults"] = 1
        async with ApiRequests(ctx) as api:
            try:
                items, fetched = await _fetch(ctx, api, qs, filters, options)
            except Exception:
                if manual or not state.get("lastTimeChecked"):
                    raise
                items, fetched = [], []  # n8n logs it and keeps its state
        if not fetched:
            return None
        return _dedupe(state, items, fetched, start)


async def _get(ctx: ExecuteContext, api: ApiRequests, endpoint: str, qs: dict[str, Any] | None = None) -> Any:
    options = {"method": "GET", "url": BASE + endpoint, "qs": qs or {}, "json": True}
    options["headers"] = {"Accept": "application/json", "Content-Type": "application/json"}
    return await google_request(api, options, oauth2_type="gmailOAuth2", service="gmail")


async def _fetch(
    ctx: ExecuteContext, api: ApiRequests, qs: dict[str, Any], filters: dict[str, Any], options: dict[str, Any]
) -> tuple[list[Item], list[dict[str, Any]]]:
    listed = await _get(ctx, api, "/gmail/v1/users/me/messages", qs)
    messages = listed.get("messages") or [] if isinstance(listed, dict) else []
    if not messages:
        return [], []
    simple = bool(ctx.get_node_parameter("simple", default=True))
    fetch_qs = {**qs, "format": "metadata", "metadataHeaders": METADATA_HEADERS} if simple else {**qs, "format": "raw"}
    version = ctx.node.typeVersion
    include_drafts = filters.get("includeDrafts", version <= 1.1)
    items: list[Item] = []
    fetched: list[dict[str, Any]] = []
    for message in messages:
        full = await _get(ctx, api, f"/gmail/v1/users/me/messages/{message['id']}", fetch_qs)
        fetched.append(full)
        labels = full.get("labelIds") or []
        if (not include_drafts and "DRAFT" in labels) or (version > 1.2 and "SENT" in labels and "INBOX" not in labels):
            continue
        items.append(await _resolved(ctx, full, options) if not simple else {"json": full})
    if simple and items:
        items = await _simplified(ctx, api, items)
    return items, fetched


async def _resolved(ctx: ExecuteContext, message: dict[str, Any], options: dict[str, Any]) -> Item:
    from weft.library.google.gmail._api import Params
    from weft.library.google.gmail._parse import parsed_email

    prefix = str(options.get("dataPropertyAttachmentsPrefixName") or "attachment_")
    return await parsed_email(ctx, Params(ctx), message, prefix)  # type: ignore[return-value]


async def _simplified(ctx: ExecuteContext, api: ApiRequests, items: list[Item]) -> list[Item]:
    """n8n's ``simplifyOutput``: ``labelIds`` → ``labels`` ({id, name}), the headers as top-level fields."""
    answer = await _get(ctx, api, "/gmail/v1/users/me/labels")
    labels = [{"id": label.get("id"), "name": label.get("name")} for label in (answer or {}).get("labels") or []]
    simplified: list[Item] = []
    for item in items:
        json = dict(item["json"])
        if json.get("labelIds"):
            json["labels"] = [label for label in labels if label["id"] in json["labelIds"]]
            del json["labelIds"]
        payload = json.get("payload")
        if isinstance(payload, dict) and payload.get("headers"):
            for header in payload["headers"]:
                json[header.get("name")] = header.get("value")
            json["payload"] = {k: v for k, v in payload.items() if k != "headers"}
        simplified.append({"json": json})
    return simplified


def _dedupe(
    state: dict[str, Any], items: list[Item], fetched: list[dict[str, Any]], start: int
) -> list[list[Item]] | None:
    """Leave out the messages the previous poll saw at its newest date; remember this poll's newest date and the ids
    seen up to it (n8n keeps every fetched id: a message dated at the boundary comes again with ``after:``)."""
    newest = max((_date_seconds(m, start) for m in fetched), default=0.0)
    seen = set(state.get("possibleDuplicates") or [])
    if seen:
        items = [item for item in items if isinstance(item["json"].get("id"), str) and item["json"]["id"] not in seen]
    state["possibleDuplicates"] = [m.get("id") for m in fetched if _date_seconds(m, start) <= newest]
    state["lastTimeChecked"] = int(newest) if newest == int(newest) else newest
    return [items] if items else None


__all__ = ["GMAIL_TRIGGER_TYPE", "GmailTrigger"]
