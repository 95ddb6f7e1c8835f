"""Request building: ``requestDefaults`` and each shown property's ``routing.request`` / ``routing.send``."""

from __future__ import annotations

from typing import Any

from tests.nodes.routing._kit import run_node

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require


def _echo(request: ApiRequest) -> ApiReply:
    return ApiReply(body={"method": request.method, "path": request.path, "query": request.query, "body": request.body})


def _description(api: FakeApiServer, *properties: dict[str, Any], **defaults: Any) -> dict[str, Any]:
    return {"requestDefaults": {"baseURL": api.url + "/v1", **defaults}, "properties": list(properties)}


OPERATION = {
    "displayName": "Operation",
    "name": "operation",
    "type": "options",
    "default": "list",
    "options": [
        {"name": "List", "value": "list", "routing": {"request": {"method": "GET", "url": "/things"}}},
        {
            "name": "Create",
            "value": "create",
            "routing": {"request": {"method": "POST", "url": "=/things/{{ $parameter.kind }}"}},
        },
    ],
}


async def test_the_default_operation_routes_when_the_workflow_leaves_it_out(api: FakeApiServer) -> None:
    api.route("GET", "/v1/things", _echo)
    ran = await run_node(_description(api, OPERATION), {})
    assert ran.error is None
    assert [(r.method, r.path) for r in api.requests] == [("GET", "/v1/things")]


async def test_send_puts_values_in_the_body_and_query_by_path(api: FakeApiServer) -> None:
    api.route("POST", "/v1/things/gadget", _echo)
    properties = [
        OPERATION,
        {"name": "kind", "type": "string", "default": "gadget"},
        {"name": "title", "type": "string", "default": "", "routing": {"send": {"type": "body", "property": "a.b"}}},
        {
            "name": "flat",
            "type": "string",
            "default": "x",
            "routing": {"send": {"type": "body", "property": "c.d", "propertyInDotNotation": False}},
        },
        {"name": "page", "type": "number", "default": 2, "routing": {"send": {"type": "query", "property": "page"}}},
        {
            "name": "tags",
            "type": "string",
            "default": "",
            "routing": {"send": {"type": "body", "property": "tags", "value": "={{ $value.split(',') }}"}},
        },
    ]
    parameters = {"operation": "create", "title": "={{ $json.name }}", "tags": "red,blue"}
    ran = await run_node(_description(api, *properties), parameters, items=[{"name": "Loom"}])
    assert ran.error is None
    sent = api.requests[0]
    assert sent.query == {"page": "2"}
    assert sent.body == {"a": {"b": "Loom"}, "c.d": "x", "tags": ["red", "blue"]}
    assert sent.headers["content-type"] == "application/json"


async def test_hidden_properties_and_unset_collection_options_send_nothing(api: FakeApiServer) -> None:
    api.route("GET", "/v1/things", _echo)
    properties = [
        OPERATION,
        {
            "name": "secret",
            "type": "string",
            "default": "leak",
            "displayOptions": {"show": {"operation": ["create"]}},
            "routing": {"send": {"type": "query", "property": "secret"}},
        },
        {
            "name": "filters",
            "type": "collection",
            "default": {},
            "options": [
                {"name": "q", "type": "string", "default": "", "routing": {"send": {"type": "query", "property": "q"}}},
                {"name": "n", "type": "number", "default": 5, "routing": {"send": {"type": "query", "property": "n"}}},
            ],
        },
    ]
    ran = await run_node(_description(api, *properties), {"filters": {"q": "loom"}})
    assert ran.error is None
    assert api.requests[0].query_pairs == [("q", "loom")]


async def test_fixed_collection_entries_route_with_index_and_parent(api: FakeApiServer) -> None:
    api.route("GET", "/v1/things", _echo)
    fields = {
        "name": "fields",
        "type": "fixedCollection",
        "typeOptions": {"multipleValues": True},
        "default": {},
        "options": [
            {
                "name": "field",
                "values": [
                    {"name": "key", "type": "string", "default": ""},
                    {
                        "name": "value",
                        "type": "string",
                        "default": "",
                        "routing": {"send": {"type": "query", "property": "={{ $parent.key + $index }}"}},
                    },
                ],
            }
        ],
    }
    parameters = {"fields": {"field": [{"key": "a", "value": "1"}, {"key": "b", "value": "={{ 1 + 1 }}"}]}}
    ran = await run_node(_description(api, OPERATION, fields), parameters)
    assert ran.error is None
    assert api.requests[0].query == {"a0": "1", "b1": "2"}


async def test_request_defaults_are_expressions_over_the_credential(api: FakeApiServer) -> None:
    def users(request: ApiRequest) -> ApiReply:
        require(request.headers.get("authorization") == "SSWS secret", json_error(401, {"errorSummary": "no"}))
        return ApiReply(body=[{"id": 1}, {"id": 2}])

    api.route("GET", "/okta/users", users)
    description = {
        "credentials": [{"name": "oktaApi", "required": True}],
        "requestDefaults": {"baseURL": '={{ $credentials.url.replace(new RegExp("/$"), "") }}', "url": "/users"},
        "properties": [],
    }
    credentials = {"oktaApi": {"url": api.url + "/okta/", "accessToken": "secret"}}
    ran = await run_node(description, {}, credentials=credentials)
    assert ran.error is None
    assert ran.items == [{"id": 1}, {"id": 2}]  # an array body: one item per element


async def test_a_form_body_and_array_query_formats(api: FakeApiServer) -> None:
    api.route("POST", "/v1/form", _echo)
    version = {
        "name": "version",
        "type": "string",
        "default": "1.2.3",
        "routing": {"send": {"type": "body", "property": "v"}},
    }
    ids_routing = {"send": {"type": "query", "property": "id", "value": "={{ JSON.parse($value) }}"}}
    properties = [version, {"name": "ids", "type": "json", "default": "[1, 2]", "routing": ids_routing}]
    description = _description(
        api,
        *properties,
        method="POST",
        url="/form",
        arrayFormat="brackets",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    ran = await run_node(description, {})
    assert ran.error is None
    assert api.requests[0].raw_body == b"v=1.2.3"
    assert api.requests[0].query_pairs == [("id[]", "1"), ("id[]", "2")]


async def test_a_get_sends_no_body_and_each_item_its_own_request(api: FakeApiServer) -> None:
    api.route("GET", r"/v1/things/(?P<id>\w+)", lambda r: ApiReply(body={"id": r.params["id"]}))
    properties = [
        {"name": "id", "type": "string", "default": "", "routing": {"request": {"url": "=/things/{{ $value }}"}}},
        {"name": "extra", "type": "string", "default": "x", "routing": {"send": {"type": "body", "property": "e"}}},
    ]
    ran = await run_node(_description(api, *properties), {"id": "={{ $json.id }}"}, items=[{"id": "a"}, {"id": "b"}])
    assert ran.items == [{"id": "a"}, {"id": "b"}]
    assert [r.raw_body for r in api.requests] == [b"", b""]
