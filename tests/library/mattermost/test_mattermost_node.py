"""The Mattermost node against the fake Mattermost server (``weft.testing.saas.mattermost``, served as the HTTPS
proxy for ``chat.weft.example``): the requests each operation sends (n8n's attachment reshaping, the double slash
of "Get Many" users, pages until an empty one), n8n's sort rules as typed errors, the continue-on-fail item, the
credential test. Recorded cases s851-s860 hold the outputs to real n8n."""

from __future__ import annotations

from typing import Any

import pytest
from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.mattermost.users import snake_case
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer

BASE = "https://chat.weft.example/"
CREDENTIALS = {"mattermostApi": {"accessToken": "mattermost-test-token", "baseUrl": BASE}}
CH1 = "chan0000000000000000000001"


saas = service_fixture("mattermost")


async def _run(params: dict[str, Any], credentials: Any = None, **node: Any) -> tuple[list[Any], Any]:
    workflow = {
        "name": "mattermost",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "MM", "type": "n8n-nodes-base.mattermost", "typeVersion": 1, "parameters": params,
             "credentials": {"mattermostApi": {"id": "1", "name": "m"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "MM", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=credentials or CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["MM"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_a_post_lifts_the_attachment_form_into_mattermost_shapes(saas: FakeSaasServer) -> None:
    attachment = {
        "title": "Loom",
        "fields": {"item": [{"title": "Warp", "value": "120", "short": True}]},
        "actions": {"item": [{"type": "button", "name": "Go", "data_source": "custom",
                              "options": {"option": [{"text": "A", "value": "a"}]},
                              "integration": {"item": {"url": "https://h.example", "context": {
                                  "property": [{"name": "k", "value": "v"}]}}}}]},
    }  # fmt: skip
    params = {"resource": "message", "operation": "post", "channelId": CH1, "message": "hi",
              "attachments": [attachment, {"fields": {}}], "otherOptions": {"root_id": "r1"}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items[0]["id"] == "post0000000000000000000101"
    sent = saas.requests[-1]
    assert sent.path == "/api/v4/posts" and sent.headers["authorization"] == "Bearer mattermost-test-token"
    assert sent.body == {
        "channel_id": CH1, "message": "hi", "root_id": "r1",
        "props": {"attachments": [
            {"title": "Loom", "fields": [{"title": "Warp", "value": "120", "short": True}],
             "actions": [{"name": "Go", "options": [{"text": "A", "value": "a"}],
                          "integration": {"url": "https://h.example", "context": {"k": "v"}}}]},
            {},
        ]},
    }  # fmt: skip


async def test_get_many_users_pages_until_an_empty_page(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "user", "operation": "getAll", "returnAll": True, "additionalFields": {}})
    assert error is None and len(items) == 130
    assert [(r.raw_path, r.query["page"]) for r in saas.requests] == [("/api/v4//users", p) for p in "012"]


async def test_members_resolved_to_users(saas: FakeSaasServer) -> None:
    params = {"resource": "channel", "operation": "members", "channelId": CH1, "returnAll": False, "limit": 2,
              "resolveData": True}  # fmt: skip
    items, error = await _run(params)
    assert error is None and [i["username"] for i in items] == ["weaver001", "weaver002"]
    assert saas.requests[-1].body == ["user0000000000000000000001", "user0000000000000000000002"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"sort": "createdAt"}, "When sort is defined either 'in team' or 'in channel' must be defined"),
        ({"sort": "status", "inTeam": "t"}, "When In Team is set the only valid values for sorting are "
                                            "last_activity_at,created_at,username"),
        ({"sort": "status", "inChannel": ""}, "When sort is different than username In Channel must be set"),
    ],
)  # fmt: skip
async def test_sort_rules_are_typed_errors_before_any_request(
    saas: FakeSaasServer, fields: dict[str, Any], message: str
) -> None:
    _, error = await _run({"resource": "user", "operation": "getAll", "returnAll": True, "additionalFields": fields})
    assert error is not None and error["message"] == message
    assert saas.requests == []


async def test_continue_keeps_the_input_json_and_the_error_beside_it(saas: FakeSaasServer) -> None:
    items, error = await _run(
        {"resource": "user", "operation": "getByEmail", "email": "nobody@weft.example"},
        onError="continueRegularOutput",
    )
    assert error is None and items == [{"error": "The resource you are requesting could not be found"}]


def test_sort_values_in_snake_case() -> None:
    assert [snake_case(s) for s in ("createdAt", "lastActivityAt", "status")] == [
        "created_at",
        "last_activity_at",
        "status",
    ]


def test_the_credential_test_reads_users() -> None:
    request = build_request("mattermostApi", CREDENTIALS["mattermostApi"])
    assert request.url == "https://chat.weft.example/api/v4/users"
    assert request.headers["Authorization"] == "Bearer mattermost-test-token"


async def test_an_integration_without_context_fails_as_n8n_does(saas: FakeSaasServer) -> None:
    action = {"name": "Go", "options": {}, "integration": {"item": {"url": "https://h.example"}}}
    params = {"resource": "message", "operation": "post", "channelId": CH1, "message": "hi",
              "attachments": [{"actions": {"item": [action]}}], "otherOptions": {}}  # fmt: skip
    _, error = await _run(params)
    assert error is not None and error["message"] == "Cannot read properties of undefined (reading 'property')"
    assert saas.requests == []
