"""The HighLevel node (``n8n-nodes-base.highLevel`` 1 and 2) against the fake HighLevel API
(``weft.testing.saas.high_level``, the HTTPS proxy for ``rest.gohighlevel.com`` and
``services.leadconnectorhq.com``): every function its descriptions hold has a port, and what the recorded cases
d100-d124 cannot show (the requests themselves, the workflow's timezone in due dates)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import weft
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.routing.functions import find_port
from weft.nodes.routing.ports import high_level as ports
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import _high_level_data as fake

DESCRIPTION = Path(weft.__file__).parent / "nodes" / "descriptions" / "n8n-nodes-base.highLevel.json"
CREDENTIALS: dict[str, dict[str, Any]] = {
    "highLevelApi": {"apiKey": fake.API_KEY},
    "highLevelOAuth2Api": {"oauthTokenData": {"access_token": fake.ACCESS_TOKEN, "locationId": fake.LOCATION}},
}


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["high_level"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def _run(params: dict[str, Any], version: int = 1, **settings: Any) -> tuple[list[Any], str | None]:
    kind = "highLevelOAuth2Api" if version == 2 else "highLevelApi"
    workflow = {
        "name": "highlevel",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "HighLevel", "type": "n8n-nodes-base.highLevel", "typeVersion": version, "parameters": params,
             "credentials": {kind: {"id": "1", "name": "h"}}},
        ],
        "connections": {"T": {"main": [[{"node": "HighLevel", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1", **settings},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["HighLevel"][0]
    items = [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]]
    return items, (task.get("error") or {}).get("message")


def test_every_function_of_both_versions_has_a_port() -> None:
    text = DESCRIPTION.read_text()
    markers = {(m["$function"], m["sha"]) for m in _markers(json.loads(text))}
    assert len(markers) == 18  # taskPostReceiceAction is the same in both
    assert all(find_port({"sha": sha}) is not None for _, sha in markers)


def _markers(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if "$function" in value:
            yield value
        for inner in value.values():
            yield from _markers(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _markers(inner)


async def test_v2_create_sends_the_location_custom_fields_and_the_note(saas: FakeSaasServer) -> None:
    field = {"__rl": True, "mode": "list", "value": "cf1", "cachedResultName": "Source"}
    params = {"resource": "contact", "operation": "create", "email": "new@example.com",
              "additionalFields": {"tags": "a, b", "notes": "Hello", "customFields": {"values": [
                  {"fieldId": field, "fieldValue": "fair"}]}}}  # fmt: skip
    items, error = await _run(params, version=2)
    assert error is None and items[0]["email"] == "new@example.com"
    upsert, note = saas.requests
    assert (upsert.method, upsert.path, upsert.headers["version"]) == ("POST", "/contacts/upsert/", "2021-07-28")
    assert upsert.body["locationId"] == fake.LOCATION and upsert.body["tags"] == ["a", "b"]
    assert upsert.body["customFields"] == [{"id": "cf1", "key": "Source", "field_value": "fair"}]
    assert (note.path, note.body) == ("/contacts/hlContact0000009/notes", {"userId": fake.LOCATION, "body": "Hello"})


async def test_a_custom_field_without_a_locator_fails_typed(saas: FakeSaasServer) -> None:
    params = {"resource": "contact", "operation": "create", "email": "new@example.com",
              "additionalFields": {"customFields": {"values": [{"fieldId": "cf1", "fieldValue": "x"}]}}}  # fmt: skip
    _, error = await _run(params, version=2)
    assert error == "Error processing custom fields." and saas.requests == []


async def test_v1_pages_ask_only_for_the_cursor_after_the_first(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "contact", "operation": "getAll", "returnAll": True})
    assert error is None and [i["id"] for i in items] == [c["id"] for c in fake.CONTACTS]
    first, *rest = saas.requests
    assert first.query == {"limit": "100"}
    assert [r.query.get("startAfterId") for r in rest] == ["hlContact0000002", "hlContact0000004"]
    assert all(set(r.query) == {"startAfterId", "startAfter"} for r in rest)


async def test_due_date_is_written_in_the_workflow_timezone(saas: FakeSaasServer) -> None:
    params = {"resource": "task", "operation": "create", "contactId": "hlContact0000001", "title": "T",
              "dueDate": "2024-06-10T14:00:00.000Z"}  # fmt: skip
    _, error = await _run(params, timezone="Europe/Berlin")
    assert error is None and saas.requests[-1].body["dueDate"] == "2024-06-10T16:00:00+02:00"
    _, error = await _run(params, timezone="UTC")
    assert error is None and saas.requests[-1].body["dueDate"] == "2024-06-10T14:00:00Z"


async def test_a_task_update_without_a_due_date_reads_the_task_first(saas: FakeSaasServer) -> None:
    params = {"resource": "task", "operation": "update", "contactId": "hlContact0000001",
              "taskId": "hlTask0000000002", "updateFields": {"description": "done"}}  # fmt: skip
    items, error = await _run(params, timezone="UTC")
    assert error is None and items[0]["contactId"] == "hlContact0000001"
    read, update = saas.requests
    assert (read.method, read.path) == ("GET", "/v1/contacts/hlContact0000001/tasks/hlTask0000000002")
    assert update.body == {"description": "done", "title": "Send notes", "dueDate": "2024-07-02T15:30:00Z"}


async def test_an_invalid_phone_is_refused_before_any_request(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "contact", "operation": "create", "phone": "abc"})
    assert error == 'phone "abc" has invalid format' and saas.requests == []


def test_identifier_forms_and_dates() -> None:
    assert ports.is_email_valid("A.B@Example.COM") and not ports.is_email_valid("a@b")
    assert ports.is_phone_valid("+1 415 555 0101") and not ports.is_phone_valid("hlContact")
    assert ports.date_to_iso_suppress_millis("2024-01-15T08:00:00.250Z", "America/New_York") == (
        "2024-01-15T03:00:00.250-05:00"
    )
    assert ports.date_to_iso_suppress_millis("not a date", "UTC") is None
    assert ports.js_epoch_ms("2024-03-02") == 1709337600000
    assert ports.path_segment("a/b c") == "a%2Fb%20c"
