"""Ports of the Google Business Profile node's functions (``nodes/Google/BusinessProfile/GenericFunctions.ts``):
an event's dates as Google's ``{date, time}`` objects, a post update's ``updateMask``, the pages of posts and
reviews (``pageToken``), and the node's words for a failed request (its operations ignore HTTP errors to get
there)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.paths import UNDEFINED
from weft.nodes.routing.ports.common import response_error
from weft.nodes.routing.postreceive import Items
from weft.nodes.routing.request import RequestData

_ROOTS = ("localPosts", "reviews")
_MASKS = {
    "postType": "topicType",
    "actionType": "actionType",
    "callToActionType": "callToAction.actionType",
    "url": "callToAction.url",
    "startDateTime": "event.schedule.startDate,event.schedule.startTime",
    "endDateTime": "event.schedule.endDate,event.schedule.endTime",
    "title": "event.title",
    "startDate": "event.schedule.startDate",
    "endDate": "event.schedule.endDate",
    "couponCode": "offer.couponCode",
    "redeemOnlineUrl": "offer.redeemOnlineUrl",
    "termsAndConditions": "offer.termsAndConditions",
}
_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _js_date(text: str) -> datetime | None:
    """``new Date(text)`` for the ISO forms a date parameter holds: a date alone is UTC, a date and time without
    an offset is the process's local time; anything else is an invalid date (``None``)."""
    try:
        if _DATE_ONLY.match(text):
            return datetime.fromisoformat(text).replace(tzinfo=UTC)
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (parsed if parsed.tzinfo else parsed.astimezone()).astimezone(UTC)


def _date_time(text: str) -> dict[str, Any]:
    """``createDateTimeObject``: the date (and, when the text has a ``T``, the time) in UTC; an invalid date's
    fields are ``NaN`` (``null`` in JSON)."""
    when = _js_date(text)
    date = {
        "year": when.year if when else None,
        "month": when.month if when else None,
        "day": when.day if when else None,
    }
    if "T" not in text:
        return {"date": date, "time": UNDEFINED}
    time = {
        "hours": when.hour if when else None,
        "minutes": when.minute if when else None,
        "seconds": when.second if when else None,
        "nanos": 0,
    }
    return {"date": date, "time": time}


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _all_params(call: RoutingCall) -> dict[str, Any]:
    """``getAllParams``: the node's parameters with its additional options over them."""
    extra = call.get_node_parameter("additionalOptions", {})
    return {**call.parameters, **(extra if isinstance(extra, dict) else {})}


@port("preSend", "handleDatesPresend", "e078274841b10cf8")
async def handle_dates(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """An event's start and end (date and time, or date alone) as ``event.schedule``."""
    params = _all_params(call)
    start = params.get("startDateTime") or params.get("startDate")
    end = params.get("endDateTime") or params.get("endDate")
    if not start and not end:
        return options
    body = dict(options["body"]) if isinstance(options.get("body"), dict) else {}
    event = body.get("event")
    event = event if isinstance(event, dict) else {}
    first = _date_time(str(start)) if start else None
    last = _date_time(str(end)) if end else None
    event["schedule"] = {
        "startDate": first["date"] if first else UNDEFINED,
        "endDate": last["date"] if last else UNDEFINED,
        "startTime": first["time"] if first else UNDEFINED,
        "endTime": last["time"] if last else UNDEFINED,
    }
    body["event"] = event
    options["body"] = body
    return options


@port("preSend", "addUpdateMaskPresend", "260c51c6dce8fe07")
async def add_update_mask(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The ``updateMask`` of a post update: the fields its additional options change."""
    extra = call.get_node_parameter("additionalOptions")
    if isinstance(extra, dict) and extra:
        qs = _dict(options.get("qs"))
        options["qs"] = {**qs, "updateMask": ",".join(_MASKS.get(str(key), str(key)) for key in extra)}
    return options


@port("pagination", "handlePagination", "beeb89d3dea3e5f9")
async def pagination(call: RoutingCall, data: RequestData) -> Items:
    """Pages following ``nextPageToken`` (all of them, or until ``limit`` posts or reviews)."""
    assert call.make_routing_request is not None
    return_all = call.get_node_parameter("returnAll")
    limit = 100
    if not return_all:
        limit = int(call.get_node_parameter("limit"))
        data.max_results = limit
    data.paginate = True
    found: list[Any] = []
    token: Any = None
    while True:
        if token:
            data.options["qs"] = {**_dict(data.options.get("qs")), "pageToken": token}
        for page in await call.make_routing_request(data):
            json_value = _dict(page.get("json"))
            for name in _ROOTS:
                if json_value.get(name):
                    found.extend(json_value[name])
            if not return_all and len(found) >= limit:
                return [{"json": item} for item in found[:limit]]
            token = json_value.get("nextPageToken")
        if not token:
            return [{"json": item} for item in found]


def _handle(call: RoutingCall, items: Items, response: dict[str, Any], name: str, words: str | None) -> Items:
    """A failed answer: the node's words for a 404 when the post or review is set (``words``), else n8n's
    ``NodeApiError`` with the status message."""
    status = response.get("statusCode")
    if isinstance(status, int) and 200 <= status < 300:
        return items
    if words is not None and call.get_node_parameter(name, None) and status == 404:
        raise NodeOperationError(call.node_name, words, item_index=call.item_index)
    raise response_error(call, response, message=str(response.get("statusMessage") or "") or None)


def _post_words(verb: str, goal: str) -> str:
    return f'The post you are {verb} could not be found. Adjust the "post" parameter setting to {goal} correctly.'


def _review_words(verb: str, goal: str) -> str:
    return (
        f'The review you are {verb} could not be found. Adjust the "review" parameter setting to {goal} the review '
        "correctly."
    )


@port("postReceive", "handleErrorsDeletePost", "6dcba32fdd270f09")
async def errors_delete_post(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return _handle(call, items, response, "post", _post_words("deleting", "delete the post"))


@port("postReceive", "handleErrorsGetPost", "eb8ec30a27a86bae")
async def errors_get_post(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return _handle(call, items, response, "post", _post_words("requesting", "retrieve the post"))


@port("postReceive", "handleErrorsUpdatePost", "a1c04c54f85a0a35")
async def errors_update_post(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """As the others, and a 400 without additional options is a success (n8n shows a hint instead)."""
    status = response.get("statusCode")
    if isinstance(status, int) and not 200 <= status < 300 and status != 404:
        extra = call.get_node_parameter("additionalOptions")
        if status == 400 and isinstance(extra, dict) and not extra:
            return [{"json": {"success": True}}]
    return _handle(call, items, response, "post", _post_words("updating", "update the post"))


@port("postReceive", "handleErrorsDeleteReply", "41872e8912dd6cd1")
async def errors_delete_reply(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return _handle(call, items, response, "review", _review_words("deleting", "update"))


@port("postReceive", "handleErrorsGetReview", "eae74fe2b841fa62")
async def errors_get_review(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return _handle(call, items, response, "review", _review_words("requesting", "update"))


@port("postReceive", "handleErrorsReplyToReview", "a3c51e8bf5d3b13c")
async def errors_reply_to_review(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return _handle(call, items, response, "review", _review_words("replying to", "reply to"))
