"""Ports of the Okta node's functions (``nodes/Okta/UserFunctions.ts``)."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.postreceive import Items
from weft.nodes.routing.request import RequestData

_USER = ("id", "status", "created", "activated", "lastLogin", "lastUpdated", "passwordChanged")
_PROFILE = ("firstName", "lastName", "login", "email")


def simplify_user(item: dict[str, Any]) -> dict[str, Any]:
    """``simplifyOktaUser`` (a field the user lacks is left out, as ``JSON.stringify`` leaves out ``undefined``)."""
    profile = item.get("profile") or {}
    simple = {key: item[key] for key in _USER if key in item}
    simple["profile"] = {key: profile[key] for key in _PROFILE if key in profile}
    return simple


@port("postReceive", "simplifyGetResponse", "d07725810d14b9b9")
async def simplify_get_response(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    if not call.get_node_parameter("simplify"):
        return items
    return [{"json": simplify_user(items[0]["json"])}]


@port("postReceive", "simplifyGetAllResponse", "d7719be3007389f0")
async def simplify_get_all_response(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    if not items:
        return items
    headers = response.get("headers")
    users = items[0]["json"] if isinstance(items[0]["json"], list) else []
    if not call.get_node_parameter("simplify"):
        return [{"json": user, "headers": headers} for user in users]
    return [{"json": simplify_user(user), "headers": headers} for user in users]


@port("pagination", "cursorPagination", "5444143debb33294")
async def cursor_pagination(call: RoutingCall, data: RequestData) -> Items:
    """Pages of 200 users, following the ``after`` cursor of the ``link`` header while ``returnAll``."""
    assert call.make_routing_request is not None
    if not isinstance(data.options.get("qs"), dict):
        data.options["qs"] = {}
    items: Items = []
    cursor: str | None = None
    return_all = call.get_node_parameter("returnAll", True)
    while True:
        data.options["qs"]["limit"] = 200
        data.options["qs"]["after"] = cursor
        page = await call.make_routing_request(data)
        if page:
            link = str((page[-1].get("headers") or {}).get("link") or "")
            after = link.split("after=")[1] if "after=" in link else None
            cursor = after.split("&")[0].split(">")[0] if after is not None else None
        items.extend(page)
        if not (return_all and cursor):
            return items
