"""Slack 1's files (get, getAll), user groups (create, enable, disable, getAll, update) and the user profile's
update: see :mod:`.v1`."""

from __future__ import annotations

from typing import Any

from weft.library.slack.transport import to_multi_options_csv
from weft.library.slack.v1 import V1Operation, _dict, _param, request, request_all
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope

_FILE_FILTERS = (("channelId", "channel"), ("showFilesHidden", "show_files_hidden_by_limit"), ("tsFrom", "ts_from"),
                 ("tsTo", "ts_to"), ("userId", "user"))  # fmt: skip


async def file_get(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    qs = {"file": _param(scope, "fileId", index)}
    return (await request(api, "GET", "/files.info", None, qs, index)).get("file")


async def file_get_all(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    filters, qs = _dict(scope, "filters", index), {}
    for option, key in _FILE_FILTERS:
        if filters.get(option):
            qs[key] = filters[option]
    if filters.get("types"):
        qs["types"] = to_multi_options_csv(filters["types"])
    if _param(scope, "returnAll", index, False):
        return await request_all(api, "files", "/files.list", qs, index)
    qs["count"] = _param(scope, "limit", index, 50)
    return (await request(api, "GET", "/files.list", None, qs, index)).get("files")


def _group_call(method: str, first: str, parameter: str, fields: str) -> V1Operation:
    """A ``usergroups.*`` call: ``{first: <parameter>}`` and the collection ``fields``; answers ``usergroup``."""

    async def run(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
        body = {first: _param(scope, parameter, index), **_dict(scope, fields, index)}
        return (await request(api, "POST", f"/usergroups.{method}", body, None, index)).get("usergroup")

    return run


async def group_get_all(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    answer = await request(api, "GET", "/usergroups.list", None, _dict(scope, "additionalFields", index), index)
    groups = answer.get("usergroups")
    if _param(scope, "returnAll", index, False) or not isinstance(groups, list):
        return groups
    return groups[: int(_param(scope, "limit", index, 100))]


async def profile_update(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    """``users.profile.set`` with the fields as the profile; ``status_expiration`` as Unix seconds (a date without
    an offset in the workflow's timezone, 0 when not given); custom fields as Slack's ``fields``."""
    body = _dict(scope, "additionalFields", index)
    given = body.get("status_expiration")
    body["status_expiration"] = 0 if given is None else _unix(api, given)
    if body.get("customFieldUi"):
        values = body["customFieldUi"].get("customFieldValues") or [] if isinstance(body["customFieldUi"], dict) else []
        body["fields"] = {field.get("id"): {"value": field.get("value"), "alt": field.get("alt")} for field in values}
    answer = await request(api, "POST", "/users.profile.set", {"profile": body}, None, index)
    return answer.get("profile")


def _unix(api: ApiRequests, value: Any) -> int:
    """``moment.tz(value, timezone).unix()``."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from weft.errors import NodeOperationError
    from weft.nodes.timezones import workflow_timezone

    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise NodeOperationError(api.ctx.node.name, f"The field 'status_expiration' is not a date: {value!r}",
                                 description="Give an ISO date, e.g. 2025-01-31T18:00:00.") from None  # fmt: skip
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(workflow_timezone(api.ctx)))
    return int(moment.timestamp())


FILE: dict[str, V1Operation] = {"get": file_get, "getAll": file_get_all}
USER_GROUP: dict[str, V1Operation] = {
    "create": _group_call("create", "name", "name", "additionalFields"),
    "enable": _group_call("enable", "usergroup", "userGroupId", "additionalFields"),
    "disable": _group_call("disable", "usergroup", "userGroupId", "additionalFields"),
    "getAll": group_get_all,
    "update": _group_call("update", "usergroup", "userGroupId", "updateFields"),
}
