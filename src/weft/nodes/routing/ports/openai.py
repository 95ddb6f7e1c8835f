"""Ports of the OpenAI node's (``n8n-nodes-base.openAi``) functions."""

from __future__ import annotations

import base64
from typing import Any

from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.ports.common import failed, response_error
from weft.nodes.routing.postreceive import Items


@port("postReceive", "sendErrorPostReceive", "0f2931e70c700fa6")
async def send_error_post_receive(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """A 4xx or 5xx answer (the node ignores HTTP errors to get here) fails with the service's message."""
    if failed(response):
        raise response_error(call, response)
    return items


@port("postReceive", "", "3b3db04a51347f9a")
async def simplify_message(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    if call.parameters.get("simplifyOutput") is False:
        return items
    return [{"json": {**item["json"], "message": item["json"].get("message")}} for item in items]


@port("postReceive", "", "cd427e96f49e55ac")
async def simplify_text(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    if call.parameters.get("simplifyOutput") is False:
        return items
    return [{"json": {**item["json"], "text": str(item["json"].get("text") or "").strip()}} for item in items]


@port("postReceive", "", "f78803da20f543e7")
async def image_files(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """Generated images as files, unless the node asked for their URLs."""
    if call.parameters.get("responseFormat") == "imageUrl":
        return items
    out: Items = []
    for item in items:
        data = base64.b64decode(str(item["json"].get("b64_json") or ""))
        out.append({"json": {}, "binary": {"data": await call.prepare_binary_data(data, "data")}})
    return out
