"""Approval beyond n8n, through the real server: two gated calls of one turn answered one by one, arguments
edited by the approver, approval inside a sub-agent (an Agent Tool's tool) and inside a Workflow Tool's
sub-workflow."""

from __future__ import annotations

import json
import uuid
from typing import Any

from tests.hitl._workflows import LC, REFUND_CODE, message, refund_call, refund_workflow
from tests.server.conftest import LiveServer, wait_for

from weft.testing.hitl_nodes import SENT, RecordingHitlTool
from weft.testing.workflows import connect, node, workflow

ANSWER = "Result: {{last_tool_result}}"
PROMPT = "={{ $fromAI('Prompt__User_Message_', ``, 'string') }}"


def _start(live: LiveServer, data: dict[str, Any], webhook_id: str) -> tuple[dict[str, Any], str]:
    live.instance.store.workflows.import_workflow(data, activate=True)
    response = live.client.post(f"/webhook/{webhook_id}/chat", json=message("Please refund order 42"))
    assert response.status_code == 200, response.text
    rows = wait_for(lambda: [r for r in live.executions(data["id"]) if r["status"] == "waiting"])
    return response.json(), rows[0]["id"]


def _link(answer: dict[str, Any], label: str) -> str:
    return next(b["link"] for b in answer["message"]["buttons"] if b["text"] == label)


def _run_data(live: LiveServer, execution_id: str) -> dict[str, Any]:
    live.wait_status(execution_id, "success")
    response = live.client.get(f"/rest/executions/{execution_id}", params={"includeData": True})
    run_data: dict[str, Any] = response.json()["data"]["data"]["resultData"]["runData"]
    return run_data


def _last_prompt(run_data: dict[str, Any], model: str = "Model") -> str:
    prompt: str = run_data[model][-1]["inputOverride"]["ai_languageModel"][0][0]["json"]["messages"][0]
    return prompt


def test_two_gated_calls_of_one_turn_are_answered_independently(live: LiveServer) -> None:
    calls = [refund_call("42", "call_a"), refund_call("43", "call_b")]
    data, webhook_id = refund_workflow([{"toolCalls": calls}, ANSWER])
    first, execution_id = _start(live, data, webhook_id)
    assert first["message"]["tool"]["id"] == "call_a"

    reply = live.client.post(_link(first, "Approve"))  # answered by the next question
    assert reply.status_code == 200, reply.text
    second = reply.json()
    assert second["message"]["tool"] == {"name": "Refund", "parameters": {"input": "43"}, "id": "call_b"}
    # the chat gets B's question just before the execution is saved waiting again
    wait_for(lambda: live.execution(execution_id)["status"] == "waiting")
    assert live.client.post(_link(first, "Approve")).status_code == 409  # A's link cannot answer B

    final = live.client.post(_link(second, "Decline"))
    assert final.status_code == 200, final.text
    run_data = _run_data(live, execution_id)
    assert [r["data"]["ai_tool"][0][0]["json"]["data"]["approved"] for r in run_data["Approve"]] == [True, False]
    [refund] = run_data["Refund"]
    assert refund["inputOverride"]["ai_tool"][0][0]["json"] == {"tool": "Refund", "input": "42"}
    prompt = _last_prompt(run_data)
    assert 'Tool: [{"response":"refunded order 42"}]' in prompt
    assert "User rejected the tool call to Refund (id: call_b)" in prompt
    assert len(run_data["Model"]) == 2  # one model call after both answers


def test_the_approver_edits_the_arguments_and_the_edited_ones_run(live: LiveServer) -> None:
    data, webhook_id = refund_workflow([{"toolCalls": [refund_call("42")]}, ANSWER])
    first, execution_id = _start(live, data, webhook_id)
    resumed = live.client.post(_link(first, "Approve"), json={"toolParameters": {"input": "41"}})
    assert resumed.json() == {"output": 'Result: [{"response":"refunded order 41"}]'}
    run_data = _run_data(live, execution_id)
    [gate] = run_data["Approve"]
    assert gate["inputOverride"]["ai_tool"][0][0]["json"]["toolParameters"] == {"input": "42"}  # what the model asked
    assert gate["data"]["ai_tool"][0][0]["json"]["data"]["toolParameters"] == {"input": "41"}  # what was approved
    [refund] = run_data["Refund"]
    assert refund["inputOverride"]["ai_tool"][0][0]["json"] == {"tool": "Refund", "input": "41"}


def _sub_agent_workflow() -> tuple[dict[str, Any], str]:
    """The top agent calls the Support agent (an Agent Tool), whose Refund tool is gated by the chat."""
    outer = [{"toolCalls": [{"id": "call_support", "name": "Support", "args": {"Prompt__User_Message_": "refund 42"}}]}]
    data, webhook_id = refund_workflow([*outer, ANSWER])
    extra_nodes = [
        node("Support", LC + "agentTool", {"toolDescription": "Handles refunds", "text": PROMPT}, version=3),
        node("Support Model", "weft.lmChatScripted", {"turns": [{"toolCalls": [refund_call()]}, ANSWER]}),
    ]
    data["nodes"].extend(extra_nodes)
    for each in extra_nodes:
        each["id"] = each["name"].lower().replace(" ", "-")
    connections = data["connections"]
    connections["Approve"] = {"ai_tool": [[{"node": "Support", "type": "ai_tool", "index": 0}]]}
    for source, target, kind in [("Support", "AI Agent", "ai_tool"), ("Support Model", "Support", "ai_languageModel")]:
        connections.setdefault(source, {})[kind] = [[{"node": target, "type": kind, "index": 0}]]
    return data, webhook_id


def test_approval_inside_a_sub_agent(live: LiveServer) -> None:
    data, webhook_id = _sub_agent_workflow()
    first, execution_id = _start(live, data, webhook_id)
    assert first["message"]["tool"]["parameters"] == {"input": "42"}
    resumed = live.client.post(_link(first, "Approve"))
    assert resumed.status_code == 200, resumed.text
    inner = 'Result: [{"response":"refunded order 42"}]'
    assert resumed.json() == {"output": "Result: " + json.dumps([{"output": inner}], separators=(",", ":"))}
    run_data = _run_data(live, execution_id)
    assert run_data["Refund"][0]["source"][0]["previousNode"] == "Approve"
    assert run_data["Approve"][0]["source"][0]["previousNode"] == "Support"


def _child_workflow() -> dict[str, Any]:
    """Execute Workflow Trigger → AI Agent whose Refund tool is gated by the recording HITL node."""
    inputs = {"workflowInputs": {"values": [{"name": "order"}]}}
    prompt = {"promptType": "define", "text": "={{ 'refund ' + $json.order }}"}
    data = workflow(
        node("Start", "n8n-nodes-base.executeWorkflowTrigger", inputs, version=1.1),
        node("Child Agent", LC + "agent", prompt, version=3.1),
        node("Child Model", "weft.lmChatScripted", {"turns": [{"toolCalls": [refund_call()]}, ANSWER]}),
        node("Gate", RecordingHitlTool.description.name, {}),
        node("Refund", LC + "toolCode", {"jsCode": REFUND_CODE, "description": "Refund an order"}, version=1.3),
        connect("Start", "Child Agent"),
        connect("Child Model", "Child Agent", type_="ai_languageModel"),
        connect("Gate", "Child Agent", type_="ai_tool"),
        connect("Refund", "Gate", type_="ai_tool"),
    )
    return {**data, "id": uuid.uuid4().hex[:16], "name": "refunds child"}


def test_approval_inside_a_workflow_tools_sub_workflow(live: LiveServer) -> None:
    SENT.clear()  # questions of an earlier run (the other database) name another server
    live.instance.runner.registry.register(RecordingHitlTool)
    child = _child_workflow()
    live.instance.store.workflows.import_workflow(child, activate=False)
    tool = {
        "description": "Refunds an order",
        "source": "database",
        "workflowId": {"__rl": True, "value": child["id"], "mode": "id"},
        "workflowInputs": {
            "mappingMode": "defineBelow",
            "value": {"order": "={{ $fromAI('order', 'The order', 'string') }}"},
            "matchingColumns": [],
            "schema": [{"id": "order", "displayName": "order", "type": "string", "display": True, "removed": False}],
        },
    }
    outer = [{"toolCalls": [{"id": "call_wf", "name": "Refunds", "args": {"order": "42"}}]}, ANSWER]
    data, webhook_id = refund_workflow(outer)
    data["nodes"].append({**node("Refunds", LC + "toolWorkflow", tool, version=2.2), "id": "refunds-tool"})
    data["connections"].pop("Approve")
    data["connections"]["Refunds"] = {"ai_tool": [[{"node": "AI Agent", "type": "ai_tool", "index": 0}]]}
    _, parent_id = _start(live, data, webhook_id)
    question = wait_for(lambda: next((s for s in SENT if s["tool"]["id"] == "call_refund"), None))
    assert question["executionId"] != parent_id  # asked by the child's execution
    assert live.execution(question["executionId"])["status"] == "waiting"

    answered = live.client.get(question["links"]["Approve"])
    assert answered.status_code == 200, answered.text
    run_data = _run_data(live, parent_id)
    [answer] = run_data["AI Agent"][0]["data"]["main"][0]
    assert "refunded order 42" in answer["json"]["output"]
    child_runs = _run_data(live, question["executionId"])
    assert child_runs["Refund"][0]["source"][0]["previousNode"] == "Gate"
    assert live.client.get(question["links"]["Approve"]).status_code == 409  # used once
