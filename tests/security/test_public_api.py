"""The public API follows n8n's shapes: bare objects, ``{data, nextCursor}`` lists, ``{"message"}`` errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server, unique, webhook_workflow

MANUAL = {
    "name": "public",
    "nodes": [
        {
            "parameters": {},
            "name": "Start",
            "type": "n8n-nodes-base.manualTrigger",
            "typeVersion": 1,
            "position": [0, 0],
        }
    ],
    "connections": {},
    "settings": {"executionOrder": "v1"},
}


@pytest.fixture
def api(server: Server) -> Iterator[httpx.Client]:
    _, key = server.api_key()
    with server.client(headers={"X-N8N-API-KEY": key}) as client:
        yield client


def _keys(entry: dict[str, Any]) -> set[str]:
    return set(entry["body"])


def test_workflows_create_put_get_delete(api: httpx.Client, golden: dict[str, Any]) -> None:
    n8n = golden["auth"]["public_full"]
    created = api.post("/api/v1/workflows", json=MANUAL)
    assert created.status_code == n8n["create_workflow"]["status"]
    assert {"id", "name", "active", "nodes", "connections", "settings", "createdAt", "updatedAt"} <= set(created.json())
    workflow_id = created.json()["id"]
    updated = api.put(f"/api/v1/workflows/{workflow_id}", json={**MANUAL, "name": "renamed"})
    assert updated.status_code == n8n["update_workflow"]["status"] and updated.json()["name"] == "renamed"
    assert api.get(f"/api/v1/workflows/{workflow_id}").json()["name"] == "renamed"
    missing = api.put("/api/v1/workflows/nope", json=MANUAL)
    assert {"status": missing.status_code, "body": missing.json()} == n8n["update_workflow_missing"]
    assert api.delete(f"/api/v1/workflows/{workflow_id}").json()["name"] == "renamed"
    gone = api.delete(f"/api/v1/workflows/{workflow_id}")
    assert {"status": gone.status_code, "body": gone.json()} == n8n["delete_workflow_missing"]


def test_a_workflow_body_needs_settings_as_n8n(api: httpx.Client, golden: dict[str, Any]) -> None:
    refused = api.post("/api/v1/workflows", json={"name": "x", "nodes": [], "connections": {}})
    n8n = golden["auth"]["public_full"]["create_workflow_no_settings"]
    assert {"status": refused.status_code, "body": refused.json()} == n8n


def test_activate_and_deactivate(api: httpx.Client, server: Server) -> None:
    path = unique("pub")
    workflow = webhook_workflow(path)
    created = api.post(
        "/api/v1/workflows", json={k: workflow[k] for k in ("name", "nodes", "connections", "settings")}
    ).json()
    activated = api.post(f"/api/v1/workflows/{created['id']}/activate")
    assert activated.status_code == 200 and activated.json()["active"] is True
    assert httpx.get(f"{server.url}/webhook/{path}").status_code == 200
    deactivated = api.post(f"/api/v1/workflows/{created['id']}/deactivate")
    assert deactivated.status_code == 200 and deactivated.json()["active"] is False
    no_trigger = api.post("/api/v1/workflows", json={**MANUAL, "nodes": []}).json()
    refused = api.post(f"/api/v1/workflows/{no_trigger['id']}/activate")
    assert refused.status_code == 400 and set(refused.json()) == {"message"}


def test_executions_list_and_get(api: httpx.Client, server: Server, golden: dict[str, Any]) -> None:
    path = unique("pubexec")
    workflow_id = server.import_workflow(webhook_workflow(path))
    assert httpx.get(f"{server.url}/webhook/{path}").status_code == 200
    listed = api.get("/api/v1/executions", params={"workflowId": workflow_id})
    assert set(listed.json()) == set(golden["auth"]["public_full"]["list_executions"]["body"])
    n8n_fields = set(golden["auth"]["public_full"]["list_executions"]["body"]["data"][0])
    rows = listed.json()["data"]
    assert rows and set(rows[0]) == n8n_fields
    assert api.get(f"/api/v1/executions/{rows[0]['id']}").json()["id"] == rows[0]["id"]
    missing = api.get("/api/v1/executions/999999")
    assert {"status": missing.status_code, "body": missing.json()} == golden["auth"]["public_full"][
        "get_execution_missing"
    ]


def test_credentials_create_and_delete(api: httpx.Client, golden: dict[str, Any]) -> None:
    created = api.post(
        "/api/v1/credentials", json={"name": "pc", "type": "httpHeaderAuth", "data": {"name": "X-A", "value": "b"}}
    )
    assert created.status_code == golden["auth"]["public_full"]["create_credential"]["status"]
    assert {"id", "name", "type", "createdAt", "updatedAt"} <= set(created.json()) and "data" not in created.json()
    deleted = api.delete(f"/api/v1/credentials/{created.json()['id']}")
    assert deleted.status_code == 200 and deleted.json()["name"] == "pc"


def test_tags(api: httpx.Client, server: Server, golden: dict[str, Any]) -> None:
    name = unique("t")[:20]
    created = api.post("/api/v1/tags", json={"name": name})
    assert created.status_code == golden["auth"]["public_full"]["create_tag"]["status"]
    assert set(created.json()) == _keys(golden["auth"]["public_full"]["create_tag"])
    again = api.post("/api/v1/tags", json={"name": name})
    assert {"status": again.status_code, "body": again.json()} == golden["auth"]["public_full"]["create_tag_again"]
    listed = api.get("/api/v1/tags").json()
    assert set(listed) == {"data", "nextCursor"} and name in [t["name"] for t in listed["data"]]
    workflow_id = api.post("/api/v1/workflows", json=MANUAL).json()["id"]
    tagged = api.put(f"/api/v1/workflows/{workflow_id}/tags", json=[{"id": created.json()["id"]}])
    assert [t["name"] for t in tagged.json()] == [name]
    assert [t["name"] for t in api.get(f"/api/v1/workflows/{workflow_id}").json()["tags"]] == [name]
    assert api.delete(f"/api/v1/tags/{created.json()['id']}").json()["name"] == name
