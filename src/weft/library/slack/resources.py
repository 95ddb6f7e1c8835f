"""The Slack node's reaction, star, user and user group operations (n8n's ``SlackV2``)."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.slack.message import _text
from weft.library.slack.transport import Operation, slack_api_request, slack_api_request_all_items
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope


def _reaction(method: str, http: str = "POST") -> Any:
    async def run(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
        channel = scope.parameter("channelId", index, {}, extract_value=True)
        timestamp = _text(scope.parameter("timestamp", index, None))
        if method == "get":
            qs = {"channel": channel, "timestamp": timestamp}
            return await slack_api_request(api, "GET", "/reactions.get", {}, qs, item_index=index)
        body = {"channel": channel, "name": scope.parameter("name", index), "timestamp": timestamp}
        return await slack_api_request(api, http, f"/reactions.{method}", body, {}, item_index=index)

    return run


REACTION: dict[str, Operation] = {"add": _reaction("add"), "remove": _reaction("remove"), "get": _reaction("get")}


async def star_add(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    options = scope.parameter("options", index) or {}
    kind = scope.parameter("target", index)
    body: dict[str, Any] = {"channel": scope.parameter("channelId", index, {}, extract_value=True)}
    if kind == "message":
        body["timestamp"] = _text(scope.parameter("timestamp", index, None))
    if kind == "file":
        body["file"] = scope.parameter("fileId", index)
    if options.get("fileComment"):
        body["file_comment"] = options["fileComment"]
    return await slack_api_request(api, "POST", "/stars.add", body, {}, item_index=index)


async def star_delete(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    options = scope.parameter("options", index) or {}
    names = (("channelId", "channel"), ("fileId", "file"), ("fileComment", "file_comment"), ("timestamp", "timestamp"))
    body = {field: options[name] for name, field in names if options.get(name)}
    return await slack_api_request(api, "POST", "/stars.remove", body, {}, item_index=index)


async def star_get_all(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    if scope.parameter("returnAll", index):
        return await slack_api_request_all_items(api, "items", "GET", "/stars.list", {}, {}, index)
    data = await slack_api_request(api, "GET", "/stars.list", {}, {"limit": scope.parameter("limit", index)},
                                   item_index=index)  # fmt: skip
    return data["items"]


STAR: dict[str, Operation] = {"add": star_add, "delete": star_delete, "getAll": star_get_all}


def _user_lookup(method: str, field: str | None, param: str = "user") -> Any:
    async def run(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
        value = scope.parameter(param, index, None, extract_value=True)
        data = await slack_api_request(api, "GET", f"/{method}", {}, {param: value}, item_index=index)
        return data[field] if field else data

    return run


async def user_get_all(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    if scope.parameter("returnAll", index):
        return await slack_api_request_all_items(api, "members", "GET", "/users.list", {}, {}, index)
    data = await slack_api_request(api, "GET", "/users.list", {}, {"limit": scope.parameter("limit", index)},
                                   item_index=index)  # fmt: skip
    return data["members"]


USER: dict[str, Operation] = {
    "info": _user_lookup("users.info", "user"),
    "lookupByEmail": _user_lookup("users.lookupByEmail", "user", "email"),
    "getAll": user_get_all,
    "getPresence": _user_lookup("users.getPresence", None),
    "getProfile": _user_lookup("users.profile.get", "profile"),
}


def _group_call(method: str, options_name: str) -> Any:
    """``usergroups.<method>`` with ``{usergroup, ...options}`` (the ``usergroup`` answered)."""

    async def run(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
        body = {"usergroup": scope.parameter("userGroupId", index)}
        body.update(scope.parameter(options_name, index) or {})
        data = await slack_api_request(api, "POST", f"/usergroups.{method}", body, {}, item_index=index)
        return data["usergroup"]

    return run


async def group_create(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    body = {"name": scope.parameter("name", index), **(scope.parameter("Options", index) or {})}
    data = await slack_api_request(api, "POST", "/usergroups.create", body, {}, item_index=index)
    return data["usergroup"]


async def group_get_all(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    qs = dict(scope.parameter("options", index) or {})
    groups = (await slack_api_request(api, "GET", "/usergroups.list", {}, qs, item_index=index))["usergroups"]
    if not scope.parameter("returnAll", index):
        groups = groups[: int(scope.parameter("limit", index))]
    return groups


async def _group(api: ApiRequests, group_id: Any, index: int) -> dict[str, Any] | None:
    qs = {"include_users": True, "usergroup": group_id}
    data = await slack_api_request(api, "GET", "/usergroups.list", {}, qs, item_index=index)
    return next((g for g in data["usergroups"] if g.get("id") == group_id), None)


async def group_update_users(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    group_id = scope.parameter("userGroupId", index)
    adding = scope.parameter("users", index) or []
    current = await _group(api, group_id, index)
    users = list(dict.fromkeys([*((current or {}).get("users") or []), *adding]))
    body = {
        "usergroup": group_id,
        "users": ",".join(str(u) for u in users),
        **(scope.parameter("options", index) or {}),
    }
    data = await slack_api_request(api, "POST", "/usergroups.users.update", body, {}, item_index=index)
    return data["usergroup"]


async def group_get_users(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    group_id = scope.parameter("userGroupId", index)
    options = scope.parameter("options", index) or {}
    group = await _group(api, group_id, index)
    if group is None:
        raise NodeOperationError(scope.node_name, f'User group with ID "{group_id}" not found', item_index=index)
    ids = group.get("users") or []
    if options.get("resolveData", True) is not False and ids:
        users = []
        for user_id in ids:
            data = await slack_api_request(api, "GET", "/users.info", {}, {"user": user_id}, item_index=index)
            users.append(data.get("user"))
        return users
    return [{"id": user_id} for user_id in ids]


USER_GROUP: dict[str, Operation] = {
    "create": group_create,
    "enable": _group_call("enable", "option"),
    "disable": _group_call("disable", "options"),
    "getAll": group_get_all,
    "update": _group_call("update", "updateFields"),
    "updateUsers": group_update_users,
    "getUsers": group_get_users,
}
