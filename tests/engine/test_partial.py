"""Partial execution: run to a destination, reusing run data (n8n ``runPartialWorkflow2``)."""

from __future__ import annotations

import pytest

from weft.engine import Execution, run_workflow
from weft.errors import WorkflowOperationError
from weft.testing.workflows import connect, node, output_json, run_order, workflow
from weft.workflow import Workflow

SET = "weft.test.set"


def _abcd(trigger: bool = True):
    parts = [node(n, SET, {"values": {n.lower(): 1}}, position=(200 * i, 0)) for i, n in enumerate("ABCD", 1)]
    if trigger:
        parts.insert(0, node("Start", "n8n-nodes-base.manualTrigger"))
        parts.append(connect("Start", "A"))
    parts += [connect("A", "B"), connect("B", "C"), connect("C", "D")]
    return workflow(*parts)


async def test_dirty_node_and_its_children_rerun_and_parents_are_reused(registry):
    wf = _abcd()
    first = await run_workflow(wf, registry=registry)
    execution = Execution(Workflow.from_json(wf), registry=registry)
    run = await execution.run_partial(
        run_data=first["data"]["resultData"]["runData"], dirty_nodes=["B"], destination="D"
    )
    assert run["status"] == "success"
    assert run_order(run) == ["Start", "A", "B", "C", "D"]
    runs = run["data"]["resultData"]["runData"]
    assert runs["A"][0]["executionIndex"] == first["data"]["resultData"]["runData"]["A"][0]["executionIndex"]
    assert [runs[n][0]["executionIndex"] for n in "BCD"] == [5, 6, 7]
    assert output_json(run, "D") == [{"a": 1, "b": 1, "c": 1, "d": 1}]


async def test_without_trigger_the_closest_parent_with_run_data_starts(registry):
    wf = _abcd(trigger=False)
    first = await run_workflow(wf, registry=registry, start_node="A")
    run = await Execution(Workflow.from_json(wf), registry=registry).run_partial(
        run_data=first["data"]["resultData"]["runData"], dirty_nodes=["C"], destination="D"
    )
    assert [n for n in run_order(run)] == ["A", "B", "C", "D"]
    assert len(run["data"]["resultData"]["runData"]["C"]) == 1


async def test_no_trigger_and_no_run_data_is_an_error(registry):
    with pytest.raises(WorkflowOperationError, match="Connect a trigger and make sure it's enabled to run this node"):
        await Execution(Workflow.from_json(_abcd(trigger=False)), registry=registry).run_partial(
            run_data={}, dirty_nodes=[], destination="D"
        )


async def test_disabled_destination_is_an_error(registry):
    wf = _abcd()
    wf["nodes"][-1]["disabled"] = True
    with pytest.raises(WorkflowOperationError, match="Cannot execute a disabled node"):
        await Execution(Workflow.from_json(wf), registry=registry).run_partial(
            run_data={}, dirty_nodes=[], destination="D"
        )


async def test_destination_stops_the_run_and_siblings_are_filtered_out(registry):
    wf = _abcd()
    wf["nodes"].append(node("Side", SET, position=(400, 300)))
    wf["connections"]["A"]["main"][0].append({"node": "Side", "type": "main", "index": 0})
    run = await run_workflow(wf, registry=registry, destination_node="B")
    assert run_order(run) == ["Start", "A", "B"]
