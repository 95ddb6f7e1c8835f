"""Retries, onError, alwaysOutputData, executeOnce, disabled and pinned nodes, paired items."""

from __future__ import annotations

import time

from weft.engine import run_workflow
from weft.testing.workflows import connect, node, output_json, workflow

TRIGGER = "n8n-nodes-base.manualTrigger"
SET = "weft.test.set"


def _line(*nodes, pin_data=None):
    parts = [node("Start", TRIGGER)]
    previous = "Start"
    for index, n in enumerate(nodes):
        n["position"] = [200 * (index + 1), 0]
        parts += [n, connect(previous, n["name"])]
        previous = n["name"]
    return workflow(*parts, pin_data=pin_data)


async def test_retry_clamps_max_tries_to_five(registry):
    flaky = node("Flaky", "weft.test.flaky", {"succeedOn": 99}, retryOnFail=True, maxTries=10, waitBetweenTries=0)
    run = await run_workflow(_line(flaky), registry=registry)
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"] == "simulated error, count = 5"


async def test_retry_max_tries_one_still_tries_twice(registry):
    flaky = node("Flaky", "weft.test.flaky", {"succeedOn": 2}, retryOnFail=True, maxTries=1, waitBetweenTries=0)
    run = await run_workflow(_line(flaky), registry=registry)
    assert output_json(run, "Flaky") == [{"success": True, "count": 2}]


async def test_error_item_is_retried_but_null_error_is_not(registry):
    item_fail = node("F1", "weft.test.flaky", {"succeedOn": 3, "mode": "item"}, retryOnFail=True, waitBetweenTries=0)
    run = await run_workflow(_line(item_fail), registry=registry)
    assert output_json(run, "F1") == [{"success": True, "count": 3}]
    null = node("F2", "weft.test.flaky", {"succeedOn": 3, "mode": "item", "errorValue": None}, retryOnFail=True)
    run = await run_workflow(_line(null), registry=registry)
    assert output_json(run, "F2") == [{"error": None}]


async def test_wait_between_tries_is_applied(registry):
    flaky = node("Flaky", "weft.test.flaky", {"succeedOn": 2}, retryOnFail=True, waitBetweenTries=50)
    started = time.perf_counter()
    await run_workflow(_line(flaky), registry=registry)
    assert time.perf_counter() - started >= 0.05


def _people(on_error):
    people = [{"name": n, "fail": n in ("a", "c")} for n in "abcde"]
    return _line(
        node("People", "n8n-nodes-base.noOp"),
        node("Code", "weft.test.failItems", **({"onError": on_error} if on_error else {})),
        pin_data={"People": [{"json": p} for p in people]},
    )


async def test_stop_workflow_is_the_default(registry):
    run = await run_workflow(_people(None), registry=registry)
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"] == "This is an error"
    assert run["data"]["resultData"]["runData"]["Code"][0]["executionStatus"] == "error"
    assert run["data"]["executionData"]["nodeExecutionStack"][0]["node"]["name"] == "Code"


async def test_continue_regular_output_keeps_error_items_in_line(registry):
    run = await run_workflow(_people("continueRegularOutput"), registry=registry)
    out = output_json(run, "Code")
    assert len(out) == 5 and out[0] == {"error": "This is an error"} and out[1]["passed"]


async def test_continue_error_output_routes_error_items_to_the_last_output(registry):
    run = await run_workflow(_people("continueErrorOutput"), registry=registry)
    success, errors = output_json(run, "Code", output=0), output_json(run, "Code", output=1)
    assert [p["name"] for p in success] == ["b", "d", "e"]
    assert errors == [
        {"name": "a", "fail": True, "error": "This is an error"},
        {"name": "c", "fail": True, "error": "This is an error"},
    ]


async def test_error_item_with_other_keys_stays_on_success_output(registry):
    wf = _line(node("Flaky", "weft.test.flaky", {"succeedOn": 99, "mode": "item"}, onError="continueErrorOutput"))
    run = await run_workflow(wf, registry=registry)
    assert output_json(run, "Flaky", output=1) == [{"error": "x"}]


async def test_thrown_error_with_continue_passes_input_through(registry):
    wf = _line(node("Boom", "weft.test.boom", onError="continueRegularOutput"), node("After", SET))
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "success"
    assert run["data"]["resultData"]["runData"]["Boom"][0]["error"]["message"] == "boom"
    assert output_json(run, "After") == [{}]


async def test_always_output_data_gives_one_empty_item_paired_to_all_inputs(registry):
    pins = {"Items": [{"json": {"i": 1}}, {"json": {"i": 2}}]}
    wf = _line(
        node("Items", "n8n-nodes-base.noOp"),
        node("Empty", "weft.test.nothing", alwaysOutputData=True),
        node("After", SET),
        pin_data=pins,
    )
    run = await run_workflow(wf, registry=registry)
    task = run["data"]["resultData"]["runData"]["Empty"][0]
    assert task["data"]["main"][0] == [{"json": {}, "pairedItem": [{"item": 0, "input": 0}, {"item": 1, "input": 0}]}]
    assert output_json(run, "After") == [{}]


async def test_null_output_ends_the_branch(registry):
    wf = _line(node("Null", "weft.test.nothing", {"returnNull": True}), node("After", SET))
    run = await run_workflow(wf, registry=registry)
    assert "After" not in run["data"]["resultData"]["runData"]


async def test_execute_once_uses_only_the_first_item(registry):
    pins = {"Items": [{"json": {"i": i}} for i in range(3)]}
    wf = _line(
        node("Items", "n8n-nodes-base.noOp"), node("Once", SET, {"values": {"x": 1}}, executeOnce=True), pin_data=pins
    )
    run = await run_workflow(wf, registry=registry)
    assert output_json(run, "Once") == [{"i": 0, "x": 1}]


async def test_disabled_node_passes_input_and_ignores_its_pin_data(registry):
    pins = {"Items": [{"json": {"i": 1}}], "Off": [{"json": {"pinned": True}}]}
    wf = _line(
        node("Items", "n8n-nodes-base.noOp"), node("Off", SET, {"values": {"x": 1}}, disabled=True), pin_data=pins
    )
    run = await run_workflow(wf, registry=registry)
    assert output_json(run, "Off") == [{"i": 1}]


async def test_pinned_node_is_not_executed_and_children_consume_pins(registry):
    pins = {"Boom": [{"json": {"pinned": 1}}, {"pinned": 2}]}
    wf = _line(node("Boom", "weft.test.boom"), node("After", SET, {"values": {"x": 1}}), pin_data=pins)
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "success"
    assert output_json(run, "Boom") == [{"pinned": 1}, {"pinned": 2}]
    assert output_json(run, "After") == [{"pinned": 1, "x": 1}, {"pinned": 2, "x": 1}]


async def test_paired_items_are_assigned_when_unambiguous(registry):
    pins = {"Three": [{"json": {"i": i}} for i in range(3)]}
    wf = _line(node("Three", "n8n-nodes-base.noOp"), node("Same", SET, {"values": {"x": 1}}), pin_data=pins)
    run = await run_workflow(wf, registry=registry)
    same = run["data"]["resultData"]["runData"]["Same"][0]["data"]["main"][0]
    assert [i["pairedItem"] for i in same] == [{"item": 0}, {"item": 1}, {"item": 2}]


async def test_engine_failure_outside_a_node_is_stored_not_raised(registry):
    wf = _line(node("A", SET))
    wf["nodes"][1]["type"] = "weft.test.notInstalled"
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "error"
    assert "Unknown node type 'weft.test.notInstalled'" in run["data"]["resultData"]["error"]["message"]
    assert run["data"]["resultData"]["runData"]["Start"][0]["executionStatus"] == "success"


async def test_pin_data_is_not_changed_by_the_run(registry):
    pins = {"Items": [{"json": {"a": 1}}]}
    wf = _line(node("Items", "n8n-nodes-base.noOp"), node("After", SET), pin_data=pins)
    run = await run_workflow(wf, registry=registry)
    assert run["data"]["resultData"]["pinData"]["Items"] == [{"json": {"a": 1}}]
