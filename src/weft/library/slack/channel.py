"""The Slack node's channel operations (n8n's ``SlackV2`` channel resource, the ``conversations.*`` methods)."""

from __future__ import annotations

from typing import Any

from weft.library.slack.message import _text, _unix
from weft.library.slack.transport import Operation, slack_api_request, slack_api_request_all_items, to_multi_options_csv
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope


def _channel(scope: RoutingScope, index: int) -> Any:
    return scope.parameter("channelId", index, {}, extract_value=True)


def _simple(method: str, field: str | None = None, extra: tuple[tuple[str, str], ...] = ()) -> Any:
    """An operation that posts ``{channel, ...extra}`` to ``conversations.<method>`` (its ``field`` answered)."""

    async def run(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
        body = {"channel": _channel(scope, index)}
        for key, name in extra:
            body[key] = scope.parameter(name, index)
        data = await slack_api_request(api, "POST", f"/conversations.{method}", body, {}, item_index=index)
        return data[field] if field else data

    return run


async def create(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    channel = str(_channel(scope, index))
    body = {
        "name": channel[1:] if channel[:1] == "#" else channel,
        "is_private": scope.parameter("channelVisibility", index) == "private",
    }
    data = await slack_api_request(api, "POST", "/conversations.create", body, {}, item_index=index)
    return data["channel"]


async def get(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    qs = {"channel": _channel(scope, index)}
    data = await slack_api_request(api, "POST", "/conversations.info", {}, qs, item_index=index)
    return data["channel"]


async def get_all(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    filters = scope.parameter("filters", index) or {}
    qs: dict[str, Any] = {}
    if filters.get("types"):
        qs["types"] = to_multi_options_csv(filters["types"])
    if filters.get("excludeArchived"):
        qs["exclude_archived"] = filters["excludeArchived"]
    if scope.parameter("returnAll", index):
        return await slack_api_request_all_items(api, "channels", "GET", "/conversations.list", {}, qs, index)
    qs["limit"] = scope.parameter("limit", index)
    data = await slack_api_request(api, "GET", "/conversations.list", {}, qs, item_index=index)
    return data["channels"]


def _time_filters(qs: dict[str, Any], filters: dict[str, Any]) -> None:
    if filters.get("inclusive"):
        qs["inclusive"] = filters["inclusive"]
    for name in ("latest", "oldest"):
        if filters.get(name):
            qs[name] = _unix(filters[name])


async def history(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    qs: dict[str, Any] = {"channel": _channel(scope, index)}
    _time_filters(qs, scope.parameter("filters", index) or {})
    if scope.parameter("returnAll", index):
        found = await slack_api_request_all_items(api, "messages", "GET", "/conversations.history", {}, qs, index)
    else:
        qs["limit"] = scope.parameter("limit", index)
        data = await slack_api_request(api, "GET", "/conversations.history", {}, qs, item_index=index)
        found = data["messages"]
    if version >= 2.4:  # Slack's order breaks between pages when "oldest" is given
        found.sort(key=lambda message: -float(message.get("ts") or 0))
    return found


async def replies(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    qs: dict[str, Any] = {"channel": _channel(scope, index), "ts": _text(scope.parameter("ts", index, None))}
    _time_filters(qs, scope.parameter("filters", index) or {})
    if scope.parameter("returnAll", index):
        return await slack_api_request_all_items(api, "messages", "GET", "/conversations.replies", {}, qs, index)
    qs["limit"] = scope.parameter("limit", index)
    data = await slack_api_request(api, "GET", "/conversations.replies", {}, qs, item_index=index)
    return data["messages"]


async def invite(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    body = {"channel": _channel(scope, index), "users": to_multi_options_csv(scope.parameter("userIds", index))}
    data = await slack_api_request(api, "POST", "/conversations.invite", body, {}, item_index=index)
    return data["channel"]


async def member(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    qs: dict[str, Any] = {"channel": _channel(scope, index)}
    if scope.parameter("returnAll", 0):
        ids = await slack_api_request_all_items(api, "members", "GET", "/conversations.members", {}, qs, index)
    else:
        qs["limit"] = scope.parameter("limit", index)
        ids = (await slack_api_request(api, "GET", "/conversations.members", {}, qs, item_index=index))["members"]
    if not scope.parameter("resolveData", 0):
        return [{"member": member_id} for member_id in ids]
    users = []
    for member_id in ids:
        data = await slack_api_request(api, "GET", "/users.info", {}, {"user": member_id}, item_index=index)
        users.append(data.get("user"))
    return users


async def open_conversation(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    options = scope.parameter("options", index) or {}
    body: dict[str, Any] = {}
    if options.get("channelId"):
        body["channel"] = options["channelId"]
    if options.get("returnIm"):
        body["return_im"] = options["returnIm"]
    if options.get("users"):
        body["users"] = to_multi_options_csv(options["users"])
    data = await slack_api_request(api, "POST", "/conversations.open", body, {}, item_index=index)
    return data["channel"]


OPERATIONS: dict[str, Operation] = {
    "archive": _simple("archive"),
    "close": _simple("close"),
    "create": create,
    "kick": _simple("kick", None, (("user", "userId"),)),
    "join": _simple("join", "channel"),
    "get": get,
    "getAll": get_all,
    "history": history,
    "invite": invite,
    "leave": _simple("leave"),
    "member": member,
    "open": open_conversation,
    "rename": _simple("rename", "channel", (("name", "name"),)),
    "replies": replies,
    "setPurpose": _simple("setPurpose", "channel", (("purpose", "purpose"),)),
    "setTopic": _simple("setTopic", "channel", (("topic", "topic"),)),
    "unarchive": _simple("unarchive"),
}
