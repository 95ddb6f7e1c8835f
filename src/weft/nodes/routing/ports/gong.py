"""Ports of the Gong node's functions (``nodes/Gong/GenericFunctions.ts`` and its descriptions)."""

from __future__ import annotations

import asyncio
import math
from typing import Any

from weft.errors import NodeApiError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.paths import get_path
from weft.nodes.routing.ports.common import failed, response_error
from weft.nodes.routing.postreceive import Items
from weft.nodes.routing.request import RequestData

_CALL_CONTENT = ("pointsOfInterest", "brief", "highlights", "keyPoints", "outline", "callOutcome", "structure")
_CALL_CONTENT_MORE = ("trackers", "topics")
#: Gong allows 3 calls a second (``requestInterval`` of the transcript pages).
PAGE_INTERVAL_S = 0.34


def extract_calls(items: Items) -> Items:
    """Each call of the pages, its ``metaData`` spread over the call's other fields."""
    out: Items = []
    for item in items:
        found = get_path(item["json"], "calls")
        for call in found if isinstance(found, list) else [found]:
            call = call if isinstance(call, dict) else {}
            rest = {k: v for k, v in call.items() if k != "metaData"}
            out.append({"json": {**(call.get("metaData") or {}), **rest}})
    return out


def extract_users(items: Items) -> Items:
    out: Items = []
    for item in items:
        found = get_path(item["json"], "users")
        out.extend({"json": user} for user in (found if isinstance(found, list) else [found]))
    return out


def _numeric_ids(value: Any) -> bool:
    """``isValidNumberIds``."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return True
    if isinstance(value, list):
        return all(isinstance(v, int | float) and not isinstance(v, bool) for v in value) or all(
            isinstance(v, str) for v in value
        )
    if isinstance(value, str):
        return all(_js_number(part.strip()) for part in value.split(","))
    return False


def _js_number(text: str) -> bool:
    """``!isNaN(Number(text))`` (``Number("")`` is 0)."""
    if text == "":
        return True
    try:
        return not math.isnan(float(text))
    except ValueError:
        return text.lower().startswith(("0x", "0b", "0o")) and text[2:].isalnum()


def _ids(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return [part.strip() for part in str(value).split(",")]


def _filter_ids(call: RoutingCall, options: dict[str, Any], name: str, label: str) -> dict[str, Any]:
    given = call.get_node_parameter(f"filters.{name}")
    if given and not _numeric_ids(given):
        raise NodeApiError(
            call.node_name,
            f"{label} IDs must be numeric",
            description=f"Double-check the value in the parameter '{label} IDs' and try again",
            item_index=call.item_index,
        )
    body = options.get("body") or {}
    options["body"] = body
    body.setdefault("filter", {})
    body["filter"] = body["filter"] or {}
    body["filter"][name] = _ids(given)
    return options


@port("preSend", "", "7c804099239d5182")
async def call_ids(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    return _filter_ids(call, options, "callIds", "Call")


@port("preSend", "", "81af0faf3263f202")
async def user_ids(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    return _filter_ids(call, options, "userIds", "User")


def _selector(
    properties: list[Any], content: tuple[str, ...], exposed: tuple[str, ...], shared: tuple[str, ...]
) -> Any:
    selector: dict[str, Any] = {"exposedFields": {}}
    fields = selector["exposedFields"]
    for name in properties:
        if name in exposed:
            fields[name] = True
        elif name in content:
            fields.setdefault("content", {})[name] = True
        elif name in shared:
            fields.setdefault("collaboration", {})[name] = True
    return selector


@port("preSend", "", "557f79010486b394")
async def call_properties(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """``options.properties`` of a call as Gong's ``contentSelector``."""
    properties = call.get_node_parameter("options.properties") or []
    selector = _selector(properties, _CALL_CONTENT + _CALL_CONTENT_MORE, ("media", "parties"), ("publicComments",))
    options["body"] = options.get("body") or {}
    options["body"]["contentSelector"] = selector
    return options


@port("preSend", "", "92920d32fa816ac8")
async def call_list_properties(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    properties = call.get_node_parameter("options.properties") or []
    options["body"] = options.get("body") or {}
    options["body"]["contentSelector"] = _selector(properties, ("topics",), ("parties",), ())
    return options


@port("postReceive", "", "d8c845ceeb6857d1")
async def calls_of_page(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return extract_calls(items)


@port("postReceive", "", "879ee4263500deba")
async def transcripts(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """With ``transcript`` among the properties, each call's transcript (all its pages)."""
    if "transcript" not in (call.get_node_parameter("options.properties") or []):
        return items
    for item in items:
        call_id = get_path(item["json"], "metaData.id")
        found = await _transcript_pages(call, call_id)
        item["json"]["transcript"] = found[0].get("transcript") if found else []
    return items


async def _transcript_pages(call: RoutingCall, call_id: Any) -> list[dict[str, Any]]:
    """``gongApiPaginateRequest('POST', '/v2/calls/transcript', …, 'callTranscripts')``."""
    base = str((call.credentials or {}).get("baseUrl") or "").rstrip("/")
    body: dict[str, Any] = {"filter": {"callIds": [call_id]}}
    found: list[dict[str, Any]] = []
    while True:
        options = {"method": "POST", "url": f"{base}/v2/calls/transcript", "json": True, "body": body}
        options["headers"] = {"Content-Type": "application/json"}
        page = (await call.send_authenticated(options)).get("body") or {}
        found.extend(page.get("callTranscripts") or [])
        cursor = get_path(page, "records.cursor")
        if not isinstance(cursor, str) or not cursor:
            return found
        body = {**body, "cursor": cursor}
        await asyncio.sleep(PAGE_INTERVAL_S)


@port("pagination", "cursorPagination", "d929e389447e1278")
async def cursor_pagination(call: RoutingCall, data: RequestData) -> Items:
    """Pages following ``records.cursor`` while ``returnAll``; calls or users by the node's resource."""
    assert call.make_routing_request is not None
    extract = extract_calls if call.parameters.get("resource") == "call" else extract_users
    items: Items = []
    cursor: Any = None
    return_all = call.get_node_parameter("returnAll", True)
    while True:
        body = data.options.get("body")
        if not isinstance(body, dict):
            body = data.options["body"] = {}
        body["cursor"] = cursor
        page = await call.make_routing_request(data)
        last = page[-1]["json"] if page else {}
        cursor = get_path(last, "records.cursor") if isinstance(last, dict) else None
        items.extend(extract(page))
        if not (return_all and cursor):
            return items


@port("postReceive", "handleErrorPostReceive", "dc0593e40d404501")
async def handle_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """The node's words for a failed answer (it ignores HTTP errors to get here)."""
    if not failed(response):
        return items
    status = response.get("statusCode")
    resource, operation = call.parameters.get("resource"), call.parameters.get("operation")
    what = {"call": ("call", "Call to Get"), "user": ("user", "User to Get")}.get(str(resource))
    if what and operation == "get" and status == 404:
        raise response_error(
            call,
            response,
            message=f"The required {what[0]} doesn't match any existing one",
            description=f"Double-check the value in the parameter '{what[1]}' and try again",
        )
    if resource == "call" and operation == "getAll":
        if status == 404 and call.get_node_parameter("filters.primaryUserIds", {}):
            return [{"json": {}}]
        if status in (400, 500):
            raise response_error(call, response, description="Double-check the value(s) in the parameter(s)")
    if (
        resource == "user"
        and operation == "getAll"
        and status == 404
        and call.get_node_parameter("filters.userIds", "")
    ):
        raise response_error(
            call,
            response,
            message="The Users IDs don't match any existing user",
            description="Double-check the values in the parameter 'Users IDs' and try again",
        )
    raise response_error(call, response)
