"""``routing.output.postReceive``: the response into items."""

from __future__ import annotations

from typing import Any

from tests.nodes.routing._kit import run_node

from weft.testing.fake_api import ApiReply, FakeApiServer

PEOPLE = {"data": {"people": [{"name": "grace", "age": 85}, {"name": "Ada", "age": 36}, {"name": "alan", "age": 41}]}}


def _description(api: FakeApiServer, *actions: Any, default: Any = True) -> dict[str, Any]:
    output = {
        "name": "shape",
        "type": "boolean",
        "default": default,
        "routing": {"output": {"postReceive": list(actions)}},
    }
    return {"requestDefaults": {"baseURL": api.url, "url": "/people"}, "properties": [output]}


def _root(path: str = "data.people") -> dict[str, Any]:
    return {"type": "rootProperty", "properties": {"property": path}}


async def test_root_property_sort_and_limit(api: FakeApiServer) -> None:
    api.route("GET", "/people", lambda r: ApiReply(body=PEOPLE))
    actions = [
        _root(),
        {"type": "sort", "properties": {"key": "name"}},
        {"type": "limit", "properties": {"maxResults": "2"}},
    ]
    ran = await run_node(_description(api, *actions), {})
    assert ran.items == [{"name": "Ada", "age": 36}, {"name": "alan", "age": 41}]


async def test_filter_and_set_key_value_see_the_response_item(api: FakeApiServer) -> None:
    api.route("GET", "/people", lambda r: ApiReply(body=PEOPLE, headers={"x-total": "3"}))
    actions = [
        _root(),
        {"type": "filter", "properties": {"pass": "={{ $responseItem.age > 40 }}"}},
        {
            "type": "setKeyValue",
            "properties": {
                "label": "={{ $responseItem.name.toUpperCase() }} ({{ $response.headers['x-total'] }})",
                "flag": "={{ $value }}",
            },
        },
    ]
    ran = await run_node(_description(api, *actions), {"shape": True})
    assert ran.items == [{"label": "GRACE (3)", "flag": True}, {"label": "ALAN (3)", "flag": True}]


async def test_set_builds_one_item_from_the_response(api: FakeApiServer) -> None:
    api.route("GET", "/people", lambda r: ApiReply(status=204))
    actions = [{"type": "set", "properties": {"value": "={{ { deleted: true, status: $response.statusCode } }}"}}]
    ran = await run_node(_description(api, *actions), {})
    assert ran.items == [{"deleted": True, "status": 204}]


async def test_an_action_runs_only_when_enabled(api: FakeApiServer) -> None:
    api.route("GET", "/people", lambda r: ApiReply(body=PEOPLE))
    actions = [{**_root(), "enabled": "={{ $value }}"}]
    assert len((await run_node(_description(api, *actions), {"shape": True})).items) == 3
    assert (await run_node(_description(api, *actions), {"shape": False})).items == [PEOPLE]
    never = [{**_root(), "enabled": False}]
    assert (await run_node(_description(api, *never), {})).items == [PEOPLE]


async def test_binary_data_keeps_the_body_as_a_file(api: FakeApiServer) -> None:
    api.route("GET", "/people", lambda r: ApiReply(data=b"a,b\n1,2\n", content_type="text/csv"))
    action = {"type": "binaryData", "properties": {"destinationProperty": "={{ 'file_' + $value }}"}}
    description = _description(api, action, default="csv")
    description["requestDefaults"]["encoding"] = "arraybuffer"
    ran = await run_node(description, {})
    assert ran.error is None
    binary = ran.full_items[0]["binary"]["file_csv"]
    assert (binary["bytes"], binary["mimeType"]) == (8, "text/plain")


async def test_without_actions_an_array_body_gives_one_item_each(api: FakeApiServer) -> None:
    api.route("GET", "/people", lambda r: ApiReply(body=[{"a": 1}, {"a": 2}]))
    description = {"requestDefaults": {"baseURL": api.url, "url": "/people"}, "properties": []}
    assert (await run_node(description, {})).items == [{"a": 1}, {"a": 2}]
