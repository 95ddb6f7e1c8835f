"""Execute Workflow + Execute Workflow Trigger, run in-process by ``LocalServices`` through the real engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from weft.engine import EngineOptions, run_workflow
from weft.engine.services import LocalServices
from weft.nodes.files.access import FileAccess
from weft.testing.workflows import connect, node, output_json, workflow

EXECUTE = "n8n-nodes-base.executeWorkflow"
TRIGGER = "n8n-nodes-base.executeWorkflowTrigger"
ITEMS = [{"json": {"n": 1}}, {"json": {"n": 2}}]


def sub_workflow(*steps: tuple[str, str, dict[str, Any]], trigger: dict[str, Any] | None = None) -> dict[str, Any]:
    """Execute Workflow Trigger → ``steps`` in a line."""
    nodes = [node("In", TRIGGER, trigger or {"inputSource": "passthrough"}, version=1.1)]
    parts: list[Any] = []
    previous = "In"
    for index, (name, type_, params) in enumerate(steps, start=1):
        version = 3.4 if type_.endswith(".set") else 1.1 if type_.endswith(".wait") else 1
        nodes.append(node(name, type_, params, version=version, position=(index * 200, 0)))
        parts.append(connect(previous, name))
        previous = name
    return workflow(*nodes, *parts)


def mark(field: str = "sub") -> tuple[str, str, dict[str, Any]]:
    """A Set node adding ``field: true`` and keeping the other fields."""
    assignment = {"id": "1", "name": field, "value": True, "type": "boolean"}
    params = {"assignments": {"assignments": [assignment]}, "includeOtherFields": True, "options": {}}
    return ("Mark", "n8n-nodes-base.set", params)


async def run_parent(params: dict[str, Any], services: LocalServices | None = None, **settings: Any) -> Any:
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Call", EXECUTE, params, version=settings.pop("version", 1.3), position=(200, 0), **settings),
        connect("Start", "Call"),
    )
    options = services.options if services is not None else None
    return await run_workflow(wf, trigger_items=ITEMS, services=services or LocalServices(), options=options)


def files_in(folder: Path, **kwargs: Any) -> LocalServices:
    """Services whose executions may read workflow files in ``folder`` (``WEFT_RESTRICT_FILE_ACCESS_TO``)."""
    options = EngineOptions(file_access=FileAccess(allowed=(str(folder.resolve()),), blocked=()))
    return LocalServices(options=options, **kwargs)


def call_output(run: Any) -> list[Any]:
    return run["data"]["resultData"]["runData"]["Call"][0]["data"]["main"][0]


async def test_parameter_source_runs_all_items_once() -> None:
    run = await run_parent({"source": "parameter", "workflowJson": json.dumps(sub_workflow(mark()))})
    assert run["status"] == "success"
    assert call_output(run) == [
        {"json": {"n": 1, "sub": True}, "pairedItem": {"item": 0}},
        {"json": {"n": 2, "sub": True}, "pairedItem": {"item": 1}},
    ]


async def test_local_file_source_in_each_mode(tmp_path: Path) -> None:
    path = tmp_path / "sub.json"
    path.write_text(json.dumps(sub_workflow(mark())))
    run = await run_parent({"source": "localFile", "workflowPath": str(path), "mode": "each"}, files_in(tmp_path))
    assert [(i["json"], i["pairedItem"]) for i in call_output(run)] == [
        ({"n": 1, "sub": True}, {"item": 0}),
        ({"n": 2, "sub": True}, {"item": 1}),
    ]


async def test_pairing_is_traced_back_through_the_sub_workflow() -> None:
    limit = ("Last", "n8n-nodes-base.limit", {"maxItems": 1, "keep": "lastItems"})
    run = await run_parent({"source": "parameter", "workflowJson": sub_workflow(limit)})
    # the caller sends each item with its position as `index` (n8n, recorded: tests/subworkflows/n8n_sub_wait.json);
    # the Limit node passes the item on as it came
    assert call_output(run) == [{"json": {"n": 2}, "pairedItem": {"item": 1}, "index": 1}]


async def test_without_waiting_returns_the_input_and_runs_in_the_background() -> None:
    services = LocalServices()
    sub = sub_workflow(("Pause", "n8n-nodes-base.wait", {"amount": 0.3, "unit": "seconds"}))
    params = {"source": "parameter", "workflowJson": sub, "options": {"waitForSubWorkflow": False}}
    run = await run_parent(params, services)
    assert output_json(run, "Call") == [{"n": 1}, {"n": 2}]
    children = await services.wait_background()
    assert children[0]["stoppedAt"] > run["stoppedAt"]  # the parent finished before its child did
    assert [child["status"] for child in children] == ["success"]
    assert output_json(children[0], "Pause") == [{"n": 1}, {"n": 2}]


async def test_a_failing_sub_workflow_fails_the_node() -> None:
    stop = ("Stop", "n8n-nodes-base.stopAndError", {"errorMessage": "boom"})
    params = {"source": "parameter", "workflowJson": sub_workflow(stop)}
    run = await run_parent(params)
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"] == "boom"
    each = await run_parent({**params, "mode": "each"})
    error = each["data"]["resultData"]["error"]
    assert (error["message"], error["description"]) == ("Error executing workflow with item at index 0", "boom")


async def test_continue_on_fail_outputs_the_error() -> None:
    params = {
        "source": "parameter",
        "workflowJson": sub_workflow(("Stop", "n8n-nodes-base.stopAndError", {"errorMessage": "nope"})),
    }
    run = await run_parent({**params, "workflowJson": "{not json"}, onError="continueRegularOutput")
    out = call_output(run)
    assert out[0]["json"]["error"].startswith("The 'Workflow JSON' parameter is not valid JSON")
    assert out[0]["pairedItem"] == [{"item": 0}, {"item": 1}]
    each = await run_parent({**params, "mode": "each"}, onError="continueRegularOutput")
    assert [(i["json"], i["pairedItem"]) for i in call_output(each)] == [
        ({"error": "nope"}, {"item": 0}),
        ({"error": "nope"}, {"item": 1}),
    ]


async def test_recursion_is_limited(tmp_path: Path) -> None:
    path = tmp_path / "loop.json"
    call = ("Again", EXECUTE, {"source": "localFile", "workflowPath": str(path)})
    path.write_text(json.dumps(sub_workflow(call)))
    run = await run_parent({"source": "localFile", "workflowPath": str(path)}, files_in(tmp_path, max_depth=5))
    assert run["status"] == "error"
    assert (
        run["data"]["resultData"]["error"]["message"]
        == "Sub-workflow recursion limit reached: 5 nested sub-workflow calls"
    )
    run = await run_parent({"source": "localFile", "workflowPath": str(path)}, files_in(tmp_path))
    assert "limit reached: 50 nested" in run["data"]["resultData"]["error"]["message"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"source": "localFile", "workflowPath": "/no/such/wf.json"}, "Access to the workflow file path is not"),
        ({"source": "parameter", "workflowJson": "[1, 2]"}, "The 'Workflow JSON' parameter does not hold a workflow"),
        ({"source": "database", "workflowId": {"__rl": True, "value": "abc", "mode": "list"}}, "'abc'"),
        ({"source": "url", "workflowUrl": "http://127.0.0.1:1/wf.json"}, "from a URL is not supported yet"),
    ],
)
async def test_sources_that_cannot_be_loaded(params: dict[str, Any], message: str) -> None:
    run = await run_parent(params)
    assert run["status"] == "error"
    assert message in run["data"]["resultData"]["error"]["message"]


async def test_a_sub_workflow_needs_a_start_node() -> None:
    sub = workflow(node("Only", "n8n-nodes-base.noOp"))
    run = await run_parent({"source": "parameter", "workflowJson": sub})
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Missing node to start execution"
    assert "contains an Execute Workflow Trigger node" in error["description"]


async def test_trigger_keeps_only_declared_inputs() -> None:
    values = [{"name": "n", "type": "number"}, {"name": "missing", "type": "string"}]
    sub = sub_workflow(trigger={"workflowInputs": {"values": values}})
    run = await run_parent({"source": "parameter", "workflowJson": sub, "workflowInputs": {"value": {"x": 1}}})
    assert output_json(run, "Call") == [{"n": 1, "missing": None}, {"n": 2, "missing": None}]
    # as n8n 2.x's trigger (ExecuteWorkflowTrigger.node.ts): no type check there, the caller's mapper checks
    wrong = sub_workflow(trigger={"workflowInputs": {"values": [{"name": "n", "type": "string"}]}})
    run = await run_parent({"source": "parameter", "workflowJson": wrong})
    assert output_json(run, "Call") == [{"n": 1}, {"n": 2}]


async def test_workflow_inputs_mapping_is_merged_into_the_items() -> None:
    sub = sub_workflow(trigger={"inputSource": "passthrough"})
    params = {
        "source": "parameter",
        "workflowJson": sub,
        "workflowInputs": {"mappingMode": "defineBelow", "value": {"x": 1}},
    }
    assert output_json(await run_parent(params), "Call") == [{"n": 1, "x": 1}, {"n": 2, "x": 1}]


async def test_trigger_json_example_declares_the_fields() -> None:
    trigger = {"inputSource": "jsonExample", "jsonExample": '{"n": "text", "flag": true}'}
    run = await run_parent({"source": "parameter", "workflowJson": sub_workflow(trigger=trigger)})
    assert output_json(run, "Call") == [{"n": 1, "flag": None}, {"n": 2, "flag": None}]
