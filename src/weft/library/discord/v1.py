"""Discord 1 (n8n's ``DiscordV1``): a message to the webhook URL given as a parameter, ``{success: true}`` per
item; a 429 waits its ``Retry-After`` (milliseconds, as n8n reads it) and tries again, five tries in all."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item, NodeOutput

_JSON_OPTIONS = (
    ("allowed_mentions", "allowedMentions"),
    ("payload_json", "payloadJson"),
    ("attachments", "attachments"),
)


def _body(ctx: ExecuteContext, index: int) -> dict[str, Any]:
    node = ctx.node.name
    body: dict[str, Any] = {"content": ctx.get_node_parameter("text", index, "")}
    options = ctx.get_node_parameter("options", index, {}) or {}
    if not body["content"] and not options.get("embeds"):
        raise NodeOperationError(node, "Either content or embeds must be set.", item_index=index)
    if options.get("embeds"):
        try:
            body["embeds"] = json.loads(options["embeds"])
        except (TypeError, ValueError) as error:
            raise NodeOperationError(node, "Embeds must be valid JSON.", item_index=index) from error
        if not isinstance(body["embeds"], list):  # n8n's own check is caught by its JSON check
            raise NodeOperationError(node, "Embeds must be valid JSON.", item_index=index)
    if options.get("username"):
        body["username"] = options["username"]
    if options.get("components"):
        try:
            body["components"] = json.loads(options["components"])
        except (TypeError, ValueError) as error:
            raise NodeOperationError(node, "Components must be valid JSON.", item_index=index) from error
    for field, name in _JSON_OPTIONS:
        if options.get(name):
            body[field] = options[name] if not isinstance(options[name], str) else json.loads(options[name])
    for field, name in (("avatar_url", "avatarUrl"), ("flags", "flags"), ("tts", "tts")):
        if options.get(name):
            body[field] = options[name]
    return {key: value for key, value in body.items() if value}


async def execute_v1(ctx: ExecuteContext) -> NodeOutput:
    if not ctx.get_node_parameter("webhookUri", 0, ""):
        raise NodeOperationError(ctx.node.name, "Webhook uri is required.")
    out: list[Item] = []
    async with ApiRequests(ctx) as api:
        for index in range(len(ctx.get_input_data())):
            body = _body(ctx, index)
            multipart = bool(body.get("payload_json"))
            content_type = "multipart/form-data; charset=utf-8" if multipart else "application/json; charset=utf-8"
            options = {"method": "POST", "url": ctx.get_node_parameter("webhookUri", index), "body": body,
                       "headers": {"content-type": content_type}, "json": not multipart}  # fmt: skip
            for _ in range(5):
                try:
                    await api.request(None, options, index)
                    break
                except NodeApiError as error:
                    if error.http_code != 429:
                        raise
                    await asyncio.sleep(0.001)  # n8n waits the Retry-After seconds as milliseconds
            else:
                raise NodeApiError(ctx.node.name, "Could not send Webhook message. Max amount of rate-limit "
                                   "retries reached.")  # fmt: skip
            out.append({"json": {"success": True}, "pairedItem": {"item": index}})
    return [out]
