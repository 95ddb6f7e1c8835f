"""Airtable's Web API as n8n's ``Airtable/v2/transport`` calls it: one request (``apiRequest``), every page of a
list (``apiRequestAllItems``: ``pageSize=100``, following ``offset``) and record updates in batches of ten
(``batchUpdate``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from weft.nodes.api import ApiRequests

API = "https://api.airtable.com/v0/"
#: Characters JavaScript's ``encodeURI`` leaves as they are (besides letters and digits).
_ENCODE_URI_SAFE = ";,/?:@&=+$-_.!~*'()#"


def encode_uri(text: str) -> str:
    """JavaScript's ``encodeURI``."""
    return quote(text, safe=_ENCODE_URI_SAFE)


async def airtable_request(
    api: ApiRequests,
    method: str,
    endpoint: str,
    item_index: int = 0,
    body: dict[str, Any] | None = None,
    qs: dict[str, Any] | None = None,
) -> Any:
    """One request to ``https://api.airtable.com/v0/<endpoint>`` with the node's credential."""
    authentication = str(api.ctx.get_node_parameter("authentication", 0, "airtableTokenApi"))
    options: dict[str, Any] = {"method": method, "url": API + endpoint, "qs": dict(qs or {}), "json": True}
    if body:
        options["body"] = body
    return await api.request(authentication, options, item_index)


async def airtable_all(
    api: ApiRequests, endpoint: str, item_index: int = 0, qs: dict[str, Any] | None = None
) -> list[Any]:
    """Every record of a list: pages of 100, following ``offset`` until the answer has none."""
    query: dict[str, Any] = {**(qs or {}), "pageSize": 100}
    records: list[Any] = []
    while True:
        page = await airtable_request(api, "GET", endpoint, item_index, None, query)
        records.extend((page or {}).get("records") or [])
        offset = (page or {}).get("offset")
        if offset is None:
            return records
        query["offset"] = offset


async def batch_update(
    api: ApiRequests, endpoint: str, body: dict[str, Any], records: list[dict[str, Any]], item_index: int
) -> list[Any]:
    """PATCH ``records`` ten at a time; the updated records."""
    if not records:
        return []
    updated: list[Any] = []
    for start in range(0, len(records), 10):
        answer = await airtable_request(
            api, "PATCH", endpoint, item_index, {**body, "records": records[start : start + 10]}
        )
        updated.extend((answer or {}).get("records") or [])
    return updated


__all__ = ["airtable_all", "airtable_request", "batch_update", "encode_uri"]
