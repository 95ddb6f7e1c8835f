"""A real Weft server on 127.0.0.1 whose nodes reach the trigger fakes through the fake as HTTPS proxy."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import TIMEOUT, LiveServer, database_url, free_port, log_in, serve_in_thread, wait_for

from weft.nodes import triggers
from weft.settings import Settings
from weft.testing.fake_api import FakeApiServer
from weft.testing.tls import CertAuthority


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeApiServer]:
    """The services' fake, which is also the HTTPS proxy Weft's nodes use (its CA trusted)."""
    with FakeApiServer(0, CertAuthority()) as server:
        assert server.authority is not None
        monkeypatch.setenv("HTTPS_PROXY", server.url)
        monkeypatch.setenv("WEFT_EXTRA_CA_CERTS", str(server.authority.ca_file))
        monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
        yield server


def start_server(folder: Path, url_of_db: str | None = None) -> tuple[LiveServer, Any]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(
        user_folder=folder,
        database_url=url_of_db or database_url("sqlite", folder),
        encryption_key="test-key",
        port=port,
        public_url=url + "/",
    )
    server, thread = serve_in_thread(settings, port)
    client = httpx.Client(base_url=url, timeout=TIMEOUT, trust_env=False)
    log_in(client)
    return LiveServer(url=url, settings=settings, server=server, client=client), thread


def stop_server(live: LiveServer, thread: Any) -> None:
    live.client.close()
    live.server.should_exit = True
    thread.join(TIMEOUT)


@pytest.fixture
def server(tmp_path: Path, fake: FakeApiServer) -> Iterator[LiveServer]:
    live, thread = start_server(tmp_path)
    yield live
    stop_server(live, thread)


def add_credential(live: LiveServer, type_name: str, data: dict[str, Any]) -> dict[str, str]:
    response = live.client.post(
        "/rest/credentials", json={"name": f"{type_name} test", "type": type_name, "data": data}
    )
    assert response.status_code in (200, 201), response.text
    created = response.json()["data"]
    return {"id": str(created["id"]), "name": str(created["name"])}


def trigger_workflow(node: dict[str, Any], *, name: str = "trigger test") -> dict[str, Any]:
    """A workflow of ``node`` (given an id and a webhookId) followed by a No Operation node."""
    node = {"id": str(uuid.uuid4()), "webhookId": str(uuid.uuid4()), "position": [0, 0], **node}
    noop = {
        "id": str(uuid.uuid4()),
        "name": "Done",
        "type": "n8n-nodes-base.noOp",
        "typeVersion": 1,
        "position": [200, 0],
        "parameters": {},
    }
    return {
        "id": uuid.uuid4().hex[:16],
        "name": name,
        "nodes": [node, noop],
        "connections": {node["name"]: {"main": [[{"node": "Done", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }


def activate(live: LiveServer, workflow_id: str) -> httpx.Response:
    return live.client.post(f"/rest/workflows/{workflow_id}/activate")


def create_workflow(live: LiveServer, node: dict[str, Any]) -> dict[str, Any]:
    workflow = trigger_workflow(node)
    response = live.client.post("/rest/workflows", json=workflow)
    assert response.status_code in (200, 201), response.text
    return workflow


def drive_poll(live: LiveServer, workflow_id: str, node: str) -> str | None:
    """One poll of ``node`` in the server's event loop, as its timer would run it (no waiting on the clock)."""
    instance = live.instance
    loop = instance._tasks[0].get_loop()

    async def poll() -> str | None:
        await instance.active.refresh()
        return await instance.polling.poll(instance.active.workflows[workflow_id], node)

    return asyncio.run_coroutine_threadsafe(poll(), loop).result(30)


def output(live: LiveServer, execution_id: str, node: str, status: str = "success") -> list[dict[str, Any]]:
    execution = live.wait_status(execution_id, status)
    return [item["json"] for item in execution["data"]["resultData"]["runData"][node][0]["data"]["main"][0]]


def static_data(live: LiveServer, workflow_id: str) -> dict[str, Any]:
    stored = live.instance.store.workflows.get(workflow_id)
    assert stored is not None
    return dict(stored.data.get("staticData") or {})


def manual_run(live: LiveServer, workflow_id: str) -> dict[str, Any]:
    response = live.client.post(f"/rest/workflows/{workflow_id}/run", json={})
    assert response.status_code == 200, response.text
    execution_id = response.json()["data"]["executionId"]
    return wait_for(lambda: (e := live.execution(execution_id))["status"] not in ("running", "new") and e)  # type: ignore[no-any-return]


class Clock:
    """The time the triggers' polls see (``weft.nodes.triggers.now``), set by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.moment = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
        monkeypatch.setattr(triggers, "now", lambda: self.moment)

    def set(self, iso: str) -> None:
        self.moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)
