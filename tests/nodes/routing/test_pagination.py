"""``routing.operations.pagination`` (``generic``, ``offset``) and ``routing.output.maxResults``."""

from __future__ import annotations

from typing import Any

from tests.nodes.routing._kit import run_node

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

ROWS = [{"n": n} for n in range(7)]


def _cursor_pages(request: ApiRequest) -> ApiReply:
    start = int(request.query.get("cursor") or 0)
    page = ROWS[start : start + 3]
    following = start + 3 if start + 3 < len(ROWS) else None
    return ApiReply(body={"rows": page, "next": following})


def _offset_page(request: ApiRequest) -> ApiReply:
    source = request.body if request.method == "POST" else request.query
    require(isinstance(source, dict) and "limit" in source, json_error(400, {"message": "limit is required"}))
    limit, offset = int(source["limit"]), int(source["skip"])
    return ApiReply(body={"page": {"rows": ROWS[offset : offset + limit]}})


def _paginated(api: FakeApiServer, pagination: dict[str, Any], *, limit_property: bool = False) -> dict[str, Any]:
    properties: list[dict[str, Any]] = [
        {
            "name": "returnAll",
            "type": "boolean",
            "default": True,
            "routing": {"send": {"paginate": "={{ $value }}"}, "operations": {"pagination": pagination}},
        }
    ]
    if limit_property:
        properties.append(
            {"name": "limit", "type": "number", "default": 4, "routing": {"output": {"maxResults": "={{ $value }}"}}}
        )
    return {"requestDefaults": {"baseURL": api.url, "url": "/rows"}, "properties": properties}


GENERIC = {
    "type": "generic",
    "properties": {
        "continue": "={{ $response.body.next !== null }}",
        "request": {"qs": {"cursor": "={{ $response.body.next ?? undefined }}"}},
    },
}


async def test_generic_pagination_asks_again_while_continue_holds(api: FakeApiServer) -> None:
    api.route("GET", "/rows", _cursor_pages)
    description = _paginated(api, GENERIC)
    description["properties"].append(
        {
            "name": "rows",
            "type": "hidden",
            "default": "",
            "routing": {"output": {"postReceive": [{"type": "rootProperty", "properties": {"property": "rows"}}]}},
        }
    )
    ran = await run_node(description, {})
    assert ran.error is None
    assert ran.items == ROWS
    assert [r.query.get("cursor") for r in api.requests] == [None, "3", "6"]


async def test_no_pagination_unless_the_property_says_paginate(api: FakeApiServer) -> None:
    api.route("GET", "/rows", _cursor_pages)
    ran = await run_node(_paginated(api, GENERIC), {"returnAll": False})
    assert len(api.requests) == 1
    assert ran.items == [{"rows": ROWS[:3], "next": 3}]


async def test_offset_pagination_in_the_query_with_a_root_property(api: FakeApiServer) -> None:
    api.route("GET", "/rows", _offset_page)
    offset = {
        "type": "offset",
        "properties": {
            "limitParameter": "limit",
            "offsetParameter": "skip",
            "pageSize": 3,
            "rootProperty": "page.rows",
        },
    }
    ran = await run_node(_paginated(api, offset), {})
    assert ran.items == ROWS
    assert [(r.query["limit"], r.query["skip"]) for r in api.requests] == [("3", "0"), ("3", "3"), ("3", "6")]


async def test_offset_pagination_in_the_body_stops_at_max_results(api: FakeApiServer) -> None:
    api.route("POST", "/rows", _offset_page)
    offset = {
        "type": "offset",
        "properties": {
            "limitParameter": "limit",
            "offsetParameter": "skip",
            "pageSize": 3,
            "type": "body",
            "rootProperty": "page.rows",
        },
    }
    description = _paginated(api, offset, limit_property=True)
    description["requestDefaults"]["method"] = "POST"
    ran = await run_node(description, {})
    assert ran.items == ROWS[:4]
    assert [(r.body["limit"], r.body["skip"]) for r in api.requests] == [(3, 0), (1, 3)]


async def test_a_missing_root_property_names_it(api: FakeApiServer) -> None:
    api.route("GET", "/rows", _offset_page)
    offset = {
        "type": "offset",
        "properties": {"limitParameter": "limit", "offsetParameter": "skip", "pageSize": 3, "rootProperty": "nowhere"},
    }
    ran = await run_node(_paginated(api, offset), {})
    assert ran.error == 'The rootProperty "nowhere" could not be found on item.'


async def test_max_results_cuts_the_items_of_one_request(api: FakeApiServer) -> None:
    api.route("GET", "/rows", lambda r: ApiReply(body=ROWS))
    description = {
        "requestDefaults": {"baseURL": api.url, "url": "/rows"},
        "properties": [
            {"name": "limit", "type": "number", "default": 2, "routing": {"output": {"maxResults": "={{ $value }}"}}}
        ],
    }
    assert (await run_node(description, {"limit": 5})).items == ROWS[:5]
