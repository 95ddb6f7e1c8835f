"""The Supabase node against the fake PostgREST of ``weft.testing.saas.supabase``, reached through the fake as
HTTPS proxy: what recordings cannot show (bad parameters, a table name that tries to leave its path)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.saas import FakeSaasServer
from weft.testing.workflows import connect, node, output_json, workflow

CREDENTIAL = {"host": "https://weft.supabase.example", "serviceRole": "supabase-service-key"}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["supabase"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def run(parameters: dict[str, Any]) -> dict[str, Any]:
    supabase = node("Supabase", "n8n-nodes-base.supabase", parameters)
    supabase["credentials"] = {"supabaseApi": {"id": "1", "name": "s"}}
    wf = workflow(node("Start", "n8n-nodes-base.manualTrigger"), supabase, connect("Start", "Supabase"))
    result: dict[str, Any] = await run_workflow(wf, services=LocalServices(credentials={"supabaseApi": CREDENTIAL}))
    return result


async def test_rows_come_back_with_the_key_sent_as_supabase_wants(fake: FakeSaasServer) -> None:
    run_ = await run({"operation": "getAll", "tableId": "people", "filterType": "none", "limit": 2})
    assert [row["name"] for row in output_json(run_, "Supabase")] == ["Ada", "Grace"]
    (request,) = fake.requests
    assert request.host == "weft.supabase.example" and request.path == "/rest/v1/people"
    assert request.headers["apikey"] == "supabase-service-key"
    assert request.headers["authorization"] == "Bearer supabase-service-key"
    assert request.query == {"limit": "2"}


async def test_a_table_name_cannot_leave_its_path(fake: FakeSaasServer) -> None:
    run_ = await run({"operation": "getAll", "tableId": "../rpc/drop_everything", "filterType": "none"})
    (request,) = fake.requests
    assert request.raw_path == "/rest/v1/..%2Frpc%2Fdrop_everything"
    assert run_["data"]["resultData"]["error"]["context"]["httpCode"] == "404"


async def test_an_unsupported_condition_is_a_node_error_naming_it(fake: FakeSaasServer) -> None:
    conditions = [{"keyName": "id", "condition": "cs", "keyValue": "1"}]
    run_ = await run({"operation": "delete", "tableId": "people", "filters": {"conditions": conditions}})
    error = run_["data"]["resultData"]["error"]
    assert error["message"] == 'Unsupported filter condition: "cs"' and error["node"]["name"] == "Supabase"
    assert fake.requests == []


async def test_an_empty_table_name_is_refused_before_any_request(fake: FakeSaasServer) -> None:
    run_ = await run({"operation": "getAll", "tableId": "", "filterType": "none"})
    assert run_["data"]["resultData"]["error"]["message"] == 'Invalid identifier: "" is not allowed'
    assert fake.requests == []


async def test_a_string_filter_parameter_is_quoted_and_encoded(fake: FakeSaasServer) -> None:
    parameters = {"values": [{"value": 'Berkeley, CA"&x=1'}]}
    query = {"filterType": "string", "filterString": "city=eq.$1", "filterStringParameters": parameters}
    run_ = await run({"operation": "getAll", "tableId": "people", **query})
    (request,) = fake.requests
    assert request.query_pairs[0] == ("city", 'eq."Berkeley, CA\\"&x=1"')
    assert output_json(run_, "Supabase") == []
