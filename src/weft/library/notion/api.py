"""Notion's API as n8n's Notion node calls it (``notionApiRequest``, ``notionApiRequestAllItems``,
``notionApiRequestGetBlockChildrens``): ``https://api.notion.com/v1``, the integration secret as a Bearer token,
the ``Notion-Version`` of the node's version, cursor pages."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext

BASE_URL = "https://api.notion.com/v1"
API_VERSIONS = {1: "2021-05-13", 2: "2021-08-16", 2.1: "2021-08-16", 2.2: "2021-08-16", 3: "2026-03-11"}


def segment(value: Any) -> str:
    """n8n's ``toPathSegment``: the id percent-encoded as one path segment."""
    return quote(str(value), safe="!'()*-._~")


class Notion:
    """One node run's Notion requests."""

    def __init__(self, ctx: ExecuteContext, api: ApiRequests) -> None:
        self.ctx = ctx
        self.api = api

    async def request(
        self, method: str, resource: str, body: dict[str, Any] | None = None, qs: dict[str, Any] | None = None,
        index: int = 0, uri: str | None = None, **options: Any,
    ) -> Any:  # fmt: skip
        """``notionApiRequest``."""
        version = API_VERSIONS.get(self.ctx.node.typeVersion, "2021-08-16")
        request: dict[str, Any] = {
            "headers": {"Notion-Version": version},
            "method": method,
            "qs": qs or {},
            "url": uri or f"{BASE_URL}{resource}",
            "json": True,
            **options,
        }
        if body:
            request["body"] = body
        return await self.api.request(None if uri else self._credential_type(), request, index)

    def _credential_type(self) -> str:
        """Version 3 also signs in with OAuth2 (its ``authentication`` parameter); earlier versions with the key."""
        if self.ctx.node.typeVersion >= 3 and self.ctx.get_node_parameter("authentication", 0, "apiKey") == "oAuth2":
            return "notionOAuth2Api"
        return "notionApi"

    async def all_items(
        self, method: str, endpoint: str, body: dict[str, Any] | None = None, query: dict[str, Any] | None = None,
        index: int = 0,
    ) -> list[Any]:  # fmt: skip
        """``notionApiRequestAllItems``: every page's ``results`` (at most ``query["limit"]``); the cursor goes in
        the query for blocks and users (in 3: for a GET), else in the body."""
        body = dict(body or {})
        query = dict(query or {})
        limit = query.pop("limit", None)
        if self.ctx.node.typeVersion >= 3:
            cursor_in_query = method == "GET"
        else:
            cursor_in_query = self.ctx.get_node_parameter("resource", 0) in ("block", "user")
        results: list[Any] = []
        while True:
            response = await self.request(method, endpoint, body, query, index)
            cursor = response.get("next_cursor")
            if cursor_in_query:
                query["start_cursor"] = cursor
            else:
                body["start_cursor"] = cursor
            results.extend(response.get("results") or [])
            if limit and limit <= len(results):
                return results[:limit]
            if response.get("has_more") is False:
                break
        return results[:limit] if limit else results

    async def with_children(
        self, blocks: list[dict[str, Any]], found: list[dict[str, Any]] | None = None, limit: int | None = None,
        index: int = 0,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """``notionApiRequestGetBlockChildrens``: the blocks with their nested blocks after each, depth first."""
        found = [] if found is None else found
        for block in blocks:
            found.append(block)
            if block.get("type") in ("child_page", "unsupported"):
                continue
            if block.get("has_children"):
                path = f"/blocks/{segment(block['id'])}/children"
                children = await self.all_items("GET", path, {}, {}, index)
                children = [{"object": c.get("object"), "parent_id": block["id"], **c} for c in children]
                await self.with_children(children, found, None, index)
            if limit and len(found) >= limit:
                return found[:limit]
        return found
