"""Ports of the PostBin node's functions (``nodes/PostBin/GenericFunctions.ts``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from weft.errors import NodeApiError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.postreceive import Items

_BIN_ID = re.compile(r"\b\d{13}-\d{13}\b")


def _bin_id(call: RoutingCall) -> str:
    found = _BIN_ID.search(str(call.get_node_parameter("binId")))
    if found is None:
        raise NodeApiError(
            call.node_name,
            "Bin ID format is not valid",
            description="Please check the provided Bin ID and try again.",
            item_index=call.item_index,
        )
    return found.group(0)


def _iso(milliseconds: Any) -> str:
    moment = datetime.fromtimestamp(float(milliseconds) / 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@port("postReceive", "transformBinResponse", "46dae2fe5173283c")
async def transform_bin(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    for item in items:
        found = item["json"]
        item["json"] = {
            "binId": found.get("binId"),
            "nowTimestamp": found.get("now"),
            "nowIso": _iso(found.get("now")),
            "expiresTimestamp": found.get("expires"),
            "expiresIso": _iso(found.get("expires")),
            "requestUrl": f"https://www.postb.in/{found.get('binId')}",
            "viewUrl": f"https://www.postb.in/b/{found.get('binId')}",
        }
    return items


@port("preSend", "buildBinAPIURL", "3ab7c6e00cdf9adb")
async def bin_api_url(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    options["url"] = f"/api/bin/{_bin_id(call)}"
    return options


@port("preSend", "buildRequestURL", "60b5fcae36a257e9")
async def request_url(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    request_id = call.get_node_parameter("requestId", "shift")
    options["url"] = f"/api/bin/{_bin_id(call)}/req/{request_id}"
    return options


@port("preSend", "buildBinTestURL", "932d6ab05e4c98af")
async def bin_test_url(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    options["url"] = f"/{_bin_id(call)}"
    return options
