"""The operations of Slack 1 (n8n's ``SlackV1``), by resource: see :mod:`.v1`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.library.slack.transport import to_multi_options_csv
from weft.library.slack.v1 import V1Operation, _dict, _listed, _param, request, request_all
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope


def _attachments(value: Any) -> list[Any]:
    """V1 moves each attachment's ``fields.item`` up (an attachment without items loses ``fields``)."""
    out: list[Any] = []
    for attachment in value if isinstance(value, list) else []:
        attachment = dict(attachment) if isinstance(attachment, Mapping) else attachment
        if isinstance(attachment, dict) and "fields" in attachment:
            fields = attachment["fields"]
            if isinstance(fields, Mapping) and "item" in fields:
                attachment["fields"] = fields["item"]
            else:
                del attachment["fields"]
        out.append(attachment)
    return out


def _json_text(api: ApiRequests, body: dict[str, Any], scope: RoutingScope, index: int, key: str) -> None:
    """``attachmentsJson``/``blocksJson``: sent as the text it is, once it parses as JSON."""
    value = _param(scope, f"{key}Json", index, "")
    if value == "":
        return
    try:
        json.loads(value) if isinstance(value, str) else None
    except ValueError:
        label = "Attachments" if key == "attachments" else "Blocks"
        raise NodeOperationError(api.ctx.node.name, f"{label} it is not a valid json",
                                 description=f"Write {key}Json as a JSON array.") from None  # fmt: skip
    body[key] = value


async def post(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    operation = str(_param(scope, "operation", 0, "post"))
    other = _dict(scope, "otherOptions", index)
    body: dict[str, Any] = {"channel": _param(scope, "channel", index), "text": _param(scope, "text", index)}
    if operation == "postEphemeral":
        body["user"] = _param(scope, "user", index)
    if _param(scope, "authentication", 0, "accessToken") == "accessToken" and other.get("sendAsUser") != "":
        body["username"] = other.get("sendAsUser")
    if not _param(scope, "jsonParameters", index, False):
        body["attachments"] = _attachments(_param(scope, "attachments", index, []))
        blocks = (_dict(scope, "blocksUi", index)).get("blocksValues")
        if blocks:
            raise NodeOperationError(api.ctx.node.name, "Slack 1's blocks builder (blocksUi) is not supported",
                                     description="Give the blocks as JSON (JSON Parameters on, blocksJson), or use "
                                     "Slack 2.")  # fmt: skip
    else:
        _json_text(api, body, scope, index, "attachments")
        _json_text(api, body, scope, index, "blocks")
    body.update(other)
    if body.get("username") is None:
        body.pop("username", None)
    action = "postEphemeral" if operation == "postEphemeral" else "postMessage"
    return await request(api, "POST", f"/chat.{action}", body, None, index)


async def update(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    body: dict[str, Any] = {
        "channel": _param(scope, "channelId", index),
        "text": _param(scope, "text", index),
        "ts": _param(scope, "ts", index),
        "attachments": _attachments(_param(scope, "attachments", index, [])),
    }
    if _param(scope, "jsonParameters", index, False):
        _json_text(api, body, scope, index, "blocks")
        _json_text(api, body, scope, index, "attachments")
    body.update(_dict(scope, "updateFields", index))
    return await request(api, "POST", "/chat.update", body, None, index)


async def delete(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    body = {"channel": _param(scope, "channelId", index), "ts": _param(scope, "timestamp", index)}
    return await request(api, "POST", "/chat.delete", body, None, index)


async def permalink(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    qs = {"channel": _param(scope, "channelId", index), "message_ts": _param(scope, "timestamp", index)}
    return await request(api, "GET", "/chat.getPermalink", None, qs, index)


def _channel_call(method: str, extra: Mapping[str, str] | None = None, take: str | None = None) -> V1Operation:
    """A ``conversations.*`` call with the channel (and the named parameters); ``take``: the answer's field."""

    async def run(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
        body = {"channel": _param(scope, "channelId", index)}
        for key, parameter in (extra or {}).items():
            body[key] = _param(scope, parameter, index)
        answer = await request(api, "POST", f"/conversations.{method}", body, None, index)
        return answer.get(take) if take else answer

    return run


async def channel_create(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    body: dict[str, Any] = {"name": _param(scope, "channelId", index)}
    if _dict(scope, "additionalFields", index).get("isPrivate"):
        body["is_private"] = True
    return (await request(api, "POST", "/conversations.create", body, None, index)).get("channel")


async def channel_get(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    qs = {"channel": _param(scope, "channelId", index)}
    return (await request(api, "POST", "/conversations.info", None, qs, index)).get("channel")


async def channel_get_all(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    filters, qs = _dict(scope, "filters", index), {}
    if filters.get("types"):
        qs["types"] = to_multi_options_csv(filters["types"])
    if filters.get("excludeArchived"):
        qs["exclude_archived"] = filters["excludeArchived"]
    return await _listed(api, scope, index, "channels", "/conversations.list", qs)


async def _messages(api: ApiRequests, scope: RoutingScope, index: int, endpoint: str, ts: bool) -> Any:
    filters = _dict(scope, "filters", index)
    qs: dict[str, Any] = {"channel": _param(scope, "channelId", index)}
    if ts:
        qs["ts"] = _param(scope, "ts", index)
    if filters.get("inclusive"):
        qs["inclusive"] = filters["inclusive"]
    for key in ("latest", "oldest"):
        if filters.get(key):
            qs[key] = _epoch(api, filters[key], key)
    return await _listed(api, scope, index, "messages", endpoint, qs)


def _epoch(api: ApiRequests, value: Any, key: str) -> float | int:
    """``new Date(value).getTime() / 1000``."""
    from datetime import datetime

    try:
        stamp = datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()
    except ValueError:
        raise NodeOperationError(api.ctx.node.name, f"The filter '{key}' is not a date: {value!r}",
                                 description="Give an ISO date, e.g. 2025-01-01T00:00:00Z.") from None  # fmt: skip
    return int(stamp) if stamp == int(stamp) else stamp


async def channel_history(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    return await _messages(api, scope, index, "/conversations.history", False)


async def channel_replies(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    return await _messages(api, scope, index, "/conversations.replies", True)


async def channel_invite(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    body = {
        "channel": _param(scope, "channelId", index),
        "users": to_multi_options_csv(_param(scope, "userIds", index)),
    }
    return (await request(api, "POST", "/conversations.invite", body, None, index)).get("channel")


async def channel_member(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    qs: dict[str, Any] = {"channel": _param(scope, "channelId", index)}
    if _param(scope, "returnAll", 0, False):
        members = await request_all(api, "members", "/conversations.members", qs, index)
    else:
        qs["limit"] = _param(scope, "limit", index, 100)
        members = (await request(api, "GET", "/conversations.members", None, qs, index)).get("members") or []
    if not _param(scope, "resolveData", 0, False):
        return [{"member": member} for member in members]
    return [(await request(api, "GET", "/users.info", None, {"user": m}, index)).get("user") for m in members]


async def channel_open(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    options, body = _dict(scope, "options", index), {}
    if options.get("channelId"):
        body["channel"] = options["channelId"]
    if options.get("returnIm"):
        body["return_im"] = options["returnIm"]
    if options.get("users"):
        body["users"] = to_multi_options_csv(options["users"])
    return (await request(api, "POST", "/conversations.open", body, None, index)).get("channel")


async def reaction(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    operation = str(_param(scope, "operation", 0))
    channel, timestamp = _param(scope, "channelId", index), _param(scope, "timestamp", index)
    if operation == "get":
        return await request(api, "GET", "/reactions.get", None, {"channel": channel, "timestamp": timestamp}, index)
    body = {"channel": channel, "name": _param(scope, "name", index), "timestamp": timestamp}
    return await request(api, "POST", f"/reactions.{operation}", body, None, index)


async def star(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    operation = str(_param(scope, "operation", 0))
    if operation == "getAll":
        return await _listed(api, scope, index, "items", "/stars.list", {})
    options, body = _dict(scope, "options", index), {}
    for option, key in (("channelId", "channel"), ("fileId", "file"), ("fileComment", "file_comment")):
        if options.get(option):
            body[key] = options[option]
    if options.get("timestamp"):
        body["timestamp"] = options["timestamp"]
    return await request(api, "POST", "/stars.add" if operation == "add" else "/stars.remove", body, None, index)


async def user_info(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    return (await request(api, "GET", "/users.info", None, {"user": _param(scope, "user", index)}, index)).get("user")


async def user_get_all(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    return await _listed(api, scope, index, "members", "/users.list", {})


async def user_presence(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    return await request(api, "GET", "/users.getPresence", None, {"user": _param(scope, "user", index)}, index)


async def profile_get(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    qs = _dict(scope, "additionalFields", index)
    return (await request(api, "POST", "/users.profile.get", None, qs, index)).get("profile")


RESOURCES: dict[str, dict[str, V1Operation]] = {
    "message": {"post": post, "postEphemeral": post, "update": update, "delete": delete, "getPermalink": permalink},
    "channel": {
        "archive": _channel_call("archive"),
        "close": _channel_call("close"),
        "create": channel_create,
        "kick": _channel_call("kick", {"user": "userId"}),
        "join": _channel_call("join", take="channel"),
        "get": channel_get,
        "getAll": channel_get_all,
        "history": channel_history,
        "invite": channel_invite,
        "leave": _channel_call("leave"),
        "member": channel_member,
        "open": channel_open,
        "rename": _channel_call("rename", {"name": "name"}, take="channel"),
        "replies": channel_replies,
        "setPurpose": _channel_call("setPurpose", {"purpose": "purpose"}, take="channel"),
        "setTopic": _channel_call("setTopic", {"topic": "topic"}, take="channel"),
        "unarchive": _channel_call("unarchive"),
    },
    "reaction": {"add": reaction, "remove": reaction, "get": reaction},
    "star": {"add": star, "delete": star, "getAll": star},
    "user": {"info": user_info, "getAll": user_get_all, "getPresence": user_presence},
    "userProfile": {"get": profile_get},
}
