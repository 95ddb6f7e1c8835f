"""One real server on 127.0.0.1 for the security suite, an anonymous client and a logged-in owner's client.

``golden`` is what n8n 2.8.4 answered to the same requests (``n8n_answers.json``, recorded by ``_record_n8n.py``).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from tests.server.conftest import app_of, free_port, serve_in_thread, wait_for  # noqa: F401 (wait_for: for the suite)

from weft.services.instance import Instance
from weft.settings import Settings

HERE = Path(__file__).resolve().parent
OWNER = {"email": "owner@example.com", "firstName": "Ada", "lastName": "Owner", "password": "Passw0rd-long"}
TIMEOUT = 10.0


@dataclass
class Server:
    url: str
    settings: Settings
    server: uvicorn.Server
    owner: httpx.Client
    """Logged in as the instance owner (the fixture set it up)."""

    @property
    def instance(self) -> Instance:
        instance: Instance = app_of(self.server).state.instance
        return instance

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=TIMEOUT, **kwargs)

    def import_workflow(self, data: dict[str, Any], *, activate: bool = True) -> str:
        response = self.owner.post("/rest/workflows/import", json=data, params={"activate": activate})
        assert response.status_code == 201, response.text
        workflow_id: str = response.json()["data"][0]["id"]
        return workflow_id

    def executions(self, workflow_id: str) -> list[dict[str, Any]]:
        response = self.owner.get("/rest/executions", params={"workflowId": workflow_id})
        rows: list[dict[str, Any]] = response.json()["data"]
        return rows

    def api_key(self, scopes: list[str] | None = None, expires_at: int | None = None) -> tuple[str, str]:
        """A new API key of the owner: ``(id, key)``; all scopes unless given."""
        every = self.owner.get("/rest/api-keys/scopes").json()["data"]
        body = {"label": f"k-{uuid.uuid4().hex[:6]}", "scopes": scopes or every, "expiresAt": expires_at}
        created = self.owner.post("/rest/api-keys", json=body)
        assert created.status_code == 200, created.text
        data = created.json()["data"]
        return data["id"], data["rawApiKey"]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("weft-security")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(
        user_folder=folder, encryption_key="test-key", port=port, public_url=url + "/", code_timeout=5
    )  # spinning Code nodes of the suite end after 5 s, not n8n's 300
    uv, thread = serve_in_thread(settings, port)
    with httpx.Client(base_url=url, timeout=TIMEOUT) as owner:
        owner.post("/rest/owner/setup", json=OWNER)  # not asserted: the suite also runs against code without users
        yield Server(url=url, settings=settings, server=uv, owner=owner)
    uv.should_exit = True
    thread.join(TIMEOUT)


@pytest.fixture
def anon(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


@pytest.fixture(scope="session")
def golden() -> dict[str, Any]:
    answers: dict[str, Any] = json.loads((HERE / "n8n_answers.json").read_text())
    return answers


def webhook_workflow(
    path: str, authentication: str = "none", credential: tuple[str, str] | None = None, **parameters: Any
) -> dict[str, Any]:
    """A Webhook (answering when received) workflow on ``path``, with ``authentication`` and a credential."""
    node: dict[str, Any] = {
        "parameters": {"path": path, "authentication": authentication, "options": {}, **parameters},
        "name": "Webhook",
        "type": "n8n-nodes-base.webhook",
        "typeVersion": 2,
        "position": [0, 0],
        "webhookId": str(uuid.uuid4()),
        "id": str(uuid.uuid4()),
    }
    if credential is not None:
        kind, cid = credential
        node["credentials"] = {kind: {"id": cid, "name": kind}}
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"sec {path}",
        "nodes": [node],
        "connections": {},
        "settings": {"executionOrder": "v1"},
    }


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"
