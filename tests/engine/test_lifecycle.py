"""Hooks, waiting and resuming, cancellation and the workflow timeout."""

from __future__ import annotations

import asyncio
import json

from weft.engine import Execution, ExecutionHooks, run_workflow
from weft.engine.state import restore_waiting_keys
from weft.errors import ExecutionCancelledError
from weft.testing.workflows import connect, node, output_json, workflow
from weft.workflow import Workflow

TRIGGER = "n8n-nodes-base.manualTrigger"


def _wait_wf(**wait_params):
    return workflow(
        node("Start", TRIGGER),
        node("Wait", "weft.test.waitHere", wait_params, position=(200, 0)),
        node("After", "weft.test.set", {"values": {"after": True}}, position=(400, 0)),
        connect("Start", "Wait"),
        connect("Wait", "After"),
    )


async def test_hook_order_for_two_nodes(registry):
    hooks = ExecutionHooks()
    calls: list[str] = []
    for name in ("workflowExecuteBefore", "nodeExecuteBefore", "nodeExecuteAfter", "workflowExecuteAfter"):
        hooks.on(name, lambda *args, _n=name: calls.append(_n))  # type: ignore[arg-type]
    wf = workflow(node("Start", TRIGGER), node("A", "weft.test.set"), connect("Start", "A"))
    await run_workflow(wf, registry=registry, hooks=hooks)
    assert calls == [
        "workflowExecuteBefore",
        "nodeExecuteBefore",
        "nodeExecuteAfter",
        "nodeExecuteBefore",
        "nodeExecuteAfter",
        "workflowExecuteAfter",
    ]


async def _stored_and_resumed(registry, wf, run):
    data = restore_waiting_keys(json.loads(json.dumps(run["data"])))
    return await Execution(Workflow.from_json(wf), registry=registry, data=data).resume()


async def test_wait_stops_the_execution_and_resume_replaces_the_waiting_run(registry):
    wf = _wait_wf()
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "waiting" and run["waitTill"].startswith("3000-01-01")
    assert run["data"]["resultData"]["runData"]["Wait"][0]["executionStatus"] == "waiting"
    assert run["data"]["executionData"]["nodeExecutionStack"][0]["node"]["name"] == "Wait"
    resumed = await _stored_and_resumed(registry, wf, run)
    assert resumed["status"] == "success"
    runs = resumed["data"]["resultData"]["runData"]
    assert len(runs["Wait"]) == 1 and runs["Wait"][0]["executionStatus"] == "success"
    assert output_json(resumed, "After") == [{"after": True}]


async def test_resume_node_mode_runs_the_waiting_node_again(registry):
    wf = _wait_wf(resumeNode=True)
    run = await run_workflow(wf, registry=registry)
    resumed = await _stored_and_resumed(registry, wf, run)
    assert resumed["status"] == "success"
    assert len(resumed["data"]["resultData"]["runData"]["Wait"]) == 1
    assert output_json(resumed, "Wait") == [{"resumed": True}]
    assert output_json(resumed, "After") == [{"resumed": True, "after": True}]


async def test_cancel_interrupts_a_node_that_swallows_exceptions(registry):
    wf = workflow(node("Start", TRIGGER), node("Sleep", "weft.test.sleep", {"seconds": 30}), connect("Start", "Sleep"))
    execution = Execution(Workflow.from_json(wf), registry=registry)
    task = asyncio.ensure_future(execution.run())
    await asyncio.sleep(0.05)
    execution.cancel(ExecutionCancelledError("The execution was canceled by the user"))
    run = await asyncio.wait_for(task, 2)
    assert run["status"] == "canceled"
    assert run["data"]["resultData"]["runData"]["Sleep"][0]["executionStatus"] == "canceled"
    assert run["data"]["executionData"]["nodeExecutionStack"][0]["node"]["name"] == "Sleep"


async def test_execution_timeout_cancels_with_timeout_error(registry):
    wf = workflow(
        node("Start", TRIGGER),
        node("Sleep", "weft.test.sleep", {"seconds": 30}),
        connect("Start", "Sleep"),
        executionTimeout=0.1,
    )
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "canceled"
    assert "timed out after 0.1 seconds" in run["data"]["resultData"]["error"]["message"]
