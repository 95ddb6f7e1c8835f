"""A real uvicorn server on 127.0.0.1 (ephemeral port, tmp user folder) per backend, and helpers to drive it.

The server runs in a background thread for the session; every backend of ``WEFT_TEST_DATABASE_URL`` (see
``tests/db/conftest.py``) gets its own. Tests talk to it with ``httpx`` over TCP and read the database
through the server's own store. Workflows use unique webhook paths, so tests share one server.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from weft.cli.start import uvicorn_options
from weft.db.test_support import backends, empty_database_url
from weft.server import create_app
from weft.services.instance import Instance
from weft.settings import Settings

BACKENDS = [
    pytest.param(name, id=name, marks=[pytest.mark.postgres] if name == "postgresql" else []) for name in backends()
]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def database_url(backend: str, folder: Path, schema: str = "weft_live") -> str:
    """An empty database: servers of one session each get their own PostgreSQL schema, so they share no tables."""
    return empty_database_url(backend, folder, schema)


def wait_for(check: Callable[[], Any], timeout: float = TIMEOUT, interval: float = 0.02) -> Any:
    """Poll ``check`` until it returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(interval)


@dataclass
class LiveServer:
    url: str
    settings: Settings
    server: uvicorn.Server
    client: httpx.Client

    @property
    def instance(self) -> Instance:
        instance: Instance = app_of(self.server).state.instance
        return instance

    def import_workflow(self, data: dict[str, Any], *, activate: bool = True) -> str:
        response = self.client.post("/rest/workflows/import", json=data, params={"activate": activate})
        assert response.status_code == 201, response.text
        workflow_id: str = response.json()["data"][0]["id"]
        return workflow_id

    def execution(self, execution_id: str) -> dict[str, Any]:
        response = self.client.get(f"/rest/executions/{execution_id}")
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()["data"]
        return data

    def executions(self, workflow_id: str) -> list[dict[str, Any]]:
        response = self.client.get("/rest/executions", params={"workflowId": workflow_id})
        rows: list[dict[str, Any]] = response.json()["data"]
        return rows

    def wait_status(self, execution_id: str, status: str) -> dict[str, Any]:
        return wait_for(lambda: (e := self.execution(execution_id))["status"] == status and e)  # type: ignore[no-any-return]


OWNER = {"email": "owner@example.com", "firstName": "Ada", "lastName": "Owner", "password": "Passw0rd-long"}


def log_in(client: httpx.Client) -> httpx.Client:
    """Set up the instance owner (on a fresh instance) or log in as it: the client then holds the session cookie."""
    response = client.post("/rest/owner/setup", json=OWNER)
    if response.status_code != 200:
        response = client.post(
            "/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]}
        )
    assert response.status_code == 200, response.text
    return client


def app_of(server: uvicorn.Server) -> Any:
    """The application ``server`` serves (inside uvicorn's middleware, if it added any)."""
    app: Any = server.config.loaded_app
    while not hasattr(app, "state"):
        app = app.app
    return app


def serve_in_thread(settings: Settings, port: int) -> tuple[uvicorn.Server, threading.Thread]:
    """A real server for ``settings`` on 127.0.0.1:``port``, in a thread; returns once it listens."""
    # uvicorn as `weft start` runs it: its protocol (weft.server.coalescing), trusting no proxy (X-Forwarded-For
    # is read by the app, only by WEFT_PROXY_HOPS)
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, lifespan="on", **uvicorn_options())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="weft-test-server", daemon=True)
    thread.start()
    wait_for(lambda: server.started or not thread.is_alive())
    assert server.started, "the test server did not start"
    return server, thread


@pytest.fixture(scope="session", params=BACKENDS)
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serve_live(request.param, tmp_path_factory)


def serve_live(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server on 127.0.0.1 with a fresh ``backend`` database and a logged-in client, until the generator ends."""
    folder = tmp_path_factory.mktemp(f"weft-{backend}")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(
        user_folder=folder,
        database_url=database_url(backend, folder),
        encryption_key="test-key",
        port=port,
        public_url=url + "/",
    )
    server, thread = serve_in_thread(settings, port)
    with httpx.Client(base_url=url, timeout=TIMEOUT) as client:
        log_in(client)
        yield LiveServer(url=url, settings=settings, server=server, client=client)
    server.should_exit = True
    thread.join(TIMEOUT)


def example_workflow(name: str, path: str | None = None) -> dict[str, Any]:
    """A workflow of ``examples/`` with a fresh id, and its webhook path replaced by ``path``."""
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    data["id"] = uuid.uuid4().hex[:16]
    for node in data["nodes"]:
        if node["type"] == "n8n-nodes-base.webhook" and path is not None:
            node["parameters"]["path"] = path
        if "webhookId" in node:
            node["webhookId"] = str(uuid.uuid4())
    return data


def unique_path(prefix: str = "t") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def example() -> Callable[..., dict[str, Any]]:
    """``example("webhook_set_respond.json", path)``: an example workflow with a unique id and webhook path."""
    return example_workflow


@pytest.fixture
def path() -> str:
    """A unique webhook path."""
    return unique_path()
