"""The REST API over HTTP: workflows, executions, credentials (never their secrets), OpenAPI."""

from __future__ import annotations

import uuid
from typing import Any

from weft.testing.workflows import connect, node, workflow

from .conftest import LiveServer, wait_for


def manual(name: str, fail: bool = False) -> dict[str, Any]:
    last = node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "bad"}) if fail else node("Fail")
    data = workflow(node("Start", "n8n-nodes-base.manualTrigger"), last, connect("Start", "Fail"))
    return {**data, "name": name, "id": uuid.uuid4().hex[:16], "meta": {"kept": True}}


def test_workflow_crud(live: LiveServer) -> None:
    created = live.client.post("/rest/workflows", json=manual("crud"))
    assert created.status_code == 201
    workflow_id = created.json()["data"]["id"]
    got = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    assert got["name"] == "crud" and got["active"] is False and got["meta"] == {"kept": True}
    changed = {**got, "name": "renamed"}
    updated = live.client.patch(f"/rest/workflows/{workflow_id}", json=changed).json()["data"]
    assert updated["name"] == "renamed" and updated["versionId"] != got["versionId"]
    assert workflow_id in [w["id"] for w in live.client.get("/rest/workflows").json()["data"]]
    assert live.client.delete(f"/rest/workflows/{workflow_id}").status_code == 200
    missing = live.client.get(f"/rest/workflows/{workflow_id}")
    assert missing.status_code == 404 and workflow_id in missing.json()["message"]


def test_invalid_workflow_is_400_naming_the_problem(live: LiveServer) -> None:
    bad = workflow(node("X", "acme.unknown"))
    response = live.client.post("/rest/workflows", json=bad)
    assert response.status_code in (201, 400)
    if response.status_code == 201:  # stored; activation validates
        workflow_id = response.json()["data"]["id"]
        response = live.client.post(f"/rest/workflows/{workflow_id}/activate")
        assert response.status_code == 400 and "acme.unknown" in response.json()["message"]


def test_a_workflow_without_settings_saves_back_what_it_was_given(live: LiveServer) -> None:
    # the editor saves the GET answer back: its "settings": null must not be refused
    data = workflow(node("Start", "n8n-nodes-base.manualTrigger"))
    del data["settings"]
    created = live.client.post("/rest/workflows", json=data)
    assert created.status_code == 201, created.text
    answer = live.client.get(f"/rest/workflows/{created.json()['data']['id']}").json()["data"]
    saved = live.client.patch(f"/rest/workflows/{answer['id']}", json=answer)
    assert saved.status_code == 200, saved.text


def test_executions_list_get_filter_retry_delete(live: LiveServer) -> None:
    workflow_id = live.client.post("/rest/workflows", json=manual("ex", fail=True)).json()["data"]["id"]
    run = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert run["status"] == "error"
    failed_id = run["executionId"]
    listed = live.client.get("/rest/executions", params={"workflowId": workflow_id, "status": "error"}).json()
    assert [e["id"] for e in listed["data"]] == [failed_id] and listed["data"][0]["data"] is None
    full = live.execution(failed_id)
    assert full["data"]["resultData"]["error"]["message"] == "bad" and full["workflowData"]["name"] == "ex"
    retried = live.client.post(f"/rest/executions/{failed_id}/retry")
    assert retried.status_code == 200 and retried.json()["data"]["retryOf"] == failed_id
    assert retried.json()["data"]["mode"] == "retry"
    assert live.client.post(f"/rest/executions/{full['id']}/stop").status_code == 409
    assert live.client.delete(f"/rest/executions/{failed_id}").status_code == 200
    assert live.client.get(f"/rest/executions/{failed_id}").status_code == 404


def test_stop_a_waiting_execution(live: LiveServer, path: str) -> None:
    data = workflow(
        node("Webhook", "n8n-nodes-base.webhook", {"httpMethod": "POST", "path": path}, version=2),
        node("Wait", "n8n-nodes-base.wait", {"resume": "webhook"}, version=1.1, position=(200, 0)),
        connect("Webhook", "Wait"),
    )
    workflow_id = live.import_workflow(data)
    live.client.post(f"/webhook/{path}")
    waiting = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "waiting"])[0]
    stopped = live.client.post(f"/rest/executions/{waiting['id']}/stop")
    assert stopped.status_code == 200 and stopped.json()["data"]["status"] == "canceled"
    assert live.execution(waiting["id"])["status"] == "canceled"


def test_credentials_never_show_their_data(live: LiveServer) -> None:
    created = live.client.post(
        "/rest/credentials", json={"name": "Key", "type": "httpHeaderAuth", "data": {"name": "X", "value": "s3cret"}}
    )
    assert created.status_code == 201
    credential_id = created.json()["data"]["id"]
    keys = {"id", "name", "type", "createdAt", "updatedAt"}
    listed = live.client.get("/rest/credentials")
    for response in (created, live.client.get(f"/rest/credentials/{credential_id}"), listed):
        assert "s3cret" not in response.text
    assert set(created.json()["data"]) == keys and all(set(c) == keys for c in listed.json()["data"])
    renamed = live.client.patch(f"/rest/credentials/{credential_id}", json={"name": "Key 2"})
    assert renamed.json()["data"]["name"] == "Key 2"
    assert live.client.delete(f"/rest/credentials/{credential_id}").status_code == 200
    assert live.client.get(f"/rest/credentials/{credential_id}").status_code == 404


def test_openapi_documents_the_rest_api(live: LiveServer) -> None:
    schema = live.client.get("/openapi.json").json()
    paths = schema["paths"]
    for expected in (
        "/rest/workflows",
        "/rest/workflows/{workflow_id}/activate",
        "/rest/executions",
        "/rest/executions/{execution_id}/retry",
        "/rest/executions/{execution_id}/stop",
        "/rest/credentials",
        "/api/v1/workflows",
    ):
        assert expected in paths
    assert "CredentialOut" in schema["components"]["schemas"]
