"""A restart in the middle of a wait, with real ``weft start`` processes: start, wait, stop the server, start it
again, resume through the signed URL, success in the database. Also: crash recovery on start-up."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from weft.services.import_export import open_store
from weft.settings import Settings

from .conftest import BACKENDS, TIMEOUT, database_url, example_workflow, free_port, log_in, unique_path, wait_for


class WeftProcess:
    def __init__(self, env: dict[str, str], url: str) -> None:
        self.env, self.url = env, url
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # its own process group, so that stopping it stops its worker processes too (none is left behind)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "weft", "start"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        wait_for(self._ready, timeout=30)

    def _ready(self) -> bool:
        assert self.process is not None and self.process.poll() is None, self._stderr()
        try:
            return httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    def _stderr(self) -> str:
        return self.process.stderr.read().decode() if self.process and self.process.stderr else ""

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(TIMEOUT)
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)  # workers still alive after the supervisor ended
        if self.process is not None and self.process.stderr:
            self.process.stderr.close()
        self.process = None


@pytest.fixture(params=BACKENDS)
def weft_process(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[WeftProcess]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "WEFT_USER_FOLDER": str(tmp_path),
        "WEFT_PORT": str(port),
        "WEFT_PUBLIC_URL": url + "/",
        "WEFT_DATABASE_URL": database_url(request.param, tmp_path, "weft_restart"),
        "WEFT_WORKERS": "1",
    }
    process = WeftProcess(env, url)
    yield process
    process.stop(signal.SIGKILL)


def _settings(process: WeftProcess) -> Settings:
    return Settings.from_env(process.env)


def test_a_wait_survives_a_restart(weft_process: WeftProcess) -> None:
    path = unique_path("restart")
    weft_process.start()
    client = log_in(httpx.Client(base_url=weft_process.url, timeout=TIMEOUT))
    data: dict[str, Any] = example_workflow("wait_approval.json", path)
    assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
    info = client.post(f"/webhook/{path}", json={"request": "restart"}).json()
    wait_for(lambda: client.get(f"/rest/executions/{info['executionId']}").json()["data"]["status"] == "waiting")
    weft_process.stop(signal.SIGKILL)  # a hard kill: the waiting execution lives only in the database
    weft_process.start()
    resumed = client.post(info["resumeUrl"], json={"approved": True})
    assert resumed.status_code == 200, resumed.text
    store = open_store(_settings(weft_process))
    try:
        done = wait_for(lambda: (e := store.executions.get(info["executionId"])) and e.status == "success" and e)
        assert done.data["resultData"]["runData"]["Decision"][0]["data"]["main"][0][0]["json"]["approved"] is True
    finally:
        store.close()
        client.close()


def test_running_executions_become_crashed_on_start(weft_process: WeftProcess) -> None:
    store = open_store(_settings(weft_process))
    try:
        left = store.executions.create({"name": "x", "nodes": [], "connections": {}}, "webhook", "running")
        weft_process.start()
        stored = store.executions.get(left, include_data=False)
        assert stored is not None and stored.status == "crashed"
    finally:
        store.close()


def test_two_worker_processes_share_the_instance(weft_process: WeftProcess) -> None:
    weft_process.env["WEFT_WORKERS"] = "2"
    path = unique_path("workers")
    weft_process.start()
    with httpx.Client(base_url=weft_process.url, timeout=TIMEOUT) as client:
        log_in(client)
        data = example_workflow("webhook_set_respond.json", path)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        # the other worker learns about the activation from the database
        answers = [client.post(f"/webhook/{path}", json={"a": 1, "b": 2, "name": "x", "tags": []}) for _ in range(20)]
        assert all(a.status_code == 200 and a.json()["total"] == 3 for a in answers)


def test_the_cli_and_the_server_agree_on_the_recovery_flag() -> None:
    from weft.cli.start import RECOVERED_ENV as cli_flag
    from weft.server.app import RECOVERED_ENV as server_flag

    assert cli_flag == server_flag


def test_sigterm_stops_the_server_while_an_endless_loop_runs(weft_process: WeftProcess) -> None:
    """A workflow looping A → B → A forever (no cap) does not keep the server from shutting down on SIGTERM: after
    the grace period the execution is stopped, and saved as canceled with its run data."""
    path = unique_path("loop")
    weft_process.env.update(WEFT_MAX_NODE_RUNS="0", WEFT_GRACEFUL_SHUTDOWN_TIMEOUT="1")
    weft_process.start()
    nodes = [
        {
            "name": "Webhook",
            "type": "n8n-nodes-base.webhook",
            "typeVersion": 2,
            "position": [0, 0],
            "webhookId": unique_path("hook"),
            "parameters": {"path": path, "httpMethod": "POST", "options": {}},
        },
        {"name": "A", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [200, 0], "parameters": {}},
        {"name": "B", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [400, 0], "parameters": {}},
    ]
    edge = lambda to: {"main": [[{"node": to, "type": "main", "index": 0}]]}  # noqa: E731
    data = {
        "id": unique_path("wf")[:16],
        "name": "endless",
        "nodes": nodes,
        "settings": {"executionOrder": "v1"},
        "connections": {"Webhook": edge("A"), "A": edge("B"), "B": edge("A")},
    }
    with httpx.Client(base_url=weft_process.url, timeout=TIMEOUT) as client:
        log_in(client)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        assert client.post(f"/webhook/{path}", json={}).status_code == 200  # answered; the loop runs on
        assert client.get("/healthz").status_code == 200  # and the server still answers
    assert weft_process.process is not None
    weft_process.process.send_signal(signal.SIGTERM)
    # uvicorn ends a graceful shutdown by re-raising the signal, so the exit status is the signal's
    assert weft_process.process.wait(30) in (0, -signal.SIGTERM)
    store = open_store(_settings(weft_process))
    try:
        [execution] = store.executions.list()
        stored = store.executions.get(execution.id)
        assert stored is not None and stored.status == "canceled"
        assert len(stored.data["resultData"]["runData"]["A"]) > 1  # it looped, and its run data was kept
    finally:
        store.close()
