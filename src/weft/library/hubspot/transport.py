"""HubSpot's API as n8n's ``Hubspot/V2/GenericFunctions`` calls it: one request (``hubspotApiRequest``, arrays in
the query repeated) and every page of a list (``hubspotApiRequestAllItems``: ``offset``, ``vid-offset`` or the
search API's ``paging.next.after``)."""

from __future__ import annotations

from typing import Any

from weft.nodes.api import ApiRequests

API = "https://api.hubapi.com"
CREDENTIALS = {"apiKey": "hubspotApi", "appToken": "hubspotAppToken", "oAuth2": "hubspotOAuth2Api"}


async def hubspot_request(
    api: ApiRequests,
    method: str,
    endpoint: str,
    item_index: int = 0,
    body: Any = None,
    qs: dict[str, Any] | None = None,
) -> Any:
    """One request to ``https://api.hubapi.com<endpoint>``; an empty answer is ``None`` (n8n's ``undefined``)."""
    authentication = str(api.ctx.get_node_parameter("authentication", 0, "apiKey"))
    options: dict[str, Any] = {
        "method": method,
        "url": API + endpoint,
        "qs": dict(qs or {}),
        "json": True,
        "arrayFormat": "repeat",
    }
    if body is not None and method != "GET":
        options["body"] = body
    answer = await api.request(CREDENTIALS.get(authentication, "hubspotOAuth2Api"), options, item_index)
    return None if answer == "" else answer


async def hubspot_all(
    api: ApiRequests,
    key: str,
    method: str,
    endpoint: str,
    item_index: int = 0,
    body: dict[str, Any] | None = None,
    qs: dict[str, Any] | None = None,
) -> list[Any]:
    """Every entry under ``key`` of every page; ``qs`` keeps the last page's ``offset`` and ``vidOffset``, so the
    next item of the run starts there, as in n8n."""
    query: dict[str, Any] = qs if qs is not None else {}  # n8n changes the caller's query (shared by the items)
    query["limit"] = query.get("limit") or 250
    query["count"] = 100
    sent: dict[str, Any] = dict(body or {})
    sent["limit"] = sent.get("limit") or 100
    found: list[Any] = []
    while True:
        page = await hubspot_request(api, method, endpoint, item_index, sent, query) or {}
        _set(query, "offset", page.get("offset"))
        _set(query, "vidOffset", page.get("vid-offset"))
        if page.get("paging"):
            sent["after"] = ((page["paging"] or {}).get("next") or {}).get("after")
        found.extend(page.get(key) or [])
        if "/tickets/paged" in endpoint and query["limit"] <= len(found):
            return found
        if not (page.get("hasMore") or page.get("has-more") or page.get("paging")):
            return found


def _set(query: dict[str, Any], key: str, value: Any) -> None:
    """``query[key] = value``, where ``undefined`` leaves the key out of the query."""
    if value is None:
        query.pop(key, None)
    else:
        query[key] = value


__all__ = ["CREDENTIALS", "hubspot_all", "hubspot_request"]
