"""Real declarative nodes of n8n end to end, run by the engine against the fake services of
:mod:`weft.testing.saas`: what each operation sends (the fake checks credentials and answers as the service
does) and outputs. The recorded cases ``tests/recorded/cases/d*`` hold real n8n to the same runs."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.saas import FakeSaasServer, gong, metabase, npm, okta, openai_legacy


@pytest.fixture
def saas() -> Iterator[FakeSaasServer]:
    with FakeSaasServer() as server:
        yield server


def _credentials(url: str) -> dict[str, dict[str, Any]]:
    return {
        "oktaApi": {"url": url + "/okta/", "accessToken": okta.TOKEN},
        "metabaseApi": {"url": url + "/metabase", "username": metabase.USER, "password": metabase.PASSWORD,
                        "sessionToken": ""},
        "gongApi": {"baseUrl": url + "/gong/", "accessKey": gong.KEY, "accessKeySecret": gong.SECRET},
        "npmApi": {"registryUrl": url + "/npm", "accessToken": npm.TOKEN},
        "openAiApi": {"apiKey": openai_legacy.KEY, "url": url + "/openai/v1", "organizationId": "", "header": False},
    }  # fmt: skip


async def _run(saas: FakeSaasServer, node_type: str, credential: str, params: dict[str, Any], **node: Any) -> Any:
    workflow = {
        "name": "saas",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "N", "type": f"n8n-nodes-base.{node_type}", "typeVersion": node.pop("version", 1),
             "parameters": params, "credentials": {credential: {"id": "1", "name": credential}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "N", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=_credentials(saas.url)))
    task = run["data"]["resultData"]["runData"]["N"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], (task.get("error") or {}).get(
        "message"
    )


def _rl(value: str) -> dict[str, Any]:
    return {"__rl": True, "mode": "id", "value": value}


async def test_okta_create_sends_the_profile_and_activates(saas: FakeSaasServer) -> None:
    params = {"operation": "create", "firstName": "Kat", "lastName": "J", "login": "kj@example.com",
              "email": "kj@example.com", "getCreateFields": {"city": "Hampton"}}  # fmt: skip
    items, error = await _run(saas, "okta", "oktaApi", params)
    assert error is None and items[0]["profile"]["city"] == "Hampton"
    sent = saas.requests[-1]
    assert (sent.method, sent.path, sent.query) == ("POST", "/okta/api/v1/users/", {"activate": "true"})
    assert sent.headers["authorization"] == f"SSWS {okta.TOKEN}"


async def test_okta_get_many_follows_the_link_header(saas: FakeSaasServer) -> None:
    items, error = await _run(saas, "okta", "oktaApi", {"operation": "getAll", "returnAll": True})
    assert error is None and len(items) == len(okta.USERS)
    assert [r.query.get("after") for r in saas.requests] == [None, "00u2fake0002", "00u4fake0004"]


async def test_metabase_logs_in_then_sends_the_session(saas: FakeSaasServer) -> None:
    items, error = await _run(saas, "metabase", "metabaseApi", {"resource": "databases", "operation": "getAll"})
    assert error is None and [i["name"] for i in items] == ["Sample Database", "Warehouse"]
    assert [r.path for r in saas.requests] == ["/metabase/api/session", "/metabase/api/database/"]
    assert saas.requests[1].headers["x-metabase-session"] == metabase.SESSION


async def test_metabase_question_result_as_a_csv_file(saas: FakeSaasServer) -> None:
    params = {"resource": "questions", "operation": "resultData", "questionId": "1", "format": "csv"}
    items, error = await _run(saas, "metabase", "metabaseApi", params)
    assert (items, error) == ([{}], None)


async def test_gong_get_call_asks_for_the_chosen_fields(saas: FakeSaasServer) -> None:
    params = {"resource": "call", "operation": "get", "call": _rl("700000000000000002"),
              "options": {"properties": ["parties", "brief", "transcript"]}}  # fmt: skip
    items, error = await _run(saas, "gong", "gongApi", params)
    assert error is None and items[0]["metaData"]["title"] == "Demo"
    assert items[0]["transcript"][0]["topic"] == "Pricing"
    call, transcript = saas.requests
    assert call.body == {
        "filter": {"callIds": ["700000000000000002"]},
        "contentSelector": {"exposedFields": {"parties": True, "content": {"brief": True}}},
    }
    assert call.headers["authorization"] == "Basic " + base64.b64encode(f"{gong.KEY}:{gong.SECRET}".encode()).decode()
    assert transcript.body == {"filter": {"callIds": ["700000000000000002"]}}


async def test_gong_rejects_ids_that_are_not_numbers(saas: FakeSaasServer) -> None:
    params = {"resource": "call", "operation": "getAll", "filters": {"callIds": "12,abc"}}
    _, error = await _run(saas, "gong", "gongApi", params)
    assert error == "Call IDs must be numeric" and saas.requests == []


async def test_npm_update_dist_tag_sends_the_version_as_the_body(saas: FakeSaasServer) -> None:
    params = {"resource": "distTag", "operation": "update", "packageName": "@weft/fake", "packageVersion": "1.0.1",
              "distTagName": "stable"}  # fmt: skip
    items, error = await _run(saas, "npm", "npmApi", params)
    assert (items, error) == ([{"ok": "dist-tags updated"}], None)
    sent = saas.requests[-1]
    assert (sent.method, sent.raw_path, sent.raw_body) == (
        "PUT",
        "/npm/-/package/%40weft%2Ffake/dist-tags/stable",
        b"1.0.1",
    )
    assert sent.headers["content-type"] == "application/x-www-form-urlencoded"


async def test_openai_image_as_files(saas: FakeSaasServer) -> None:
    params = {"resource": "image", "prompt": "a loom", "options": {"n": 2}}
    items, error = await _run(saas, "openAi", "openAiApi", params, version=1.1)
    assert (items, error) == ([{}, {}], None)
    assert saas.requests[-1].body == {"prompt": "a loom", "model": "dall-e-2", "response_format": "b64_json", "n": 2}
