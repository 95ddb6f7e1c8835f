"""The n8n node against a real Weft server on 127.0.0.1: its public API (``/api/v1``) with an API key."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from tests.server.conftest import free_port, log_in, serve_in_thread

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.settings import Settings

MANUAL = {
    "name": "made by the n8n node",
    "nodes": [{"parameters": {}, "name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1}],
    "connections": {},
    "settings": {"executionOrder": "v1"},
}


@dataclass
class Api:
    url: str
    owner: httpx.Client
    credential: dict[str, Any]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    folder = tmp_path_factory.mktemp("weft-n8n-node")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(user_folder=folder, encryption_key="test-key", port=port, public_url=url + "/")
    server, thread = serve_in_thread(settings, port)
    with httpx.Client(base_url=url, timeout=10) as owner:
        log_in(owner)
        scopes = owner.get("/rest/api-keys/scopes").json()["data"]
        created = owner.post("/rest/api-keys", json={"label": "node", "scopes": scopes, "expiresAt": None})
        key = created.json()["data"]["rawApiKey"]
        yield Api(url=url, owner=owner, credential={"apiKey": key, "baseUrl": f"{url}/api/v1/"})
    server.should_exit = True
    thread.join(10)


async def run_n8n(
    credential: dict[str, Any], params: dict[str, Any], items: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    """Manual Trigger → Input (pinned ``items``) → n8n node; the n8n node's run."""
    node = {"name": "Node", "type": "n8n-nodes-base.n8n", "typeVersion": 1, "parameters": params, **extra}
    workflow = {
        "name": "n8n-node",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
            {**node, "credentials": {"n8nApi": {"id": "1", "name": "api"}}},
        ],
        "connections": {
            "T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
            "Input": {"main": [[{"node": "Node", "type": "main", "index": 0}]]},
        },
        "pinData": {"Input": [{"json": i} for i in (items or [{}])]},
        "settings": {"executionOrder": "v1"},
    }
    services = LocalServices(credentials={"n8nApi": credential}, registry=default_registry())
    run = await run_workflow(workflow, services=services)
    task: dict[str, Any] = run["data"]["resultData"]["runData"]["Node"][0]
    return task


def jsons(task: dict[str, Any]) -> list[dict[str, Any]]:
    assert "data" in task, (task.get("error") or {}).get("description")
    return [item["json"] for item in task["data"]["main"][0]]


def by_id(workflow_id: str) -> dict[str, Any]:
    return {"__rl": True, "mode": "id", "value": workflow_id}


async def test_workflow_create_get_update_list_delete(api: Api) -> None:
    name = f"wf-{uuid.uuid4().hex[:6]}"
    create = {"operation": "create", "workflowObject": json.dumps({**MANUAL, "name": name, "extra": "dropped"})}
    created = jsons(await run_n8n(api.credential, create))[0]
    assert created["name"] == name and created["active"] is False
    workflow = {"__rl": True, "mode": "url", "value": f"{api.url}/workflow/{created['id']}"}
    assert jsons(await run_n8n(api.credential, {"operation": "get", "workflowId": workflow}))[0]["id"] == created["id"]
    update = {
        "operation": "update",
        "workflowId": by_id(created["id"]),
        "workflowObject": json.dumps({**MANUAL, "name": name + "!"}),
    }
    assert jsons(await run_n8n(api.credential, update))[0]["name"] == name + "!"
    listed = jsons(await run_n8n(api.credential, {"operation": "getAll", "filters": {}}))
    assert created["id"] in {w["id"] for w in listed}
    limited = await run_n8n(api.credential, {"operation": "getAll", "returnAll": False, "limit": 1})
    assert len(jsons(limited)) == 1
    deleted = jsons(await run_n8n(api.credential, {"operation": "delete", "workflowId": by_id(created["id"])}))
    assert deleted[0]["id"] == created["id"]
    gone = await run_n8n(api.credential, {"operation": "get", "workflowId": by_id(created["id"])})
    assert gone["error"]["message"] == "The resource you are requesting could not be found"
    assert gone["error"]["description"] == "Not Found"


async def test_publish_and_unpublish_a_webhook_workflow_then_read_its_executions(api: Api) -> None:
    path = f"n8n-node-{uuid.uuid4().hex[:6]}"
    hook = {"parameters": {"path": path}, "name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2}
    workflow = {**MANUAL, "nodes": [{**hook, "webhookId": str(uuid.uuid4())}]}
    created = jsons(await run_n8n(api.credential, {"operation": "create", "workflowObject": json.dumps(workflow)}))[0]
    published = jsons(await run_n8n(api.credential, {"operation": "activate", "workflowId": by_id(created["id"])}))
    assert published[0]["active"] is True
    async with httpx.AsyncClient(timeout=10) as client:
        assert (await client.get(f"{api.url}/webhook/{path}")).status_code == 200
    filters = {"workflowId": by_id(created["id"]), "status": "success"}
    executions = jsons(
        await run_n8n(
            api.credential, {"operation": "getAll", "resource": "execution", "filters": filters, "returnAll": True}
        )
    )
    assert len(executions) == 1 and executions[0]["workflowId"] == created["id"]
    execution_id = executions[0]["id"]
    one = {
        "resource": "execution",
        "operation": "get",
        "executionId": execution_id,
        "options": {"activeWorkflows": True},
    }
    assert "data" in jsons(await run_n8n(api.credential, one))[0]
    removed = {"resource": "execution", "operation": "delete", "executionId": execution_id}
    assert jsons(await run_n8n(api.credential, removed))[0]["id"] == execution_id
    unpublished = jsons(await run_n8n(api.credential, {"operation": "deactivate", "workflowId": by_id(created["id"])}))
    assert unpublished[0]["active"] is False


async def test_credentials_create_delete_and_bad_json(api: Api) -> None:
    params = {"resource": "credential", "operation": "create", "name": "basic", "credentialTypeName": "httpBasicAuth"}
    created = jsons(await run_n8n(api.credential, {**params, "data": '{"user": "u", "password": "p"}'}))[0]
    assert created["name"] == "basic" and created["type"] == "httpBasicAuth" and "data" not in created
    delete = {"resource": "credential", "operation": "delete", "credentialId": created["id"]}
    assert jsons(await run_n8n(api.credential, delete))[0]["id"] == created["id"]
    bad = await run_n8n(api.credential, {**params, "data": "{user: u}"})
    assert bad["error"]["message"] == "The 'data' property must be valid JSON, but cannot be parsed"


async def test_ids_cannot_reach_another_path(api: Api) -> None:
    sneaky = {"resource": "execution", "operation": "get", "executionId": "../workflows"}
    task = await run_n8n(api.credential, sneaky)
    assert task["error"]["message"] == "The resource you are requesting could not be found"


async def test_a_wrong_key_and_a_server_that_is_not_there(api: Api) -> None:
    wrong = await run_n8n({**api.credential, "apiKey": "nope"}, {"operation": "getAll"})
    assert wrong["error"]["message"] == "Authorization failed - please check your credentials"
    port = free_port()
    offline = await run_n8n({"apiKey": "x", "baseUrl": f"http://127.0.0.1:{port}/api/v1"}, {"operation": "getAll"})
    assert offline["error"]["message"] == "The service refused the connection - perhaps it is offline"


async def test_continue_on_fail_gives_an_error_item_per_failed_item(api: Api) -> None:
    params = {"operation": "get", "workflowId": by_id("missing")}
    task = await run_n8n(api.credential, params, [{"n": 1}, {"n": 2}], onError="continueRegularOutput")
    message = "The resource you are requesting could not be found"
    assert [(i["json"], i["pairedItem"]) for i in task["data"]["main"][0]] == [
        ({"error": message}, {"item": 0}),
        ({"error": message}, {"item": 1}),
    ]


async def test_the_security_audit_flags_sql_queries_risky_nodes_and_unused_credentials(api: Api) -> None:
    query = {"operation": "executeQuery", "query": "=SELECT {{ $json.id }}"}
    sql = {"parameters": query, "name": "SQL", "type": "n8n-nodes-base.postgres", "typeVersion": 2.6, "id": "s1"}
    code = {"parameters": {}, "name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 2, "id": "c1"}
    workflow = {**MANUAL, "name": "audited", "nodes": [*MANUAL["nodes"], sql, code]}
    created = jsons(await run_n8n(api.credential, {"operation": "create", "workflowObject": json.dumps(workflow)}))[0]
    cred = {"resource": "credential", "operation": "create", "name": "unused", "credentialTypeName": "httpBasicAuth"}
    credential = jsons(await run_n8n(api.credential, {**cred, "data": '{"user": "u", "password": "p"}'}))[0]
    options = {"categories": ["database", "nodes", "credentials"], "daysAbandonedWorkflow": 30}
    report = jsons(
        await run_n8n(api.credential, {"resource": "audit", "operation": "generate", "additionalOptions": options})
    )[0]
    database = report["Database Risk Report"]["sections"]
    assert database[0]["title"] == 'Expressions in "Execute Query" fields in SQL nodes'
    assert {"workflowId": created["id"], "nodeName": "SQL"}.items() <= database[0]["location"][0].items()
    nodes = report["Nodes Risk Report"]["sections"][0]
    assert nodes["title"] == "Official risky nodes" and "Code" in {n["nodeName"] for n in nodes["location"]}
    unused = report["Credentials Risk Report"]["sections"][0]
    assert unused["title"] == "Credentials not used in any workflow"
    assert {"kind": "credential", "id": credential["id"], "name": "unused"} in unused["location"]
    assert set(report) == {"Database Risk Report", "Nodes Risk Report", "Credentials Risk Report"}


async def test_get_a_workflow_version(api: Api) -> None:
    created = jsons(await run_n8n(api.credential, {"operation": "create", "workflowObject": json.dumps(MANUAL)}))[0]
    params = {"operation": "getVersion", "workflowId": by_id(created["id"]), "versionId": created["versionId"]}
    version = jsons(await run_n8n(api.credential, params))[0]
    assert version["versionId"] == created["versionId"] and version["workflowId"] == created["id"]
    old = await run_n8n(api.credential, {**params, "versionId": "not-a-version"})
    assert old["error"]["message"] == "The resource you are requesting could not be found"


async def test_a_credential_types_schema_as_n8n_gives_it(api: Api) -> None:
    params = {"resource": "credential", "operation": "getSchema", "credentialTypeName": "redis"}
    schema = jsons(await run_n8n(api.credential, params))[0]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["properties"]["port"] == {"type": "number"} and schema["required"] == []
    unknown = await run_n8n(api.credential, {**params, "credentialTypeName": "noSuchType"})
    assert unknown["error"]["message"] == "The resource you are requesting could not be found"
