"""A real Weft server on 127.0.0.1 serving the recorded MCP workflows, and n8n's answers (``golden``).

The workflows are those of :mod:`._workflows` (what n8n 2.8.4 was recorded with, ``_record_n8n_mcp.py``), with
their credentials created through the REST API; each test module gets them on fresh paths.
"""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from tests.server.conftest import OWNER, app_of, free_port, serve_in_thread, wait_for

from weft.services.instance import Instance
from weft.settings import Settings

from ._workflows import CREDENTIALS, WORKFLOWS

HERE = Path(__file__).resolve().parent
TIMEOUT = 10.0
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@dataclass
class McpServer:
    url: str
    server: uvicorn.Server
    owner: httpx.Client
    paths: dict[str, str] = field(default_factory=dict)
    """Recorded workflow name → the path it is served on here."""
    ids: dict[str, str] = field(default_factory=dict)

    @property
    def instance(self) -> Instance:
        instance: Instance = app_of(self.server).state.instance
        return instance

    def mcp_url(self, name: str, *, test: bool = False) -> str:
        return f"{self.url}/{'mcp-test' if test else 'mcp'}/{self.paths[name]}"

    def executions(self, name: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.owner.get("/rest/executions", params={"workflowId": self.ids[name]}).json()[
            "data"
        ]
        return rows

    def execution(self, execution_id: str) -> dict[str, Any]:
        data: dict[str, Any] = self.owner.get(f"/rest/executions/{execution_id}").json()["data"]
        return data

    def serve(self, name: str, workflow: dict[str, Any], *, activate: bool = True) -> str:
        """Import ``workflow`` on a fresh path as ``name``; returns the path."""
        data = copy.deepcopy(workflow)
        data["id"] = uuid.uuid4().hex[:16]
        path = f"{data['nodes'][0]['parameters']['path']}-{uuid.uuid4().hex[:6]}"
        data["nodes"][0]["parameters"]["path"] = path
        for node in data["nodes"]:
            for kind, ref in (node.get("credentials") or {}).items():
                ref["id"] = self._credential_ids[kind]
        response = self.owner.post("/rest/workflows/import", json=data, params={"activate": activate})
        assert response.status_code == 201, response.text
        self.paths[name], self.ids[name] = path, response.json()["data"][0]["id"]
        return path

    _credential_ids: dict[str, str] = field(default_factory=dict)


@pytest.fixture(scope="session")
def mcp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[McpServer]:
    folder = tmp_path_factory.mktemp("weft-mcp")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(user_folder=folder, encryption_key="test-key", port=port, public_url=url + "/")
    uv, thread = serve_in_thread(settings, port)
    with httpx.Client(base_url=url, timeout=TIMEOUT) as owner:
        assert owner.post("/rest/owner/setup", json=OWNER).status_code == 200
        live = McpServer(url=url, server=uv, owner=owner)
        for credential in CREDENTIALS:
            body = {"name": credential["name"], "type": credential["type"], "data": credential["data"]}
            created = owner.post("/rest/credentials", json=body)
            assert created.status_code == 201, created.text
            live._credential_ids[credential["type"]] = created.json()["data"]["id"]
        for name, workflow in WORKFLOWS.items():
            live.serve(name, workflow)
        yield live
    uv.should_exit = True
    thread.join(TIMEOUT)


@pytest.fixture(scope="session")
def golden() -> dict[str, Any]:
    """What n8n 2.41.1 answered (``n8n_mcp_answers_2.41.json``): Weft follows it where 2.8.4 differs."""
    answers: dict[str, Any] = json.loads((HERE / "n8n_mcp_answers_2.41.json").read_text())
    return answers


@pytest.fixture(scope="session")
def expected_weft() -> dict[str, Any]:
    """Weft's answers where it deliberately differs from n8n (``expected_weft_mcp.json``)."""
    answers: dict[str, Any] = json.loads((HERE / "expected_weft_mcp.json").read_text())
    return answers


@pytest.fixture(scope="session")
def golden_284() -> dict[str, Any]:
    """What n8n 2.8.4 answered (``n8n_mcp_answers.json``)."""
    answers: dict[str, Any] = json.loads((HERE / "n8n_mcp_answers.json").read_text())
    return answers


__all__ = ["ACCEPT", "McpServer", "wait_for"]
