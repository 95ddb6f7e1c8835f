"""Engine requests through the real loop: tools run as ordinary nodes, the requester keeps one run."""

from __future__ import annotations

from weft.engine import ExecutionHooks, run_workflow
from weft.testing.probe_nodes import Requester
from weft.testing.workflows import connect, node, output_json, run_order, workflow

TRIGGER = "n8n-nodes-base.manualTrigger"


def _agent_wf(actions, *extra, rounds=1, tool_settings=None, agent_settings=None):
    return workflow(
        node("Start", TRIGGER),
        node("Agent", "weft.test.requester", {"actions": actions, "rounds": rounds}, **(agent_settings or {})),
        node("Tool A", "weft.test.echo", {"prefix": "a"}, **(tool_settings or {})),
        node("Tool B", "weft.test.echo", {"prefix": "b"}),
        node("Failing", "weft.test.boom", {"message": "tool broke"}, **(tool_settings or {})),
        node("After", "weft.test.set", {"values": {"after": True}}),
        connect("Start", "Agent"),
        connect("Agent", "After"),
        *extra,
    )


A = {"nodeName": "Tool A", "input": {"query": "test input"}, "id": "action_1"}
B = {"nodeName": "Tool B", "input": {"query": "other"}, "id": "action_2"}


async def test_round_trip_runs_tools_in_order_then_resumes_the_requester(registry):
    run = await run_workflow(_agent_wf([A, B]), registry=registry)
    assert run["status"] == "success"
    assert run_order(run) == ["Start", "Tool A", "Tool B", "Agent", "After"]
    final = output_json(run, "Agent")[0]
    assert final["actionCount"] == 2
    assert final["responseMetadata"] == {"requestId": "test_request", "round": 1}
    assert [r["toolCallId"] for r in final["responses"]] == ["action_1_0", "action_2_0"]


async def test_requester_keeps_one_run_and_tools_log_under_ai_tool(registry):
    run = await run_workflow(_agent_wf([A, B]), registry=registry)
    runs = run["data"]["resultData"]["runData"]
    assert len(runs["Agent"]) == 1
    assert runs["Agent"][0]["metadata"]["subNodeExecutionData"]["actions"][0]["nodeName"] == "Tool A"
    tool = runs["Tool A"]
    assert len(tool) == 1 and tool[0]["executionStatus"] == "success"
    assert "main" not in tool[0]["data"]
    assert tool[0]["data"]["ai_tool"][0][0]["json"]["echoed"] is True
    assert tool[0]["inputOverride"]["ai_tool"][0][0] == {
        "json": {"query": "test input"},  # the arguments only, as n8n shows them
        "pairedItem": {
            "item": 0,
            "input": 0,
            "sourceOverwrite": {"previousNode": "Start", "previousNodeOutput": 0, "previousNodeRun": 0},
        },
    }
    assert tool[0]["source"] == [{"previousNode": "Agent", "previousNodeOutput": 0, "previousNodeRun": 0}]


async def test_resumed_requester_does_not_fire_node_execute_before_again(registry):
    hooks = ExecutionHooks()
    events: list[tuple[str, str]] = []
    hooks.on("nodeExecuteBefore", lambda name, task: events.append(("before", name)))
    hooks.on("nodeExecuteAfter", lambda name, task, data: events.append(("after", name)))
    await run_workflow(_agent_wf([A]), registry=registry, hooks=hooks)
    assert events.count(("before", "Agent")) == 1
    assert events.count(("after", "Agent")) == 1
    assert events.index(("after", "Tool A")) < events.index(("after", "Agent"))


async def test_next_node_gets_no_response(registry):
    wf = _agent_wf([A])
    wf["nodes"].append(node("Second", "weft.test.requester", {"actions": [], "rounds": 0}))
    wf["connections"]["Agent"]["main"][0].append({"node": "Second", "type": "main", "index": 0})
    await run_workflow(wf, registry=registry)
    assert Requester.seen[0] is None and Requester.seen[1] is not None
    assert Requester.seen[2] is None  # "Second" ran with no response


async def test_tool_error_goes_back_to_the_requester_by_default(registry):
    failing = {"nodeName": "Failing", "input": {}, "id": "bad"}
    run = await run_workflow(_agent_wf([failing]), registry=registry)
    assert run["status"] == "success"
    task = run["data"]["resultData"]["runData"]["Failing"][0]
    assert task["executionStatus"] == "error"
    assert task["data"] == {"ai_tool": [[{"json": {"error": "tool broke"}}]]}
    assert output_json(run, "Agent")[0]["responses"] == [{"error": "tool broke"}]


async def test_tool_with_stop_workflow_fails_the_execution(registry):
    failing = {"nodeName": "Failing", "input": {}, "id": "bad"}
    run = await run_workflow(_agent_wf([failing], tool_settings={"onError": "stopWorkflow"}), registry=registry)
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"] == "tool broke"
    assert "Agent" not in run["data"]["resultData"]["runData"]


async def test_several_rounds_keep_a_single_requester_run(registry):
    run = await run_workflow(_agent_wf([A], rounds=3), registry=registry)
    runs = run["data"]["resultData"]["runData"]
    assert len(runs["Agent"]) == 1
    assert len(runs["Tool A"]) == 3
    assert output_json(run, "Agent")[0]["responseMetadata"]["round"] == 3


async def test_nested_requests_resolve_inner_first(registry):
    inner = {"nodeName": "Inner", "input": {"query": "deep"}, "id": "inner"}
    wf = _agent_wf([{"nodeName": "Inner", "input": {"query": "outer"}, "id": "outer"}])
    wf["nodes"].append(node("Inner", "weft.test.requester", {"actions": [{**A, "id": "leaf"}]}))
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "success"
    assert run_order(run) == ["Start", "Tool A", "Inner", "Agent", "After"]
    runs = run["data"]["resultData"]["runData"]
    assert len(runs["Inner"]) == 1 and "ai_tool" in runs["Inner"][0]["data"]
    assert runs["Tool A"][0]["source"][0]["previousNode"] == "Inner"
    assert inner  # the outer agent saw the inner requester's final item
    assert output_json(run, "Agent")[0]["responses"][0]["finalResult"] == "done"


async def test_requester_without_parent_is_not_resumed(registry):
    wf = workflow(node("Agent", "weft.test.requester", {"actions": [A]}), node("Tool A", "weft.test.echo"))
    run = await run_workflow(wf, registry=registry, start_node="Agent")
    runs = run["data"]["resultData"]["runData"]
    assert "Agent" not in runs
    assert "data" not in runs["Tool A"][0] and "executionStatus" not in runs["Tool A"][0]


async def test_tool_timeout_becomes_an_error_result_for_the_requester(registry):
    slow = {"nodeName": "Slow", "input": {}, "id": "slow", "metadata": {"timeoutMs": 50}}
    wf = _agent_wf([slow])
    wf["nodes"].append(node("Slow", "weft.test.sleep", {"seconds": 5}))
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "success"
    assert output_json(run, "Agent")[0]["responses"] == [{"error": "Error: timed out after 50 ms"}]
    assert run["data"]["resultData"]["runData"]["Slow"][0]["executionStatus"] == "error"


async def test_request_for_an_unknown_node_fails_the_execution_with_the_requester_recorded(registry):
    run = await run_workflow(_agent_wf([{"nodeName": "Ghost", "input": {}, "id": "x"}]), registry=registry)
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"] == 'Workflow does not contain a node with the name of "Ghost".'
    assert run["data"]["resultData"]["runData"]["Agent"][0]["executionStatus"] == "error"
