"""Airtable Trigger against a fake Airtable (records list with ``filterByFormula`` and ``offset`` paging)."""

from __future__ import annotations

from typing import Any

from tests.library.triggers.conftest import (
    Clock,
    activate,
    add_credential,
    create_workflow,
    drive_poll,
    manual_run,
    output,
    static_data,
)
from tests.server.conftest import LiveServer

from weft.testing.fake_api import FakeApiServer
from weft.testing.trigger_fakes import airtable

NODE = "Airtable Trigger"


def _node(server: LiveServer, **parameters: Any) -> dict[str, Any]:
    credential = add_credential(server, "airtableTokenApi", {"accessToken": airtable.TOKEN})
    return {
        "name": NODE,
        "type": "n8n-nodes-base.airtableTrigger",
        "typeVersion": 1,
        "parameters": {
            "pollTimes": {"item": [{"mode": "everyHour", "minute": 5}]},
            "authentication": "airtableTokenApi",
            "baseId": {"__rl": True, "mode": "id", "value": "appBase1"},
            "tableId": {"__rl": True, "mode": "id", "value": "tblTasks"},
            "triggerField": "Modified",
            "additionalFields": {},
            **parameters,
        },
        "credentials": {"airtableTokenApi": credential},
    }


def _record(record_id: str, modified: str) -> dict[str, Any]:
    return {
        "id": record_id,
        "createdTime": "2026-01-01T00:00:00.000Z",
        "fields": {"Name": record_id, "Modified": modified},
    }


def test_records_changed_since_the_last_poll_are_emitted_once_across_pages(
    server: LiveServer, fake: FakeApiServer, clock: Clock
) -> None:
    state = airtable.install(fake)
    state.records.append(_record("recOld", "2026-03-01T11:00:00.000Z"))
    workflow = create_workflow(server, _node(server))
    assert activate(server, workflow["id"]).status_code == 200
    assert state.queries[0]["filterByFormula"] == (
        'IS_AFTER({Modified}, DATETIME_PARSE("2026-03-01T12:00:00Z", "YYYY-MM-DD HH:mm:ss"))'
    )
    assert state.queries[0]["pageSize"] == "100"
    assert server.executions(workflow["id"]) == []
    assert static_data(server, workflow["id"]) == {f"node:{NODE}": {"lastTimeChecked": "2026-03-01T12:00:00Z"}}

    state.records += [_record(f"rec{n}", f"2026-03-01T12:0{n}:00.000Z") for n in range(1, 4)]
    clock.set("2026-03-01T13:05:00Z")
    execution_id = drive_poll(server, workflow["id"], NODE)
    assert execution_id is not None
    assert [r["id"] for r in output(server, execution_id, NODE)] == ["rec1", "rec2", "rec3"]
    assert state.queries[-1]["offset"] == "2"  # the second page
    clock.set("2026-03-01T14:05:00Z")
    assert drive_poll(server, workflow["id"], NODE) is None
    assert static_data(server, workflow["id"])[f"node:{NODE}"]["lastTimeChecked"] == "2026-03-01T14:05:00Z"


def test_a_failing_poll_is_stored_as_an_error_execution(server: LiveServer, fake: FakeApiServer, clock: Clock) -> None:
    airtable.install(fake)
    workflow = create_workflow(server, _node(server))
    assert activate(server, workflow["id"]).status_code == 200
    node = _node(server, tableId={"__rl": True, "mode": "id", "value": "tblGone"})
    changed = {**workflow, "nodes": [{**workflow["nodes"][0], "parameters": node["parameters"]}, workflow["nodes"][1]]}
    # the workflow as stored, changed behind the activation's back (a table deleted in Airtable)
    server.instance.store.workflows.update(workflow["id"], changed)
    execution_id = drive_poll(server, workflow["id"], NODE)
    assert execution_id is not None
    execution = server.wait_status(execution_id, "error")
    assert execution["mode"] == "trigger"
    result = execution["data"]["resultData"]
    assert result["lastNodeExecuted"] == NODE
    assert "Could not find table" in str(result["error"]) or "not found" in str(result["error"]).lower()
    assert result["runData"][NODE][0]["error"]


def test_the_activation_poll_failing_refuses_the_activation(
    server: LiveServer, fake: FakeApiServer, clock: Clock
) -> None:
    airtable.install(fake)
    workflow = create_workflow(server, _node(server, tableId={"__rl": True, "mode": "id", "value": "tblGone"}))
    response = activate(server, workflow["id"])
    assert response.status_code == 400
    assert "There was a problem activating the workflow" in response.text
    assert server.client.get(f"/rest/workflows/{workflow['id']}").json()["data"]["active"] is False
    assert server.instance.polling.scheduled == []


def test_a_manual_run_takes_one_record_and_checks_the_trigger_field(
    server: LiveServer, fake: FakeApiServer, clock: Clock
) -> None:
    state = airtable.install(fake)
    state.records.append(_record("recA", "2026-01-01T00:00:00.000Z"))
    workflow = create_workflow(server, _node(server))
    execution = manual_run(server, workflow["id"])
    assert execution["status"] == "success"
    assert state.queries[-1] == {"maxRecords": "1", "pageSize": "100"}
    missing = create_workflow(server, _node(server, triggerField="Nope"))
    failed = manual_run(server, missing["id"])
    assert failed["status"] == "error"
    assert 'The Field \\"Nope\\" does not exist.' in str(failed["data"]) or 'The Field "Nope" does not exist.' in str(
        failed["data"]
    )
