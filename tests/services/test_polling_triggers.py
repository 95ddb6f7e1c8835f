"""Polling triggers (n8n's ``poll``): a real server on 127.0.0.1, Gmail faked behind the HTTPS proxy. Polls are
driven directly (:meth:`PollingTriggers.poll` in the server's loop), never by the clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.library.triggers.conftest import (
    Clock,
    activate,
    add_credential,
    drive_poll,
    start_server,
    static_data,
    stop_server,
    trigger_workflow,
)
from tests.server.conftest import LiveServer

from weft.services.instance import Instance
from weft.settings import Settings
from weft.testing.fake_api import FakeApiServer
from weft.testing.trigger_fakes import gmail

pytest_plugins = ["tests.library.triggers.conftest"]

NODE = "Gmail Trigger"


def gmail_workflow(server: LiveServer, version: float = 1.3) -> dict[str, Any]:
    credential = add_credential(server, "gmailOAuth2", gmail.credential_data())
    node = {
        "name": NODE,
        "type": "n8n-nodes-base.gmailTrigger",
        "typeVersion": version,
        "parameters": {"pollTimes": {"item": [{"mode": "everyMinute"}]}, "simple": True, "filters": {}, "options": {}},
        "credentials": {"gmailOAuth2": credential},
    }
    workflow = trigger_workflow(node)
    response = server.client.post("/rest/workflows", json=workflow)
    assert response.status_code in (200, 201), response.text
    return workflow


def subjects(server: LiveServer, execution_id: str) -> list[str]:
    execution = server.wait_status(execution_id, "success")
    items = execution["data"]["resultData"]["runData"][NODE][0]["data"]["main"][0]
    return [item["json"]["Subject"] for item in items]


def test_polls_emit_each_message_once_and_the_state_survives_a_restart(
    tmp_path: Path, fake: FakeApiServer, clock: Clock
) -> None:
    state = gmail.install(fake)
    server, thread = start_server(tmp_path)
    try:
        workflow = gmail_workflow(server)
        assert activate(server, workflow["id"]).status_code == 200
        # the activation's poll remembers when it looked, and finds nothing
        assert len(state.lists) == 1 and state.lists[0]["q"].startswith("after:")
        first_check = static_data(server, workflow["id"])[f"node:{NODE}"][NODE]["lastTimeChecked"]
        assert server.executions(workflow["id"]) == []
        assert [key[2] for key in server.instance.polling.scheduled] == [NODE]

        assert first_check == int(clock.moment.timestamp())
        later = first_check + 100
        state.deliver("m1", later, "First")
        execution_id = drive_poll(server, workflow["id"], NODE)
        assert execution_id is not None
        assert subjects(server, execution_id) == ["First"]
        assert server.execution(execution_id)["mode"] == "trigger"
        assert state.lists[-1]["q"] == f"after:{first_check}"
        saved = static_data(server, workflow["id"])[f"node:{NODE}"][NODE]
        assert saved == {"lastTimeChecked": later, "possibleDuplicates": ["m1"]}

        assert (
            drive_poll(server, workflow["id"], NODE) is None
        )  # Gmail lists m1 again (after: is inclusive): not emitted
        assert state.lists[-1]["q"] == f"after:{later}"
    finally:
        stop_server(server, thread)

    server, thread = start_server(tmp_path)  # a new server on the same database
    try:
        assert [key[2] for key in server.instance.polling.scheduled] == [NODE]
        assert drive_poll(server, workflow["id"], NODE) is None
        state.deliver("m2", later + 50, "Second")
        execution_id = drive_poll(server, workflow["id"], NODE)
        assert execution_id is not None
        assert subjects(server, execution_id) == ["Second"]
        assert len([e for e in server.executions(workflow["id"])]) == 2
        assert server.client.post(f"/rest/workflows/{workflow['id']}/deactivate").status_code == 200
        assert server.instance.polling.scheduled == []
    finally:
        stop_server(server, thread)


def test_a_manual_run_polls_once_for_the_newest_message_and_keeps_no_state(
    server: LiveServer, fake: FakeApiServer
) -> None:
    state = gmail.install(fake)
    state.deliver("old", 1_700_000_000, "Old")
    state.deliver("new", 1_700_000_100, "New")
    workflow = gmail_workflow(server)
    response = server.client.post(f"/rest/workflows/{workflow['id']}/run", json={})
    assert response.status_code == 200, response.text
    execution_id = response.json()["data"]["executionId"]
    assert subjects(server, execution_id) == ["New"]
    assert state.lists == [{"maxResults": "1"}]
    assert static_data(server, workflow["id"]) == {}


def test_a_workflow_not_active_is_not_polled(server: LiveServer, fake: FakeApiServer) -> None:
    gmail.install(fake)
    gmail_workflow(server)
    assert server.instance.polling.scheduled == []


def test_a_poll_more_often_than_a_minute_is_refused_as_n8n_does(server: LiveServer, fake: FakeApiServer) -> None:
    gmail.install(fake)
    workflow = gmail_workflow(server)
    node = workflow["nodes"][0]
    node["parameters"]["pollTimes"] = {"item": [{"mode": "custom", "cronExpression": "*/10 * * * * *"}]}
    server.client.patch(f"/rest/workflows/{workflow['id']}", json=workflow).raise_for_status()
    response = activate(server, workflow["id"])
    assert response.status_code == 400
    assert "The polling interval is too short. It has to be at least a minute." in response.text
    assert server.instance.polling.scheduled == []


async def test_only_the_leader_polls(tmp_path: Path) -> None:
    """Two processes of one instance: the one holding the scheduler lock polls, the other does not. (SQLite only:
    the lock is a file lock whatever the database; on PostgreSQL the two instances' close leaves a connection
    open, a leak still to be found.)"""
    settings = Settings(user_folder=tmp_path, database_url=f"sqlite:///{tmp_path / 'weft.db'}", encryption_key="k")
    node = {
        "name": NODE,
        "type": "n8n-nodes-base.gmailTrigger",
        "typeVersion": 1.3,
        "parameters": {"pollTimes": {"item": [{"mode": "everyHour", "minute": 1}]}},
    }
    leader, other = Instance.open(settings), Instance.open(settings)
    try:
        leader.store.workflows.import_workflow(trigger_workflow(node), activate=True)
        await leader.start()
        await other.start()
        assert leader.leader is not None and other.leader is None
        assert [key[2] for key in leader.polling.scheduled] == [NODE]
        assert other.polling.scheduled == []
    finally:
        await other.close()
        await leader.close()
