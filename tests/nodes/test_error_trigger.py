"""Error Trigger and error workflows, through a real database: a failed execution starts the workflow its
``settings.errorWorkflow`` names, with n8n's payload."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from weft.db.workflows import StoredWorkflow
from weft.engine import run_workflow
from weft.services.instance import Instance
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow


@pytest.fixture
async def instance(tmp_path: Path) -> AsyncIterator[Instance]:
    settings = Settings(user_folder=tmp_path, database_url=f"sqlite:///{tmp_path}/db.sqlite", encryption_key="k")
    opened = Instance.open(settings)
    await opened.start(background=False)
    yield opened
    await opened.close()


def _failing(**settings: Any) -> dict[str, Any]:
    boom = node("Boom", "n8n-nodes-base.stopAndError", {"errorMessage": "it broke"}, position=(200, 0))
    return workflow(node("Start", "n8n-nodes-base.manualTrigger"), boom, connect("Start", "Boom"), **settings)


async def _error_workflow(instance: Instance, *, active: bool = True, **settings: Any) -> StoredWorkflow:
    trigger = node("Error Trigger", "n8n-nodes-base.errorTrigger")
    data = workflow(trigger, node("Handle", position=(200, 0)), connect("Error Trigger", "Handle"), **settings)
    stored = instance.store.workflows.create({**data, "name": "On error"})
    if active:
        await instance.active.activate(stored.id)
    return stored


async def _run(instance: Instance, data: dict[str, Any], mode: str = "trigger") -> str:
    stored = instance.store.workflows.create({**data, "name": "Failing"})
    result = await instance.runner.run(instance.runner.cache.get(stored), mode=mode)
    assert result.run["status"] == "error"
    return result.execution_id


async def _error_runs(instance: Instance, workflow_id: str, wait: bool = True) -> list[Any]:
    for _ in range(60 if wait else 4):
        rows = instance.store.executions.list(workflow_id=workflow_id)
        if rows and all(row.finished or row.status not in ("running", "new") for row in rows):
            return rows
        await asyncio.sleep(0.05)
    await instance.runner.drain(1)
    return instance.store.executions.list(workflow_id=workflow_id)


async def test_a_failed_execution_runs_its_error_workflow_with_n8ns_payload(instance: Instance) -> None:
    target = await _error_workflow(instance)
    failed_id = await _run(instance, _failing(errorWorkflow=target.id))
    rows = await _error_runs(instance, target.id)
    assert [row.mode for row in rows] == ["error"]
    stored = instance.store.executions.get(rows[0].id)
    assert stored is not None and stored.data is not None
    item = stored.data["resultData"]["runData"]["Handle"][0]["data"]["main"][0][0]["json"]
    failed = instance.store.executions.get(failed_id, include_data=False)
    assert failed is not None
    assert item["workflow"] == {"id": failed.workflow_id, "name": "Failing"}
    execution = item["execution"]
    assert execution["id"] == failed_id and execution["mode"] == "trigger"
    assert execution["url"] == f"http://127.0.0.1:5678/workflow/{failed.workflow_id}/executions/{failed_id}"
    assert execution["lastNodeExecuted"] == "Boom"
    assert execution["error"]["message"] == "it broke"
    assert "retryOf" not in execution
    context = execution["executionContext"]
    assert context["version"] == 1 and context["source"] == "trigger" and context["establishedAt"] > 0
    assert context["triggerNode"] == {"name": "Start", "type": "n8n-nodes-base.manualTrigger"}


async def test_manual_runs_and_inactive_error_workflows_start_nothing(instance: Instance) -> None:
    target = await _error_workflow(instance)
    await _run(instance, _failing(errorWorkflow=target.id), mode="manual")
    inactive = await _error_workflow(instance, active=False)
    await _run(instance, _failing(errorWorkflow=inactive.id))
    await instance.runner.drain(1)
    assert instance.store.executions.list(workflow_id=target.id) == []
    assert instance.store.executions.list(workflow_id=inactive.id) == []


async def test_a_workflow_with_its_own_error_trigger_handles_its_errors_once(instance: Instance) -> None:
    data = _failing()
    data["nodes"].append(node("Error Trigger", "n8n-nodes-base.errorTrigger", position=(0, 300)))
    data["nodes"].append(node("Fail again", "n8n-nodes-base.stopAndError", {"errorMessage": "again"}))
    data["connections"]["Error Trigger"] = {"main": [[{"node": "Fail again", "type": "main", "index": 0}]]}
    stored = instance.store.workflows.create({**data, "name": "Self"})
    await instance.active.activate(stored.id)  # n8n 2 runs only active error workflows, itself included
    await instance.runner.run(instance.runner.cache.get(stored), mode="trigger", start_node="Start")
    await _error_runs(instance, stored.id)
    await instance.runner.drain(1)
    rows = instance.store.executions.list(workflow_id=stored.id)
    assert sorted(row.mode for row in rows) == ["error", "trigger"]  # the failing error run starts nothing
    assert all(row.status == "error" for row in rows)


async def test_an_error_workflow_can_be_activated(instance: Instance) -> None:
    stored = await _error_workflow(instance)
    assert instance.store.workflows.get(stored.id).active  # type: ignore[union-attr]


async def test_manual_run_of_an_error_trigger_gives_n8ns_sample() -> None:
    data = workflow(node("Error Trigger", "n8n-nodes-base.errorTrigger"))
    run = await run_workflow(data, mode="manual")
    item = run["data"]["resultData"]["runData"]["Error Trigger"][0]["data"]["main"][0][0]["json"]
    assert item["execution"]["id"] == 231 and item["execution"]["error"]["message"] == "Example Error Message"
    assert item["execution"]["url"] == "http://localhost:5678/execution/workflow/1/231"
    assert item["workflow"] == {"id": "1", "name": "Example Workflow"}
    cli = await run_workflow(data, mode="cli")
    assert cli["data"]["resultData"]["runData"]["Error Trigger"][0]["data"]["main"][0][0]["json"] == {}


async def test_the_error_workflows_caller_policy_is_honoured(instance: Instance) -> None:
    closed = await _error_workflow(instance, callerPolicy="none")
    await _run(instance, _failing(errorWorkflow=closed.id))
    listed = await _error_workflow(instance, callerPolicy="workflowsFromAList", callerIds="nobody, else")
    await _run(instance, _failing(errorWorkflow=listed.id))
    await instance.runner.drain(1)
    assert instance.store.executions.list(workflow_id=closed.id) == []
    assert instance.store.executions.list(workflow_id=listed.id) == []


async def test_a_retried_execution_names_what_it_retries(instance: Instance) -> None:
    target = await _error_workflow(instance)
    first = await _run(instance, _failing(errorWorkflow=target.id))
    stored = instance.store.executions.get(first)
    assert stored is not None
    retried = await instance.runner.retry(stored)
    assert retried.run["status"] == "error"
    for _ in range(60):
        rows = instance.store.executions.list(workflow_id=target.id, statuses=["success"])
        if len(rows) == 2:
            break
        await asyncio.sleep(0.05)
    payloads = []
    for row in rows:
        data = instance.store.executions.get(row.id)
        assert data is not None and data.data is not None
        payloads.append(data.data["resultData"]["runData"]["Handle"][0]["data"]["main"][0][0]["json"]["execution"])
    by_id = {p["id"]: p for p in payloads}
    assert by_id[retried.execution_id]["retryOf"] == first and by_id[retried.execution_id]["mode"] == "retry"
    assert "retryOf" not in by_id[first]


PAYLOADS = json.loads((Path(__file__).parent / "n8n_error_workflow_payloads.json").read_text())


async def test_the_payload_has_the_shape_n8n_sent(instance: Instance) -> None:
    """The same failure as recorded from a live n8n (a Webhook-started workflow failing in 'Boom')."""
    expected = PAYLOADS["2.41.1"]
    target = await _error_workflow(instance)
    hook = node("Webhook", "n8n-nodes-base.webhook", {"path": "a12-fail", "httpMethod": "GET"}, version=2)
    boom = node("Boom", "n8n-nodes-base.stopAndError", {"errorMessage": "it broke"}, position=(200, 0))
    data = workflow(hook, boom, connect("Webhook", "Boom"), errorWorkflow=target.id)
    stored = instance.store.workflows.create({**data, "name": expected["workflow"]["name"]})
    prepared = instance.runner.cache.get(stored)
    await instance.runner.run(prepared, mode="webhook", start_node="Webhook", trigger_items=[{"json": {}}])
    rows = await _error_runs(instance, target.id)
    run = instance.store.executions.get(rows[0].id)
    assert run is not None and run.data is not None
    got = run.data["resultData"]["runData"]["Handle"][0]["data"]["main"][0][0]["json"]
    assert got["workflow"] == {"id": stored.id, "name": expected["workflow"]["name"]}
    assert list(got["execution"]) == list(expected["execution"])
    context, want = got["execution"]["executionContext"], expected["execution"]["executionContext"]
    assert list(context) == list(want)
    assert {k: v for k, v in context.items() if k != "establishedAt"} == {
        k: v for k, v in want.items() if k != "establishedAt"
    }
    for key in ("lastNodeExecuted", "mode"):
        assert got["execution"][key] == expected["execution"][key]
    assert got["execution"]["error"]["message"] == expected["execution"]["error"]["message"]
    assert got["execution"]["error"]["name"] == expected["execution"]["error"]["name"]
