"""The Baserow node against the fake Baserow of ``weft.testing.saas.baserow``, reached through the fake as HTTPS
proxy: the JWT login, the database token, field-name mapping, paging, filters and Baserow's error bodies."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.baserow.fields import filter_value
from weft.testing.saas import FakeSaasServer
from weft.testing.workflows import connect, node, output_json, workflow

HOST = "https://baserow.weft.example"
PASSWORD = {"host": HOST, "username": "ada@weft.example", "password": "loom-password"}
TOKEN = {"host": HOST, "token": "baserow-db-token"}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["baserow"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def run(parameters: dict[str, Any], credential: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    baserow = node("Baserow", "n8n-nodes-base.baserow", {"tableId": 11, **parameters})
    baserow["credentials"] = {"baserowApi": {"id": "1", "name": "b"}, "baserowTokenApi": {"id": "2", "name": "t"}}
    baserow.update(extra)
    wf = workflow(node("Start", "n8n-nodes-base.manualTrigger"), baserow, connect("Start", "Baserow"))
    credentials = {"baserowApi": credential or PASSWORD, "baserowTokenApi": TOKEN}
    result: dict[str, Any] = await run_workflow(wf, services=LocalServices(credentials=credentials))
    return result


async def test_get_many_logs_in_maps_field_names_and_pages(fake: FakeSaasServer) -> None:
    result = await run({"operation": "getAll", "tableId": 12, "returnAll": True})
    rows = output_json(result, "Baserow")
    assert len(rows) == 250 and rows[1] == {"id": 2, "order": "2.00000000000000000000", "Square": "4"}
    login, fields, *pages = fake.requests
    assert (login.method, login.path) == ("POST", "/api/user/token-auth/")
    assert login.body == {"username": "ada@weft.example", "password": "loom-password"}
    assert fields.path == "/api/database/fields/table/12/" and fields.headers["authorization"] == "JWT fake-baserow-jwt"
    assert [p.query for p in pages] == [{"page": str(n), "size": "100"} for n in (1, 2, 3)]


async def test_limit_stops_after_the_page_that_passes_it(fake: FakeSaasServer) -> None:
    rows = output_json(await run({"operation": "getAll", "tableId": 12, "limit": 120}), "Baserow")
    assert len(rows) == 120 and len(fake.requests) == 4


async def test_filters_sort_and_search_use_field_ids(fake: FakeSaasServer) -> None:
    options = {
        "filters": {"fields": [{"field": "102", "operator": "higher_than", "value": " 60 "}]},
        "order": {"fields": [{"field": "field_101", "direction": "-"}]},
        "filterType": "AND",
    }
    result = await run({"operation": "getAll", "returnAll": True, "additionalOptions": options})
    assert [r["Name"] for r in output_json(result, "Baserow")] == ["Ken", "Grace", "Barbara"]
    query = fake.requests[-1].query
    assert query["filter__field_102__higher_than"] == "60" and query["order_by"] == "-field_101"


async def test_create_with_a_database_token_sends_field_ids(fake: FakeSaasServer) -> None:
    fields = {"fieldValues": [{"fieldId": 101, "fieldValue": "Hedy"}]}
    parameters = {"authentication": "databaseToken", "operation": "create", "fieldsUi": fields}
    result = await run(parameters)
    assert output_json(result, "Baserow") == [{"id": 1000, "order": "1000.00000000000000000000", "Name": "Hedy"}]
    assert fake.requests[0].headers["authorization"] == "Token baserow-db-token"
    assert fake.requests[-1].body == {"field_101": "Hedy"}


async def test_a_missing_row_is_baserows_error_and_continue_on_fail_keeps_going(fake: FakeSaasServer) -> None:
    failed = await run({"operation": "get", "rowId": 99})
    error = failed["data"]["resultData"]["error"]
    assert error["context"]["httpCode"] == "404" and error["node"]["name"] == "Baserow"
    kept = await run({"operation": "delete", "rowId": 99}, onError="continueRegularOutput")
    assert output_json(kept, "Baserow") == [{}] and "error" not in kept["data"]["resultData"]


async def test_wrong_password_fails_at_login(fake: FakeSaasServer) -> None:
    result = await run({"operation": "get", "rowId": 1}, credential=PASSWORD | {"password": "nope"})
    assert result["data"]["resultData"]["error"]["context"]["httpCode"] == "401"
    assert len(fake.requests) == 1


def test_date_filter_values_take_baserows_multi_step_form() -> None:
    assert filter_value("date_is", "2026-06-17", "UTC") == "UTC?2026-06-17?exact_date"
    assert filter_value("date_is", "today", "Europe/Berlin") == "Europe/Berlin??today"
    assert filter_value("date_within_days", "3", "UTC") == "UTC?3"
    assert filter_value("date_before_today", "", "UTC") == "UTC"
    assert filter_value("equal", " x ", "UTC") == "x"
