"""Failed requests: n8n's messages, ``ignoreHttpStatusErrors``, ``returnFullResponse``, continue on fail, and the
functions Weft has not ported."""

from __future__ import annotations

from typing import Any

from tests.nodes.routing._kit import run_node

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

OKTA = {"oktaApi": {"url": "", "accessToken": "t"}}


def _get(api: FakeApiServer, **defaults: Any) -> dict[str, Any]:
    return {"requestDefaults": {"baseURL": api.url, "url": "/thing", **defaults}, "properties": []}


def _with_credential(description: dict[str, Any]) -> dict[str, Any]:
    return {**description, "credentials": [{"name": "oktaApi", "required": True}]}


async def test_a_404_fails_with_n8n_s_message_and_the_body_s_description(api: FakeApiServer) -> None:
    api.route("GET", "/thing", lambda r: json_error(404, {"message": "No such thing"}))
    ran = await run_node(_with_credential(_get(api)), {}, credentials=OKTA)
    assert ran.error == "The resource you are requesting could not be found"
    error = ran.run["data"]["resultData"]["error"]
    assert (error["description"], error["context"]["httpCode"]) == ("No such thing", "404")


async def test_a_429_keeps_its_status_message(api: FakeApiServer) -> None:
    api.route("GET", "/thing", lambda r: json_error(429, {"message": "slow down"}, **{"Retry-After": "30"}))
    ran = await run_node(_with_credential(_get(api)), {}, credentials=OKTA)
    assert ran.error == "The service is receiving too many requests from you"  # recorded: case d009


async def test_without_a_credential_the_message_is_axios_s(api: FakeApiServer) -> None:
    api.route("GET", "/thing", lambda r: json_error(500, {"error": "boom"}))
    ran = await run_node(_get(api), {})
    assert ran.error == "Request failed with status code 500"


async def test_ignore_http_status_errors_hands_the_answer_to_post_receive(api: FakeApiServer) -> None:
    api.route("GET", "/thing", lambda r: json_error(503, {"error": {"message": "down"}}))
    description = _get(api, ignoreHttpStatusErrors=True)
    action = {
        "type": "set",
        "properties": {"value": "={{ { code: $response.statusCode, why: $response.body.error.message } }}"},
    }
    description["properties"] = [
        {"name": "x", "type": "hidden", "default": "", "routing": {"output": {"postReceive": [action]}}}
    ]
    ran = await run_node(description, {})
    assert ran.items == [{"code": 503, "why": "down"}]


async def test_ignore_http_status_errors_except_some_codes(api: FakeApiServer) -> None:
    api.route("GET", "/thing", lambda r: json_error(409, {"message": "conflict"}))
    ran = await run_node(_get(api, ignoreHttpStatusErrors={"except": [409]}), {})
    assert ran.error == "Request failed with status code 409"


async def test_continue_on_fail_gives_the_error_in_the_failed_item_s_place(api: FakeApiServer) -> None:
    def thing(request: ApiRequest) -> ApiReply:
        return ApiReply(body={"id": request.query["id"]}) if request.query["id"] != "bad" else json_error(400, {})

    api.route("GET", "/thing", thing)
    description = _get(api)
    description["properties"] = [
        {"name": "id", "type": "string", "default": "", "routing": {"send": {"type": "query", "property": "id"}}}
    ]
    items = [{"id": "a"}, {"id": "bad"}, {"id": "c"}]
    ran = await run_node(description, {"id": "={{ $json.id }}"}, items=items, onError="continueRegularOutput")
    assert ran.items == [{"id": "a"}, {"error": "Request failed with status code 400"}, {"id": "c"}]  # as d011
    assert ran.full_items[1]["error"]["message"] == "Request failed with status code 400"


async def test_a_refused_connection_is_named(api: FakeApiServer) -> None:
    description = {"requestDefaults": {"baseURL": "http://127.0.0.1:9", "url": "/x"}, "properties": []}
    ran = await run_node(description, {})
    assert ran.error == "The service refused the connection - perhaps it is offline"


async def test_a_function_without_a_port_fails_only_the_operation_that_runs_it(api: FakeApiServer) -> None:
    api.route("GET", "/thing", lambda r: ApiReply(body={"ok": True}))
    unported = {"$function": "mystery", "sha": "0000000000000000"}
    description = _get(api)
    description["properties"] = [
        {"name": "op", "type": "options", "default": "plain", "options": [
            {"name": "Plain", "value": "plain"},
            {"name": "Odd", "value": "odd", "routing": {"send": {"preSend": [unported]}}},
        ]},
    ]  # fmt: skip
    assert (await run_node(description, {})).items == [{"ok": True}]
    ran = await run_node(description, {"op": "odd"})
    assert ran.error is not None and "function 'mystery'" in ran.error and "not ported" in ran.error
