"""Google Drive Trigger against a fake Drive file list."""

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
)
from tests.server.conftest import LiveServer

from weft.testing.fake_api import FakeApiServer
from weft.testing.trigger_fakes import google_drive

NODE = "Google Drive Trigger"


def _node(server: LiveServer, folder: str = "folder1", event: str = "fileCreated") -> dict[str, Any]:
    data = {"clientId": "c", "clientSecret": "s", "oauthTokenData": {"access_token": google_drive.TOKEN}}
    credential = add_credential(server, "googleDriveOAuth2Api", data)
    return {
        "name": NODE,
        "type": "n8n-nodes-base.googleDriveTrigger",
        "typeVersion": 1,
        "parameters": {
            "pollTimes": {"item": [{"mode": "everyMinute"}]},
            "triggerOn": "specificFolder",
            "folderToWatch": {"__rl": True, "mode": "url", "value": f"https://drive.google.com/drive/folders/{folder}"},
            "event": event,
            "options": {},
        },
        "credentials": {"googleDriveOAuth2Api": credential},
    }


def _file(file_id: str, created: str, parent: str = "folder1") -> dict[str, Any]:
    return {"id": file_id, "name": f"{file_id}.txt", "mimeType": "text/plain", "parents": [parent],
            "createdTime": created, "modifiedTime": created}  # fmt: skip


def test_files_created_in_the_folder_since_the_last_poll(server: LiveServer, fake: FakeApiServer, clock: Clock) -> None:
    state = google_drive.install(fake)
    state.files.append(_file("before", "2026-03-01T11:00:00.000Z"))
    workflow = create_workflow(server, _node(server))
    assert activate(server, workflow["id"]).status_code == 200
    assert state.queries[0]["q"] == (
        "trashed = false AND 'folder1' in parents AND mimeType != 'application/vnd.google-apps.folder' "
        "AND createdTime > '2026-03-01T12:00:00Z'"
    )
    assert state.queries[0]["corpora"] == "allDrives"
    state.files += [_file("a", "2026-03-01T12:00:10.000Z"), _file("b", "2026-03-01T12:00:20.000Z"),
                    _file("elsewhere", "2026-03-01T12:00:30.000Z", parent="other")]  # fmt: skip
    clock.set("2026-03-01T12:01:00Z")
    execution_id = drive_poll(server, workflow["id"], NODE)
    assert execution_id is not None
    assert [f["id"] for f in output(server, execution_id, NODE)] == ["a", "b"]
    assert state.queries[-1]["pageToken"] == "1"
    clock.set("2026-03-01T12:02:00Z")
    assert drive_poll(server, workflow["id"], NODE) is None


def test_a_watched_folder_that_is_gone_refuses_the_activation_with_n8ns_message(
    server: LiveServer, fake: FakeApiServer, clock: Clock
) -> None:
    google_drive.install(fake)
    workflow = create_workflow(server, _node(server, folder="gone"))
    response = activate(server, workflow["id"])
    assert response.status_code == 400
    assert "The folder this node watches no longer exists" in response.text


def test_a_manual_run_with_no_file_fails_as_n8n(server: LiveServer, fake: FakeApiServer, clock: Clock) -> None:
    state = google_drive.install(fake)
    workflow = create_workflow(server, _node(server))
    execution = manual_run(server, workflow["id"])
    assert execution["status"] == "error"
    assert "No data with the current filter could be found" in str(execution["data"]["resultData"]["error"])
    assert state.queries[-1]["pageSize"] == "1"
    state.files.append(_file("x", "2020-01-01T00:00:00.000Z"))
    assert manual_run(server, workflow["id"])["status"] == "success"
