"""Slack 1 (``n8n-nodes-base.slack`` typeVersion 1, n8n's ``SlackV1``): messages (post with text, attachments or
JSON blocks and the other options, update, delete, permalink), channels (``conversations.*``), reactions, stars,
users and user profiles, over V1's ``slackApiRequest``.

V1 differs from 2.x: an ``ok: false`` answer fails as ``Slack error response: <the whole answer as JSON>``, a
message's ``ts`` is answered unchanged, the channel parameters are plain text, and each operation answers Slack's
body as it is (or the one field n8n takes out of it). Resources and operations V1 has that are not ported here
(file upload, the blocks builder, user groups) answer a typed error naming the operation."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.library.slack.transport import SLACK_API, _credential
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope

#: An operation: ``(api, scope, item index) -> the answer``.
V1Operation = Callable[[ApiRequests, RoutingScope, int], Awaitable[Any]]


async def request(
    api: ApiRequests,
    method: str,
    resource: str,
    body: Mapping[str, Any] | None = None,
    query: Mapping[str, Any] | None = None,
    item_index: int = 0,
) -> Any:
    """V1's ``slackApiRequest``: Slack's body; ``ok: false`` raises with the whole answer."""
    credential_type, signing = await _credential(api)
    options: dict[str, Any] = {
        "method": method,
        "url": f"{SLACK_API}{resource}",
        "headers": {"Content-Type": "application/json; charset=utf-8", **signing},
        "json": True,
    }
    if body:
        options["body"] = dict(body)
    if query:
        options["qs"] = dict(query)
    try:
        data = await api.request(credential_type, options, item_index)
    except NodeApiError as error:
        raise NodeOperationError(api.ctx.node.name, error.message, description=error.description) from error
    if isinstance(data, dict) and data.get("ok") is False:
        node = api.ctx.node.name
        if data.get("error") == "paid_teams_only":
            resource_name = api.ctx.get_node_parameter("resource", 0, "message")
            raise NodeOperationError(node, f"Your current Slack plan does not include the resource '{resource_name}'",
                                     description="Hint: Upgrate to the Slack plan that includes the funcionality you "
                                     "want to use.")  # fmt: skip
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        raise NodeOperationError(node, f"Slack error response: {text}")
    return data


async def request_all(
    api: ApiRequests, prop: str, endpoint: str, query: Mapping[str, Any], item_index: int = 0
) -> list[Any]:
    """V1's ``slackApiRequestAllItems``: ``prop`` over every page (cursor, or classic ``paging``)."""
    qs: dict[str, Any] = {**query, "page": 1}
    if "files.list" in endpoint:
        qs["count"] = 100
    else:
        qs["limit"] = 100
    found: list[Any] = []
    while True:
        data = await request(api, "GET", endpoint, None, qs, item_index)
        cursor = (data.get("response_metadata") or {}).get("next_cursor")
        if cursor is not None:
            qs["cursor"] = cursor
        else:
            qs.pop("cursor", None)
        qs["page"] += 1
        entries = data.get(prop)
        found.extend(entries if isinstance(entries, list) else [])
        paging = data.get("paging") or {}
        more_pages = paging.get("pages") is not None and paging.get("page") is not None
        if cursor not in (None, "") or (more_pages and paging["page"] < paging["pages"]):
            continue
        return found


def _param(scope: RoutingScope, name: str, index: int, default: Any = None) -> Any:
    return scope.parameter(name, index, default)


def _dict(scope: RoutingScope, name: str, index: int) -> dict[str, Any]:
    value = scope.parameter(name, index, {})
    return dict(value) if isinstance(value, Mapping) else {}


async def _listed(
    api: ApiRequests, scope: RoutingScope, index: int, prop: str, endpoint: str, qs: dict[str, Any]
) -> Any:
    """A list operation: every page with ``returnAll``, else one page of ``limit``."""
    if _param(scope, "returnAll", index, False):
        return await request_all(api, prop, endpoint, qs, index)
    qs["limit"] = _param(scope, "limit", index, 100)
    return (await request(api, "GET", endpoint, None, qs, index)).get(prop)
