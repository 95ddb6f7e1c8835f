"""n8n's Todoist ``GenericFunctions``: a REST request (``todoistApiRequest``: ``api.todoist.com/rest/v2`` before
node version 2.2, ``/api/v1`` from it), a Sync API request (``todoistSyncRequest``) and a whole list
(``todoistApiGetAllRequest``: the array, cut to the limit, before 2.2; ``results`` pages by ``next_cursor`` from
2.2)."""

from __future__ import annotations

import re
from typing import Any

from weft.nodes.api import ApiRequests

_PAGE_MAX = 200


def _version(api: ApiRequests) -> float:
    return float(api.ctx.node.typeVersion)


def format_due_datetime(iso: str) -> str:
    """n8n's ``FormatDueDatetime``: ``.000Z`` at the end becomes ``Z`` (the dot matches any character)."""
    return re.sub(r".000Z$", "Z", iso)


async def todoist_request(
    api: ApiRequests, method: str, resource: str, item_index: int, body: dict[str, Any] | None = None,
    qs: dict[str, Any] | None = None,
) -> Any:  # fmt: skip
    """``todoistApiRequest``: ``resource`` (``/tasks``) on the REST API of the node's version."""
    authentication = api.ctx.get_node_parameter("authentication", 0)
    endpoint = "api.todoist.com/api/v1" if _version(api) >= 2.2 else "api.todoist.com/rest/v2"
    options: dict[str, Any] = {"method": method, "qs": qs or {}, "url": f"https://{endpoint}{resource}", "json": True}
    if body:
        options["body"] = body
    kind = "todoistApi" if authentication == "apiKey" else "todoistOAuth2Api"
    return await api.request(kind, options, item_index)


async def todoist_sync_request(api: ApiRequests, body: dict[str, Any], item_index: int, endpoint: str = "/sync") -> Any:
    """``todoistSyncRequest``: a POST to the Sync API (``/sync/v9`` before 2.2, ``/api/v1`` from it)."""
    authentication = api.ctx.get_node_parameter("authentication", 0, "oAuth2")
    base = "https://api.todoist.com/api/v1" if _version(api) >= 2.2 else "https://api.todoist.com/sync/v9"
    options: dict[str, Any] = {"headers": {}, "method": "POST", "qs": {}, "url": f"{base}{endpoint}", "json": True}
    if body:
        options["body"] = body
    kind = "todoistOAuth2Api" if authentication == "oAuth2" else "todoistApi"
    return await api.request(kind, options, item_index)


async def todoist_get_all(
    api: ApiRequests, resource: str, item_index: int, qs: dict[str, Any] | None = None, limit: int | None = None
) -> list[Any]:
    """``todoistApiGetAllRequest``: every entry (at most ``limit``)."""
    qs = qs or {}
    if _version(api) < 2.2:
        found = await todoist_request(api, "GET", resource, item_index, None, qs)
        rows = list(found) if isinstance(found, list) else []
        return rows[: max(limit, 0)] if limit else rows
    if limit is not None and limit <= 0:
        return []
    results: list[Any] = []
    cursor: Any = None
    while True:
        request_qs = dict(qs)
        if cursor:
            request_qs["cursor"] = cursor
        if limit is not None and limit > 0:
            request_qs["limit"] = min(limit - len(results), _PAGE_MAX)
        response = await todoist_request(api, "GET", resource, item_index, None, request_qs)
        page = response.get("results") if isinstance(response, dict) else None
        if not isinstance(page, list):
            return results
        if limit is not None and limit > 0:
            results.extend(page[: limit - len(results)])
            if len(results) >= limit:
                return results
        else:
            results.extend(page)
        cursor = response.get("next_cursor")
        if cursor is None:
            return results


__all__ = ["format_due_datetime", "todoist_get_all", "todoist_request", "todoist_sync_request"]
