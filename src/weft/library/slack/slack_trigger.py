"""Slack Trigger (``n8n-nodes-base.slackTrigger`` v1): Slack's Events API calls the node's webhook URL, which the
user gives the Slack app (n8n registers nothing with Slack: its webhook methods only say yes).

Every call must carry Slack's signature (``X-Slack-Signature: v0=<HMAC-SHA256 of "v0:<timestamp>:<raw body>">``
with the credential's signing secret, ``X-Slack-Request-Timestamp`` within five minutes), else it is refused
with 401, unless the credential has no signing secret (as in n8n). The URL verification challenge is answered
with its ``challenge``. Events are filtered by type (``trigger``), channel (unless ``watchWorkspace``), ignored
users and reaction emojis; ``options.resolveIds`` adds the user's and channel's names, ``downloadFiles`` the
shared files as binary ``file_<n>``.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, ClassVar

from weft.nodes import triggers
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import TriggerContext, WebhookRequest, WebhookResult, run_trigger_node
from weft.nodes.webhooks import WebhookResponse
from weft.workflow import NodeOutput

SLACK_TRIGGER_TYPE = "n8n-nodes-base.slackTrigger"
MAX_AGE_S = 300
_NO_CHANNEL = ("team_join", "app_home_opened")


async def signature_valid(ctx: ExecuteContext, request: WebhookRequest) -> bool:
    """n8n's ``verifySignature`` (always with the ``slackApi`` credential)."""
    timestamp = request.headers.get("x-slack-request-timestamp")
    if not timestamp:
        return False
    try:
        seconds = int(timestamp)
    except ValueError:
        return False
    seconds = seconds // 1000 if seconds > 10**10 else seconds
    if abs(int(triggers.now().timestamp()) - seconds) > MAX_AGE_S:
        return False
    secret = (await ctx.get_credentials("slackApi")).get("signatureSecret")
    if not secret or not isinstance(secret, str):
        return True
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:".encode() + request.raw_body, hashlib.sha256).hexdigest()
    given = request.headers.get("x-slack-signature", "")
    return hmac.compare_digest(f"v0={digest}".encode(), given.encode())


class SlackTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=SLACK_TRIGGER_TYPE,
        display_name="Slack Trigger",
        versions=(1,),
        description="Handle Slack events via webhooks",
        group=("trigger",),
        inputs=(),
        credentials=("slackApi",),
        defaults={"trigger": [], "watchWorkspace": False, "downloadFiles": False, "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def check_exists(self, ctx: TriggerContext) -> bool:
        return True

    async def create(self, ctx: TriggerContext) -> bool:
        return True

    async def delete(self, ctx: TriggerContext) -> bool:
        return True

    async def webhook(self, ctx: TriggerContext, request: WebhookRequest) -> WebhookResult:
        if not await signature_valid(ctx, request):
            return WebhookResult(response=WebhookResponse.text("Unauthorized", 401))
        body = request.body()
        if not isinstance(body, dict):
            body = {}
        if body.get("type") == "url_verification":
            return WebhookResult(response=WebhookResponse.json({"challenge": body.get("challenge")}))
        event = body.get("event")
        if not isinstance(event, dict) or not _wanted(ctx, event):
            return WebhookResult()
        options = ctx.get_node_parameter("options", default={}) or {}
        filters = ctx.get_node_parameter("trigger", default=[]) or []
        async with ApiRequests(ctx) as api:
            if options.get("resolveIds"):
                await _resolve(ctx, api, event)
            item: dict[str, Any] = {"json": event}
            wants_files = "file_share" in filters or "any_event" in filters
            if (
                event.get("subtype") == "file_share"
                and wants_files
                and ctx.get_node_parameter("downloadFiles", default=False)
            ):
                binary = {}
                for index, file in enumerate(event.get("files") or []):
                    data = await _slack(ctx, api, file["url_private_download"], raw=True)
                    binary[f"file_{index}"] = await ctx.prepare_binary_data(
                        bytes(data), file.get("name"), file.get("mimetype")
                    )
                if binary:
                    item["binary"] = binary
        return WebhookResult(workflow_data=[[item]])  # type: ignore[list-item]


def _wanted(ctx: ExecuteContext, event: dict[str, Any]) -> bool:
    filters = ctx.get_node_parameter("trigger", default=[]) or []
    kind = event.get("type")
    if "file_share" not in filters and "any_event" not in filters and kind not in filters:
        return False
    if kind not in _NO_CHANNEL and not ctx.get_node_parameter("watchWorkspace", default=False):
        item: dict[str, Any] = event["item"] if isinstance(event.get("item"), dict) else {}
        channel = event.get("channel") or item.get("channel") or event.get("channel_id")
        if channel != ctx.get_node_parameter("channelId", default="", extract_value=True):
            return False
    options = ctx.get_node_parameter("options", default={}) or {}
    message: dict[str, Any] = event["message"] if isinstance(event.get("message"), dict) else {}
    if options.get("userIds") and (event.get("user") or message.get("user")) in options["userIds"]:
        return False
    if kind == "reaction_added" and options.get("reactionEmojis"):
        allowed = [e.strip().lower() for e in str(options["reactionEmojis"]).split(",") if e.strip()]
        if allowed and str(event.get("reaction") or "").lower() not in allowed:
            return False
    return True


async def _slack(
    ctx: ExecuteContext, api: ApiRequests, url: str, qs: dict[str, Any] | None = None, *, raw: bool = False
) -> Any:
    options: dict[str, Any] = {
        "method": "GET",
        "url": url if url.startswith("https") else f"https://slack.com/api{url}",
    }
    if qs:
        options["qs"] = qs
    options.update({"encoding": "arraybuffer", "json": False} if raw else {"json": True})
    return await api.request("slackApi", options)


async def _resolve(ctx: ExecuteContext, api: ApiRequests, event: dict[str, Any]) -> None:
    async def user(user_id: Any) -> Any:
        return (await _slack(ctx, api, "/users.info", {"user": user_id}))["user"]["name"]

    if event.get("user"):
        if event.get("type") == "reaction_added":
            event["user_resolved"] = await user(event["user"])
            event["item_user_resolved"] = await user(event.get("item_user"))
        elif event.get("type") == "team_join":
            event["user_resolved"] = event["user"].get("name") if isinstance(event["user"], dict) else None
        else:
            event["user_resolved"] = await user(event["user"])
    item: dict[str, Any] = event["item"] if isinstance(event.get("item"), dict) else {}
    channel = event.get("channel") or item.get("channel") or event.get("channel_id")
    if channel and event.get("type") not in _NO_CHANNEL:
        event["channel_resolved"] = (await _slack(ctx, api, "/conversations.info", {"channel": channel}))["channel"][
            "name"
        ]


__all__ = ["SLACK_TRIGGER_TYPE", "SlackTrigger", "signature_valid"]
