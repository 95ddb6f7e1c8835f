"""WorkflowRunner: stored executions, save settings, errors with run data, credentials, sub-workflows."""

from __future__ import annotations

from typing import Any

import pytest

from weft.db import Store
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner
from weft.settings import Settings
from weft.testing.workflows import connect, node, output_json, workflow


def manual(*parts: Any, **settings: Any) -> dict[str, Any]:
    return workflow(node("Start", "n8n-nodes-base.manualTrigger"), *parts, **settings)


def set_node(name: str, field: str, value: Any, **extra: Any) -> dict[str, Any]:
    params = {"assignments": {"assignments": [{"name": field, "value": value, "type": "string"}]}}
    return node(name, "n8n-nodes-base.set", params, version=3.4, position=(200, 0), **extra)


async def test_a_run_is_stored_with_its_data(runner: WorkflowRunner, store: Store) -> None:
    data = manual(set_node("Set", "x", "={{ $execution.id }}"), connect("Start", "Set"))
    result = await runner.run(prepare(data, runner.registry), mode="trigger")
    assert result.run["status"] == "success" and result.saved
    stored = store.executions.get(result.execution_id)
    assert stored is not None and stored.status == "success" and stored.mode == "trigger" and stored.finished
    assert output_json(result.run, "Set") == [{"x": result.execution_id}]
    assert stored.data is not None and stored.data["resultData"]["lastNodeExecuted"] == "Set"
    assert stored.workflow_data is not None and stored.workflow_data["nodes"][1]["name"] == "Set"


async def test_a_failing_execution_is_stored_with_its_error_and_run_data(runner: WorkflowRunner, store: Store) -> None:
    data = manual(node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "boom"}), connect("Start", "Fail"))
    result = await runner.run(prepare(data, runner.registry), mode="trigger")
    stored = store.executions.get(result.execution_id)
    assert stored is not None and stored.status == "error" and stored.data is not None
    assert stored.data["resultData"]["error"]["message"] == "boom"
    assert stored.data["resultData"]["runData"]["Fail"][0]["executionStatus"] == "error"


@pytest.mark.parametrize(
    ("settings_json", "mode", "fails", "kept"),
    [
        ({"saveDataSuccessExecution": "none"}, "trigger", False, False),
        ({"saveDataSuccessExecution": "none"}, "trigger", True, True),
        ({"saveDataErrorExecution": "none"}, "trigger", True, False),
        ({"saveManualExecutions": False}, "manual", False, False),
        ({}, "manual", False, True),
    ],
)
async def test_save_settings_are_honoured(
    runner: WorkflowRunner, store: Store, settings_json: dict[str, Any], mode: str, fails: bool, kept: bool
) -> None:
    last = node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "x"}) if fails else node("Fail")
    data = manual(last, connect("Start", "Fail"), **settings_json)
    result = await runner.run(prepare(data, runner.registry), mode=mode)
    assert result.saved is kept
    assert (store.executions.get(result.execution_id) is not None) is kept


async def test_instance_defaults_drop_successes(store: Store, settings: Settings) -> None:
    quiet = Settings(**{**settings.__dict__, "save_data_on_success": "none"})
    runner = WorkflowRunner(store, quiet)
    try:
        result = await runner.run(prepare(manual(), runner.registry), mode="trigger")
        assert not result.saved and store.executions.get(result.execution_id) is None
    finally:
        runner.close()


def http_node(credential: dict[str, str] | None) -> dict[str, Any]:
    params = {
        "url": "http://127.0.0.1:9/",
        "authentication": "genericCredentialType",
        "genericAuthType": "httpHeaderAuth",
    }
    extra = {"credentials": {"httpHeaderAuth": credential}} if credential else {}
    return node("HTTP", "n8n-nodes-base.httpRequest", params, version=4.2, position=(200, 0), **extra)


async def test_a_missing_credential_names_the_node_and_the_type(runner: WorkflowRunner) -> None:
    data = manual(http_node({"id": "nope", "name": "Missing"}), connect("Start", "HTTP"))
    result = await runner.run(prepare(data, runner.registry), mode="trigger")
    message = result.run["data"]["resultData"]["error"]["message"]
    assert "'HTTP'" in message and "'httpHeaderAuth'" in message


async def test_credentials_are_resolved_from_the_database(runner: WorkflowRunner, store: Store) -> None:
    info = store.credentials.create("Header", "httpHeaderAuth", {"name": "X-Key", "value": "s3cret"})
    from weft.engine.context import ExecuteContext  # noqa: F401  (the services get a real context)
    from weft.services.db_services import DbServices

    services = DbServices(runner)
    data = manual(http_node({"id": info.id, "name": "Header"}), connect("Start", "HTTP"))
    prepared = prepare(data, runner.registry)

    class Ctx:
        node = prepared.workflow.nodes["HTTP"]

    resolved = await services.get_credentials(Ctx(), "httpHeaderAuth")  # type: ignore[arg-type]
    assert resolved == {"name": "X-Key", "value": "s3cret"}


def child_workflow() -> dict[str, Any]:
    return workflow(
        node("In", "n8n-nodes-base.executeWorkflowTrigger", {"inputSource": "passthrough"}, version=1.1),
        set_node("Double", "y", "={{ $json.x * 2 }}"),
        connect("In", "Double"),
        name="child",
    )


def parent_workflow(child_id: str, wait: bool = True) -> dict[str, Any]:
    call = node(
        "Call",
        "n8n-nodes-base.executeWorkflow",
        {"source": "database", "workflowId": child_id, "options": {"waitForSubWorkflow": wait}},
        version=1.2,
        position=(200, 0),
    )
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        call,
        connect("Start", "Call"),
    )


#: The parent's trigger output (pinned data would count in manual runs only, as in n8n).
X21 = [{"json": {"x": 21}}]


async def test_sub_workflow_from_the_database_runs_as_a_linked_execution(runner: WorkflowRunner, store: Store) -> None:
    child = store.workflows.create(child_workflow())
    result = await runner.run(prepare(parent_workflow(child.id), runner.registry), mode="trigger", trigger_items=X21)
    assert result.run["status"] == "success", result.run["data"]["resultData"].get("error")
    assert output_json(result.run, "Call") == [{"y": "42"}]
    children = store.executions.list(workflow_id=child.id)
    assert len(children) == 1 and children[0].mode == "integrated"
    assert children[0].parent_execution_id == result.execution_id and children[0].status == "success"


async def test_sub_workflow_without_waiting_returns_at_once(runner: WorkflowRunner, store: Store) -> None:
    child = store.workflows.create(child_workflow())
    result = await runner.run(
        prepare(parent_workflow(child.id, wait=False), runner.registry), mode="trigger", trigger_items=X21
    )
    assert output_json(result.run, "Call") == [{"x": 21}]
    await runner.drain(10)
    assert [e.status for e in store.executions.list(workflow_id=child.id)] == ["success"]


async def test_unknown_sub_workflow_id_fails_clearly(runner: WorkflowRunner) -> None:
    result = await runner.run(prepare(parent_workflow("nope"), runner.registry), mode="trigger", trigger_items=X21)
    assert "Workflow 'nope' does not exist" in result.run["data"]["resultData"]["error"]["message"]
