"""Notion's database and data source queries (``POST /v1/databases/<id>/query``, ``…/data_sources/<id>/query``)
for the Notion Trigger's tests: the pages the test put in :attr:`NotionState.pages`, sorted by the requested
timestamp (descending), filtered by ``on_or_after``, ``page_size`` and ``start_cursor``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "api.notion.com"
TOKEN = "secret_notion_trigger"


@dataclass
class NotionState:
    pages: list[dict[str, Any]] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)

    def add(self, page_id: str, created: str, edited: str, name: str) -> None:
        title = {
            "id": "title",
            "type": "title",
            "title": [{"type": "text", "plain_text": name, "text": {"content": name}}],
        }
        self.pages.append(
            {
                "object": "page",
                "id": page_id,
                "created_time": created,
                "last_edited_time": edited,
                "parent": {"type": "database_id", "database_id": "db1"},
                "url": f"https://www.notion.so/{page_id}",
                "properties": {"Name": title},
            }
        )


def _time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def install(server: FakeApiServer, token: str = TOKEN) -> NotionState:
    state = NotionState()

    def query(request: ApiRequest) -> ApiReply:
        if request.headers.get("authorization") != f"Bearer {token}":
            return json_error(
                401, {"object": "error", "status": 401, "code": "unauthorized", "message": "API token is invalid."}
            )
        body = request.body if isinstance(request.body, dict) else {}
        state.bodies.append(body)
        state.versions.append(request.headers.get("notion-version", ""))
        sort = body["sorts"][0]["timestamp"]
        pages = sorted(state.pages, key=lambda p: p[sort], reverse=True)
        since = ((body.get("filter") or {}).get(sort) or {}).get("on_or_after")
        if since:
            pages = [p for p in pages if _time(p[sort]) >= _time(since)]
        start = int(body.get("start_cursor") or 0)
        size = int(body.get("page_size") or 100)
        chunk = pages[start : start + size]
        more = start + size < len(pages)
        return ApiReply(
            body={
                "object": "list",
                "results": chunk,
                "has_more": more,
                "next_cursor": str(start + size) if more else None,
            }
        )

    server.route("POST", r"/v1/(databases|data_sources)/(?P<id>[\w-]+)/query", query, host=HOST)
    return state
