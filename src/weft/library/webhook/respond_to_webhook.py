"""Respond to Webhook (``n8n-nodes-base.respondToWebhook``): answer the request that started the execution.

The node builds a :class:`~weft.nodes.webhooks.WebhookResponse` and hands it to the host through
``ctx.services``, which then implements :class:`~weft.nodes.webhooks.WebhookResponder` (the server's services do;
in-process runs have no request to answer, so the node only passes its input through). Like n8n, the node outputs
its input items.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from weft.binary.store import opened
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.webhooks import WebhookResponse, responder_of
from weft.workflow import Item, NodeOutput


class RespondToWebhook(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.respondToWebhook",
        display_name="Respond to Webhook",
        versions=(1, 1.1, 1.2, 1.3, 1.4, 1.5),
        description="Returns data for Webhook",
        group=("transform",),
        defaults={"respondWith": "firstIncomingItem", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        responder = responder_of(ctx.services)
        if responder is not None:
            responder.send_webhook_response(await build_response(ctx, items))
        return [items]


async def build_response(ctx: ExecuteContext, items: list[Item]) -> WebhookResponse:
    """The response the node's parameters describe, for its input ``items``."""
    respond_with = ctx.get_node_parameter("respondWith", 0)
    options: Mapping[str, Any] = ctx.get_node_parameter("options", 0, {}) or {}
    headers = _option_headers(options)
    code = options.get("responseCode")
    status = int(code) if isinstance(code, int | float) else 200
    if respond_with == "redirect":
        location = str(ctx.get_node_parameter("redirectURL", 0))
        return WebhookResponse(status_code=int(code) if code else 307, headers={**headers, "location": location})
    if respond_with == "noData":
        return WebhookResponse(status_code=status, headers=headers)
    if respond_with == "text":
        return WebhookResponse.text(str(ctx.get_node_parameter("responseBody", 0, "")), status, headers)
    if respond_with == "binary":
        return await _binary_response(ctx, items, status, headers)
    return WebhookResponse.json(_json_body(ctx, respond_with, items, options), status, headers)


def _json_body(ctx: ExecuteContext, respond_with: Any, items: list[Item], options: Mapping[str, Any]) -> Any:
    if respond_with == "json":
        raw = ctx.get_node_parameter("responseBody", 0, "")
        if isinstance(raw, str):
            try:
                return json.loads(raw) if raw.strip() else {}
            except json.JSONDecodeError:
                raise NodeOperationError(
                    ctx.node.name,
                    "Invalid JSON in 'Response Body' field",
                    description="Set 'Response Body' to valid JSON, or respond with 'text'.",
                ) from None
        return raw
    body: Any
    if respond_with == "allIncomingItems":
        body = [item.get("json", {}) for item in items]
    elif respond_with == "firstIncomingItem":
        body = items[0].get("json", {}) if items else {}
    else:
        raise NodeOperationError(
            ctx.node.name,
            f"The response type {respond_with!r} is not supported",
            description="Set 'Respond With' to allIncomingItems, firstIncomingItem, json, text, binary, "
            "noData or redirect.",
        )
    key = options.get("responseKey")
    return {key: body} if key else body


async def _binary_response(
    ctx: ExecuteContext, items: list[Item], status: int, headers: dict[str, str]
) -> WebhookResponse:
    source = ctx.get_node_parameter("responseDataSource", 0, "automatically")
    binary: Mapping[str, Any] = (items[0].get("binary") or {}) if items else {}
    name = ctx.get_node_parameter("inputFieldName", 0, "data") if source == "set" else next(iter(binary), None)
    data = binary.get(name) if name is not None else None
    if not isinstance(data, Mapping):
        raise NodeOperationError(
            ctx.node.name,
            "No binary data exists on the first item",
            description="Respond with binary only after a node that outputs a file, or pick another 'Respond With'.",
        )
    headers = {"content-type": str(data.get("mimeType") or "application/octet-stream"), **headers}
    if isinstance(data.get("bytes"), int):
        headers.setdefault("content-length", str(data["bytes"]))
    return WebhookResponse(status_code=status, headers=headers, stream=await opened(ctx.get_binary_stream(data)))


def _option_headers(options: Mapping[str, Any]) -> dict[str, str]:
    entries = (options.get("responseHeaders") or {}).get("entries") or []
    return {
        str(e["name"]).lower(): str(e.get("value", "")) for e in entries if isinstance(e, Mapping) and e.get("name")
    }


__all__ = ["RespondToWebhook", "build_response"]
