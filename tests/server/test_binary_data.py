"""Binary data through a real server: files that arrive with webhooks are stored (not kept in run data), answered
back as streams, read over REST after a login, and deleted with their executions, in the filesystem and database
modes."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from weft.settings import Settings

from .conftest import TIMEOUT, LiveServer, free_port, log_in, serve_in_thread, wait_for

PDF = b"%PDF-1.4\n" + os.urandom(3000)


def _workflow(path: str, *, respond: str = "node") -> dict[str, Any]:
    """Webhook (v2, binary bodies) → Respond to Webhook with the file, or the Webhook's lastNode firstEntryBinary."""
    hook_params: dict[str, Any] = {"path": path, "httpMethod": "POST", "options": {}}
    nodes: list[dict[str, Any]] = [
        {"id": "h", "name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0]},
        {"id": "n", "name": "Pass", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [200, 0]},
    ]
    if respond == "node":
        hook_params["responseMode"] = "responseNode"
        nodes.append(
            {
                "id": "r",
                "name": "Respond",
                "type": "n8n-nodes-base.respondToWebhook",
                "typeVersion": 1.1,
                "position": [400, 0],
                "parameters": {"respondWith": "binary", "options": {}},
            }
        )
    else:
        hook_params.update(responseMode="lastNode", responseData="firstEntryBinary")
    nodes[0]["parameters"] = hook_params
    nodes[0]["webhookId"] = str(uuid.uuid4())
    connections: dict[str, Any] = {"Hook": {"main": [[{"node": "Pass", "type": "main", "index": 0}]]}}
    if respond == "node":
        connections["Pass"] = {"main": [[{"node": "Respond", "type": "main", "index": 0}]]}
    return {"id": uuid.uuid4().hex[:16], "name": "binary", "nodes": nodes, "connections": connections}


def _stored_entry(live: LiveServer, workflow_id: str) -> tuple[str, dict[str, Any]]:
    rows = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "success"])
    data = live.client.get(f"/rest/executions/{rows[0]['id']}", params={"includeData": True}).json()["data"]
    hook = data["data"]["resultData"]["runData"]["Hook"][0]["data"]["main"][0][0]
    return rows[0]["id"], hook["binary"]["data"]


def _storage_files(settings: Settings) -> list[Path]:
    return [p for p in settings.binary_storage_folder.rglob("*") if p.is_file() and p.suffix != ".metadata"]


def test_a_posted_file_is_stored_answered_and_deleted_with_its_execution(live: LiveServer, path: str) -> None:
    workflow_id = live.import_workflow(_workflow(path))
    answer = live.client.post(f"/webhook/{path}", content=PDF, headers={"content-type": "application/pdf"})
    assert answer.status_code == 200 and answer.content == PDF  # streamed back by Respond to Webhook
    assert answer.headers["content-type"] == "application/pdf"
    execution_id, entry = _stored_entry(live, workflow_id)
    # run data holds a reference, as n8n's filesystem mode writes it, never the bytes
    assert entry["data"] == "filesystem-v2" and entry["id"].startswith("filesystem-v2:workflows/")
    assert f"/executions/{execution_id}/binary_data/" in entry["id"]
    assert (entry["mimeType"], entry["fileType"], entry["fileExtension"]) == ("application/pdf", "pdf", "pdf")
    assert entry["bytes"] == len(PDF) and entry["fileSize"] == "3.01 kB"
    uuid.UUID(entry["fileName"])  # no content-disposition: n8n names the file with a random uuid
    rest = live.client.get("/rest/binary-data", params={"id": entry["id"], "action": "download"})
    assert rest.content == PDF and rest.headers["content-disposition"].startswith("attachment")
    file = live.settings.binary_storage_folder / entry["id"].split(":", 1)[1]
    assert file.read_bytes() == PDF and file.stat().st_mode & 0o077 == 0  # private to the user

    assert live.client.delete(f"/rest/executions/{execution_id}").status_code == 200
    assert not file.exists()
    assert live.client.get("/rest/binary-data", params={"id": entry["id"]}).status_code == 404


def test_last_node_answers_with_the_first_entrys_file(live: LiveServer, path: str) -> None:
    workflow_id = live.import_workflow(_workflow(path, respond="lastNode"))
    headers = {"content-type": "image/png", "content-disposition": 'attachment; filename="shot.png"'}
    answer = live.client.post(f"/webhook/{path}", content=b"\x89PNG\r\n\x1a\n" + PDF, headers=headers)
    assert answer.status_code == 200 and answer.content == b"\x89PNG\r\n\x1a\n" + PDF
    _, entry = _stored_entry(live, workflow_id)
    assert (entry["fileName"], entry["fileExtension"], entry["fileType"]) == ("shot.png", "png", "image")


def test_binary_data_needs_a_login_and_opens_only_stored_files(live: LiveServer, path: str) -> None:
    workflow_id = live.import_workflow(_workflow(path))
    octets = {"content-type": "application/octet-stream"}
    live.client.post(f"/webhook/{path}", content=b"<script>alert(1)</script>", headers=octets)
    _, entry = _stored_entry(live, workflow_id)
    with httpx.Client(base_url=live.url, timeout=TIMEOUT) as stranger:
        assert stranger.get("/rest/binary-data", params={"id": entry["id"]}).status_code == 401
    # HTML is never shown inline: the browser would run it as a page of this server
    shown = live.client.get("/rest/binary-data", params={"id": entry["id"], "action": "view", "mimeType": "text/html"})
    assert shown.headers["content-disposition"].startswith("attachment")
    assert (
        shown.headers["x-content-type-options"] == "nosniff" and "sandbox" in shown.headers["content-security-policy"]
    )
    for forged in (
        "filesystem-v2:../../config",
        "filesystem-v2:/etc/passwd",
        "filesystem-v2:workflows/x/executions/1/binary_data/../../../../../config",
        "nomode:abc",
    ):
        assert live.client.get("/rest/binary-data", params={"id": forged}).status_code == 404, forged


@pytest.fixture
def database_mode(tmp_path: Path) -> Iterator[LiveServer]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(
        user_folder=tmp_path,
        encryption_key="test-key",
        port=port,
        public_url=url + "/",
        binary_data_mode="database",
    )
    server, thread = serve_in_thread(settings, port)
    with httpx.Client(base_url=url, timeout=TIMEOUT) as client:
        log_in(client)
        yield LiveServer(url=url, settings=settings, server=server, client=client)
    server.should_exit = True
    thread.join(TIMEOUT)


def test_the_database_mode_keeps_files_in_the_database(database_mode: LiveServer) -> None:
    live, path = database_mode, f"db-{uuid.uuid4().hex[:8]}"
    workflow_id = live.import_workflow(_workflow(path))
    big = os.urandom(2_500_000)  # more than two chunk rows
    answer = live.client.post(f"/webhook/{path}", content=big, headers={"content-type": "application/octet-stream"})
    assert answer.content == big
    execution_id, entry = _stored_entry(live, workflow_id)
    assert entry["data"] == "database" and entry["id"].startswith("database:") and entry["bytes"] == len(big)
    assert _storage_files(live.settings) == []  # nothing on disk
    assert live.client.get("/rest/binary-data", params={"id": entry["id"]}).content == big
    db = live.instance.store.db
    with db.sessions() as session:
        chunks = session.execute(text("SELECT count(*) FROM binary_data_chunk")).scalar()
    assert chunks == 3
    live.client.delete(f"/rest/executions/{execution_id}")
    with db.sessions() as session:
        left = session.execute(text("SELECT count(*) FROM binary_data")).scalar()
    assert left == 0
