"""A fake Notion API (``https://api.notion.com/v1``), as Notion answers: Bearer auth and a ``Notion-Version``
header, its error bodies (``{"object": "error", "status": 404, "code": "object_not_found", "message": ...}``),
cursor pages (``start_cursor`` / ``next_cursor`` / ``has_more``, at most :data:`PAGE` results each), 429
``rate_limited`` with ``Retry-After`` for the page :data:`RATE_LIMITED`. Fixed seeded data: users, a "Tasks"
database with every common property type and five pages, a workspace page with nested blocks. It keeps no state:
a created or updated page is built from the request, so cases run in any order.

From ``Notion-Version`` 2025-09-03 on (the Notion node 3 sends 2026-03-11) it answers as Notion's API of data
sources does: each database holds one data source (``/v1/data_sources/{id}``, ``/v1/data_sources/{id}/query``),
a database lists its ``data_sources`` instead of properties, a database page's parent is its data source, search
finds pages and data sources, blocks carry ``rich_text``, pages go to the trash with ``in_trash``.

Its parts: the seeded data (:mod:`._notion_data`), what every handler shares (:mod:`._notion_common`), queries
(:mod:`._notion_query`), pages (:mod:`._notion_pages`) and blocks (:mod:`._notion_blocks`); this module serves
users, databases, data sources and search, and routes them all.
"""

from __future__ import annotations

import json
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, require
from weft.testing.saas._notion_blocks import append_children, block_children
from weft.testing.saas._notion_common import (
    authorized,
    canonical,
    data_source,
    database_with_sources,
    error,
    list_page,
    new_api,
    not_found,
    request_body,
    title_of,
    versioned,
)
from weft.testing.saas._notion_data import (
    BLOCKS,
    DATABASE_OF,
    DATABASES,
    HOME,
    PAGE,
    PAGES,
    RATE_LIMITED,
    TASK_PAGES,
    TASKS,
    TASKS_SOURCE,
    TOKEN,
    USERS,
)
from weft.testing.saas._notion_pages import create_page, get_page, update_page
from weft.testing.saas._notion_query import query

HOST = "api.notion.com"


def list_users(request: ApiRequest) -> ApiReply:
    authorized(request)
    return ApiReply(body=list_page(USERS, request.query.get("start_cursor"), request.query.get("page_size"), "user"))


def get_user(request: ApiRequest) -> ApiReply:
    authorized(request)
    user_id = request.params["id"]
    if user_id == "me":
        return ApiReply(body=USERS[-1])
    found = next((u for u in USERS if u["id"] == canonical(user_id)), None)
    return ApiReply(body=found) if found else not_found("user", user_id)


def get_database(request: ApiRequest) -> ApiReply:
    authorized(request)
    found = DATABASES.get(canonical(request.params["id"]))
    if found is None:
        return not_found("database", request.params["id"])
    return ApiReply(body=database_with_sources(found) if new_api(request) else found)


def query_database(request: ApiRequest) -> ApiReply:
    authorized(request)
    db_id = canonical(request.params["id"])
    if db_id not in DATABASES:
        return not_found("database", request.params["id"])
    return query(request, db_id)


def get_data_source(request: ApiRequest) -> ApiReply:
    authorized(request)
    database = DATABASE_OF.get(canonical(request.params["id"]))
    if database is None:
        return not_found("data source", request.params["id"])
    return ApiReply(body=data_source(DATABASES[database]))


def query_data_source(request: ApiRequest) -> ApiReply:
    authorized(request)
    database = DATABASE_OF.get(canonical(request.params["id"]))
    if database is None:
        return not_found("data source", request.params["id"])
    return query(request, database)


def search(request: ApiRequest) -> ApiReply:
    authorized(request)
    body = request_body(request)
    found: list[dict[str, Any]] = [*DATABASES.values(), *PAGES.values()]
    wanted = (body.get("filter") or {}).get("value") if isinstance(body.get("filter"), dict) else None
    kinds = ("page", "data_source") if new_api(request) else ("page", "database")
    if wanted:
        require(wanted in kinds, error(400, "validation_error", f"body failed validation: body.filter.value should "
                f'be `"{kinds[0]}"` or `"{kinds[1]}"`, instead was `{json.dumps(wanted)}`.'))  # fmt: skip
        found = [o for o in found if o["object"] == ("database" if wanted == "data_source" else wanted)]
    query_text = str(body.get("query") or "").lower()
    if query_text:
        found = [o for o in found if query_text in title_of(o).lower()]
    sort = body.get("sort") or {}
    reverse = sort.get("direction") != "ascending"
    found.sort(key=lambda o: (o["last_edited_time"], o["id"]), reverse=reverse)
    listed = list_page(found, body.get("start_cursor"), body.get("page_size"), "page_or_database")
    return ApiReply(body=versioned(request, listed))


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/v1/users", list_users, host=HOST)
    server.route("GET", r"/v1/users/(?P<id>[^/]+)", get_user, host=HOST)
    server.route("GET", r"/v1/databases/(?P<id>[^/]+)", get_database, host=HOST)
    server.route("POST", r"/v1/databases/(?P<id>[^/]+)/query", query_database, host=HOST)
    server.route("POST", r"/v1/search", search, host=HOST)
    server.route("GET", r"/v1/data_sources/(?P<id>[^/]+)", get_data_source, host=HOST)
    server.route("POST", r"/v1/data_sources/(?P<id>[^/]+)/query", query_data_source, host=HOST)
    server.route("POST", r"/v1/pages", create_page, host=HOST)
    server.route("GET", r"/v1/pages/(?P<id>[^/]+)", get_page, host=HOST)
    server.route("PATCH", r"/v1/pages/(?P<id>[^/]+)", update_page, host=HOST)
    server.route("GET", r"/v1/blocks/(?P<id>[^/]+)/children", block_children, host=HOST)
    server.route("PATCH", r"/v1/blocks/(?P<id>[^/]+)/children", append_children, host=HOST)


__all__ = [
    "BLOCKS",
    "HOME",
    "HOST",
    "PAGE",
    "RATE_LIMITED",
    "TASKS",
    "TASKS_SOURCE",
    "TASK_PAGES",
    "TOKEN",
    "USERS",
    "data_source",
    "install",
]
