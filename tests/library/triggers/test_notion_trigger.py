"""Notion Trigger against a fake Notion (database / data source queries)."""

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
from weft.testing.trigger_fakes import notion

NODE = "Notion Trigger"


def _node(server: LiveServer, version: float = 1.1, event: str = "pageAddedToDatabase") -> dict[str, Any]:
    credential = add_credential(server, "notionApi", {"apiKey": notion.TOKEN})
    locator = {"__rl": True, "mode": "id", "value": "db1"}
    parameters: dict[str, Any] = {"pollTimes": {"item": [{"mode": "everyMinute"}]}, "event": event, "simple": True}
    parameters["dataSourceId" if version >= 1.1 else "databaseId"] = locator
    return {
        "name": NODE,
        "type": "n8n-nodes-base.notionTrigger",
        "typeVersion": version,
        "parameters": parameters,
        "credentials": {"notionApi": credential},
    }


def test_pages_added_are_emitted_once_even_within_one_minute(
    server: LiveServer, fake: FakeApiServer, clock: Clock
) -> None:
    state = notion.install(fake)
    clock.set("2026-03-01T12:00:30Z")
    workflow = create_workflow(server, _node(server))
    assert activate(server, workflow["id"]).status_code == 200
    assert state.bodies[0]["filter"] == {
        "timestamp": "created_time",
        "created_time": {"on_or_after": "2026-03-01T12:00:00Z"},
    }
    assert state.versions[0] == "2026-03-11"
    assert static_data(server, workflow["id"])[f"node:{NODE}"] == {"lastTimeChecked": "2026-03-01T12:00:00Z"}

    state.add("p1", "2026-03-01T12:01:00.000Z", "2026-03-01T12:01:00.000Z", "First")
    state.add("p2", "2026-03-01T12:01:00.000Z", "2026-03-01T12:01:00.000Z", "Second")
    clock.set("2026-03-01T12:01:40Z")
    execution_id = drive_poll(server, workflow["id"], NODE)
    assert execution_id is not None
    assert sorted(row["id"] for row in output(server, execution_id, NODE)) == ["p1", "p2"]
    assert {row["Name"] for row in output(server, execution_id, NODE)} == {"First", "Second"}
    saved = static_data(server, workflow["id"])[f"node:{NODE}"]
    assert sorted(saved["possibleDuplicates"]) == ["p1", "p2"]

    state.add("p3", "2026-03-01T12:01:00.000Z", "2026-03-01T12:01:00.000Z", "Third")  # same minute, after the poll
    clock.set("2026-03-01T12:02:10Z")
    execution_id = drive_poll(server, workflow["id"], NODE)
    assert execution_id is not None, (state.bodies[-2:], static_data(server, workflow["id"]))
    assert [row["id"] for row in output(server, execution_id, NODE)] == ["p3"]
    clock.set("2026-03-01T12:03:10Z")
    assert drive_poll(server, workflow["id"], NODE) is None


def test_version_1_queries_the_database_and_a_manual_run_takes_the_newest_page(
    server: LiveServer, fake: FakeApiServer, clock: Clock
) -> None:
    state = notion.install(fake)
    state.add("old", "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "Old")
    state.add("new", "2026-02-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z", "New")
    workflow = create_workflow(server, _node(server, version=1, event="pagedUpdatedInDatabase"))
    execution = manual_run(server, workflow["id"])
    assert execution["status"] == "success"
    rows = [item["json"] for item in execution["data"]["resultData"]["runData"][NODE][0]["data"]["main"][0]]
    assert [row["id"] for row in rows] == ["new"]
    assert state.bodies[-1] == {"page_size": 1, "sorts": [{"timestamp": "last_edited_time", "direction": "descending"}]}
    assert state.versions[-1] == "2022-02-22"
