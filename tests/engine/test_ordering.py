"""Execution order v1: depth-first, top-most then left-most child first; multi-input nodes wait."""

from __future__ import annotations

from weft.engine import run_workflow
from weft.testing.workflows import connect, node, output_json, run_order, workflow

SET = "weft.test.set"
TRIGGER = "n8n-nodes-base.manualTrigger"


async def test_node_with_two_input_connections_runs_twice_depth_first(registry):
    # n8n v1WorkflowExecuteTests: "run node twice when two input connections"
    wf = workflow(
        node("Start", TRIGGER),
        node("Set1", SET, {"values": {"value1": 1}}, position=(200, 250)),
        node("Set2", SET, {"values": {"value2": 2}}, position=(400, 400)),
        connect("Start", "Set1"),
        connect("Start", "Set2"),
        connect("Set1", "Set2"),
    )
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "success"
    assert run_order(run) == ["Start", "Set1", "Set2", "Set2"]
    assert output_json(run, "Set2", 0) == [{"value1": 1, "value2": 2}]
    assert output_json(run, "Set2", 1) == [{"value2": 2}]


async def test_children_sorted_top_first_then_left(registry):
    wf = workflow(
        node("Start", TRIGGER),
        node("Low", SET, position=(200, 300)),
        node("HighRight", SET, position=(400, 100)),
        node("HighLeft", SET, position=(200, 100)),
        node("LowChild", SET, position=(400, 300)),
        connect("Start", "Low"),
        connect("Start", "HighRight"),
        connect("Start", "HighLeft"),
        connect("Low", "LowChild"),
    )
    run = await run_workflow(wf, registry=registry)
    assert run_order(run) == ["Start", "HighLeft", "HighRight", "Low", "LowChild"]


async def test_empty_output_does_not_schedule_children(registry):
    wf = workflow(
        node("Start", TRIGGER),
        node("Route", "weft.test.route", {"field": "ok"}),
        node("Yes", SET),
        node("No", SET),
        node("After", SET),
        connect("Start", "Route"),
        connect("Route", "Yes", 0),
        connect("Route", "No", 1),
        connect("Yes", "After"),
    )
    run = await run_workflow(wf, registry=registry)
    run_data = run["data"]["resultData"]["runData"]
    assert "Yes" not in run_data and "After" not in run_data
    assert run_order(run) == ["Start", "Route", "No"]


async def test_multi_input_node_waits_for_both_inputs(registry):
    wf = workflow(
        node("Start", TRIGGER),
        node("A", SET, {"values": {"a": 1}, "keepOnlySet": True}, position=(200, 0)),
        node("B", SET, {"values": {"b": 2}, "keepOnlySet": True}, position=(200, 200)),
        node("Append", "weft.test.append", position=(400, 100)),
        connect("Start", "A"),
        connect("Start", "B"),
        connect("A", "Append", 0, 0),
        connect("B", "Append", 0, 1),
    )
    run = await run_workflow(wf, registry=registry)
    assert run_order(run) == ["Start", "A", "B", "Append"]
    assert output_json(run, "Append") == [{"a": 1}, {"b": 2}]
    assert run["data"]["resultData"]["runData"]["Append"][0]["source"] == [
        {"previousNode": "A", "previousNodeOutput": 0, "previousNodeRun": 0},
        {"previousNode": "B", "previousNodeOutput": 0, "previousNodeRun": 0},
    ]


async def test_multi_input_node_runs_with_missing_input_when_stack_empties(registry):
    # n8n: "keep executing if input 1 data missing"
    wf = workflow(
        node("Start", TRIGGER),
        node("Set", SET, {"values": {"test": "a"}}),
        node("Route", "weft.test.route", {"field": "missing"}),
        node("NoOp1", "n8n-nodes-base.noOp"),
        node("Append", "weft.test.append"),
        connect("Start", "Set"),
        connect("Set", "Route"),
        connect("Route", "Append", 0, 0),
        connect("Route", "NoOp1", 1),
        connect("NoOp1", "Append", 0, 1),
    )
    run = await run_workflow(wf, registry=registry)
    assert run_order(run) == ["Start", "Set", "Route", "NoOp1", "Append"]
    assert output_json(run, "Append") == [{"test": "a"}]
    assert run["data"]["executionData"]["waitingExecution"] == {}


async def test_execution_index_strictly_increases_and_source_shapes(registry):
    wf = workflow(node("Start", TRIGGER), node("A", SET, position=(200, 0)), connect("Start", "A"))
    run = await run_workflow(wf, registry=registry)
    runs = run["data"]["resultData"]["runData"]
    assert runs["Start"][0]["source"] == []
    assert runs["Start"][0]["executionIndex"] == 0 and runs["A"][0]["executionIndex"] == 1
    for key in ("startTime", "executionTime", "executionStatus", "data"):
        assert key in runs["A"][0]
    assert run["data"]["resultData"]["lastNodeExecuted"] == "A"
