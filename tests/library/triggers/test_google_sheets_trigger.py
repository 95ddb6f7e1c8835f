"""Google Sheets Trigger against a fake spreadsheet with Drive revisions (``.xlsx`` exports)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.library.triggers.conftest import (
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
from weft.testing.trigger_fakes import google_sheets

NODE = "Google Sheets Trigger"


def _node(server: LiveServer, event: str, **parameters: Any) -> dict[str, Any]:
    data = {"clientId": "c", "clientSecret": "s", "oauthTokenData": {"access_token": google_sheets.TOKEN}}
    credential = add_credential(server, "googleSheetsTriggerOAuth2Api", data)
    return {
        "name": NODE,
        "type": "n8n-nodes-base.googleSheetsTrigger",
        "typeVersion": 1,
        "parameters": {
            "pollTimes": {"item": [{"mode": "everyMinute"}]},
            "documentId": {"__rl": True, "mode": "id", "value": google_sheets.DOCUMENT},
            "sheetName": {"__rl": True, "mode": "list", "value": "gid=0"},
            "event": event,
            "options": {},
            **parameters,
        },
        "credentials": {"googleSheetsTriggerOAuth2Api": credential},
    }


def test_rows_added_since_the_last_poll(server: LiveServer, fake: FakeApiServer) -> None:
    state = google_sheets.install(fake)
    state.rows.append(["a", "no"])
    workflow = create_workflow(server, _node(server, "rowAdded"))
    assert activate(server, workflow["id"]).status_code == 200
    saved = static_data(server, workflow["id"])[f"node:{NODE}"]
    assert saved == {"documentId": "doc1", "sheetId": 0, "lastIndexChecked": 1}
    state.rows += [["b", "yes"], ["c", 0]]
    execution_id = drive_poll(server, workflow["id"], NODE)
    assert execution_id is not None
    assert output(server, execution_id, NODE) == [{"name": "b", "done": "yes"}, {"name": "c", "done": ""}]
    assert state.ranges[-2:] == ["Tasks!A1:ZZZ1", "Tasks!A1:ZZZ"]
    assert drive_poll(server, workflow["id"], NODE) is None


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        ("rowUpdate", [{"row_number": 2, "name": "a", "done": "yes"}]),
        (
            "anyUpdate",
            [
                {"row_number": 2, "change_type": "updated", "name": "a", "done": "yes"},
                {"row_number": 3, "change_type": "added", "name": "b", "done": "no"},
            ],
        ),
    ],
)
def test_rows_updated_are_found_by_comparing_with_the_previous_revision(
    server: LiveServer, fake: FakeApiServer, event: str, expected: list[dict[str, Any]]
) -> None:
    state = google_sheets.install(fake)
    state.rows.append(["a", "no"])
    state.save_revision()
    workflow = create_workflow(server, _node(server, event))
    assert activate(server, workflow["id"]).status_code == 200
    assert static_data(server, workflow["id"])[f"node:{NODE}"]["lastRevision"] == 1
    assert server.executions(workflow["id"]) == []
    state.rows[1] = ["a", "yes"]
    state.rows.append(["b", "no"])
    state.save_revision()
    execution_id = drive_poll(server, workflow["id"], NODE)
    assert execution_id is not None
    assert output(server, execution_id, NODE) == expected
    assert drive_poll(server, workflow["id"], NODE) is None  # no newer revision


def test_a_manual_run_outputs_the_rows(server: LiveServer, fake: FakeApiServer) -> None:
    state = google_sheets.install(fake)
    state.rows += [["a", "no"], ["b", "yes"]]
    workflow = create_workflow(server, _node(server, "rowAdded"))
    execution = manual_run(server, workflow["id"])
    rows = [item["json"] for item in execution["data"]["resultData"]["runData"][NODE][0]["data"]["main"][0]]
    assert rows == [{"name": "a", "done": "no"}, {"name": "b", "done": "yes"}]
    assert static_data(server, workflow["id"]) == {}
