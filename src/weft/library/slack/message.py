"""The Slack node's message operations (n8n's ``SlackV2`` message resource): post (or ephemeral), update,
delete, permalink, search, and the scheduled messages of 2.41's node."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from weft.errors import NodeOperationError
from weft.library.slack.content import message_content, target, thread_options
from weft.library.slack.transport import Operation, slack_api_request, slack_api_request_all_items
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope


def _unix(value: Any) -> float:
    """``new Date(value).getTime() / 1000`` for an ISO date text or a number of milliseconds."""
    if isinstance(value, int | float):
        return float(value) / 1000
    text = str(value).replace("Z", "+00:00")
    return datetime.fromisoformat(text).timestamp()


def _bot_profile(body: dict[str, Any], options: dict[str, Any]) -> None:
    profile = options.pop("botProfile", None)
    if profile:
        values = profile.get("imageValues") or {}
        if values.get("profilePhotoType") == "image":
            body["icon_url"] = values.get("icon_url")
        else:
            body["icon_emoji"] = values.get("icon_emoji")


async def post(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    select = scope.parameter("select", index)
    to = target(scope, index, select)
    options = dict(scope.parameter("otherOptions", index) or {})
    body: dict[str, Any] = {"channel": to, **message_content(scope, index, version)}
    send_as = options.get("sendAsUser")
    if scope.parameter("authentication", 0, "accessToken") == "accessToken" and send_as not in ("", None):
        body["username"] = send_as
    action = "postMessage"
    ephemeral = options.get("ephemeral")
    if ephemeral:
        if select == "channel":
            user = (ephemeral.get("ephemeralValues") or {}).get("user") or {}
            value = user.get("value")
            by_name = user.get("mode") == "username" and not str(value)[:1] == "@"
            body["user"] = f"@{value}" if by_name else value
            action = "postEphemeral"
        elif select == "user":
            body["user"] = to
            action = "postEphemeral"
    body.update(thread_options(options.pop("thread_ts", None)))
    options.pop("ephemeral", None)
    _bot_profile(body, options)
    body.update(options)
    locator = scope.parameter("user", index, None)
    if (
        select == "user"
        and action == "postEphemeral"
        and isinstance(locator, dict)
        and locator.get("mode") == "username"
    ):
        raise NodeOperationError(scope.node_name, 'You cannot send ephemeral messages using User type "By username". '
                                 'Please use "From List" or "By ID".', item_index=index)  # fmt: skip
    return await slack_api_request(api, "POST", f"/chat.{action}", body, {}, item_index=index)


async def schedule(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    select = scope.parameter("select", index)
    options = dict(scope.parameter("otherOptions", index) or {})
    body: dict[str, Any] = {"channel": target(scope, index, select),
                            "post_at": int(_unix(scope.parameter("postAt", index)) // 1),
                            **message_content(scope, index, version)}  # fmt: skip
    send_as = options.get("sendAsUser")
    if scope.parameter("authentication", 0, "accessToken") == "accessToken" and send_as not in ("", None):
        body["username"] = send_as
    body.update(thread_options(options.pop("thread_ts", None)))
    options.pop("ephemeral", None)
    _bot_profile(body, options)
    body.update(options)
    return await slack_api_request(api, "POST", "/chat.scheduleMessage", body, {}, item_index=index)


async def update(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    body: dict[str, Any] = {
        "channel": scope.parameter("channelId", index, {}, extract_value=True),
        "ts": _text(scope.parameter("ts", index, None)),
        **message_content(scope, index, version),
    }
    body.update(scope.parameter("updateFields", index) or {})
    return await slack_api_request(api, "POST", "/chat.update", body, {}, item_index=index)


def _text(value: Any) -> Any:
    """``value?.toString()``."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


async def delete(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    select = scope.parameter("select", index)
    to = target(scope, index, "channel" if select == "channel" else "user")
    body = {"channel": to, "ts": _text(scope.parameter("timestamp", index, None))}
    return await slack_api_request(api, "POST", "/chat.delete", body, {}, item_index=index)


async def get_permalink(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    qs = {
        "channel": scope.parameter("channelId", index, {}, extract_value=True),
        "message_ts": _text(scope.parameter("timestamp", index, None)),
    }
    return await slack_api_request(api, "GET", "/chat.getPermalink", {}, qs, item_index=index)


async def search(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    if version >= 2.7:
        raise NodeOperationError(scope.node_name, "Slack's real-time search (Search, node version 2.7) is not "
                                 "supported yet", item_index=index, description="Set the node's version to 2.6 to "
                                 "search with search.messages.")  # fmt: skip
    query = str(scope.parameter("query", index))
    sort = scope.parameter("sort", index)
    options = scope.parameter("options", index) or {}
    for channel in options.get("searchChannel") or []:
        query += f" in:{channel}"
    qs: dict[str, Any] = {
        "query": query,
        "sort": "score" if sort == "relevance" else "timestamp",
        "sort_dir": "asc" if sort == "asc" else "desc",
    }
    if scope.parameter("returnAll", index, False):
        return await slack_api_request_all_items(api, "messages", "GET", "/search.messages", {}, qs, index)
    qs["count"] = scope.parameter("limit", index)
    data = await slack_api_request(api, "POST", "/search.messages", {}, qs, item_index=index)
    return data["messages"]["matches"]


async def delete_scheduled(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    body = {
        "channel": scope.parameter("channelId", index, {}, extract_value=True),
        "scheduled_message_id": scope.parameter("scheduledMessageId", index),
    }
    return await slack_api_request(api, "POST", "/chat.deleteScheduledMessage", body, {}, item_index=index)


async def get_many_scheduled(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    filters = scope.parameter("filters", index) or {}
    qs: dict[str, Any] = {}
    if filters.get("channelId"):
        qs["channel"] = scope.parameter("filters.channelId", index, "", extract_value=True)
    for name in ("latest", "oldest"):
        if filters.get(name):
            qs[name] = int(_unix(filters[name]) // 1)
    if scope.parameter("returnAll", index):
        return await slack_api_request_all_items(
            api, "scheduled_messages", "GET", "/chat.scheduledMessages.list", {}, qs, index
        )
    qs["limit"] = scope.parameter("limit", index)
    data = await slack_api_request(api, "GET", "/chat.scheduledMessages.list", {}, qs, item_index=index)
    return data["scheduled_messages"]


OPERATIONS: dict[str, Operation] = {
    "post": post,
    "schedule": schedule,
    "update": update,
    "delete": delete,
    "getPermalink": get_permalink,
    "search": search,
    "deleteScheduled": delete_scheduled,
    "getManyScheduled": get_many_scheduled,
}
