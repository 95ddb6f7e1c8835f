"""Bench workflow A1 (agent + Calculator) against the fake OpenAI server: the wire and the run data n8n produces."""

from __future__ import annotations

import copy
from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing import FakeOpenAIServer

LC = "@n8n/n8n-nodes-langchain."

#: ``bench/workflows/a1_agent_calculator.json`` (positions and ids dropped).
A1: dict[str, Any] = {
    "id": "bnchA1agentcalc1",
    "name": "A1 agent + calculator via fake OpenAI",
    "nodes": [
        {"name": "Manual Trigger", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
        {
            "name": "AI Agent",
            "type": LC + "agent",
            "typeVersion": 3.1,
            "parameters": {
                "promptType": "define",
                "text": "What is 12345 * 6789? Use the calculator tool.",
                "options": {"systemMessage": "You are a helpful assistant.", "returnIntermediateSteps": True},
            },
        },
        {
            "name": "OpenAI Chat Model",
            "type": LC + "lmChatOpenAi",
            "typeVersion": 1.3,
            "parameters": {
                "model": {"__rl": True, "value": "gpt-4o-mini", "mode": "list", "cachedResultName": "gpt-4o-mini"},
                "responsesApiEnabled": False,
                "options": {},
            },
            "credentials": {"openAiApi": {"id": "fakeOpenAiCred01", "name": "Fake OpenAI"}},
        },
        {"name": "Calculator", "type": LC + "toolCalculator", "typeVersion": 1, "parameters": {}},
    ],
    "connections": {
        "Manual Trigger": {"main": [[{"node": "AI Agent", "type": "main", "index": 0}]]},
        "OpenAI Chat Model": {"ai_languageModel": [[{"node": "AI Agent", "type": "ai_languageModel", "index": 0}]]},
        "Calculator": {"ai_tool": [[{"node": "AI Agent", "type": "ai_tool", "index": 0}]]},
    },
    "settings": {"executionOrder": "v1"},
}

CALCULATOR_TOOL = {
    "type": "function",
    "function": {
        "name": "Calculator",
        "description": "Useful for getting the result of a math expression. The input to this tool should be a "
        "valid mathematical expression that could be executed by a simple calculator.",
        "parameters": {"type": "object", "properties": {"input": {"type": "string"}}, "additionalProperties": False},
        "strict": False,
    },
}


async def _run_a1() -> tuple[dict[str, Any], FakeOpenAIServer]:
    script = [{"tool": "Calculator", "args": {"input": "12345 * 6789"}}, "FINAL: 12345 * 6789 = {{last_tool_result}}"]
    with FakeOpenAIServer(script) as server:
        services = LocalServices(credentials={"Fake OpenAI": {"apiKey": "sk-test", "url": server.base_url}})
        run = await run_workflow(copy.deepcopy(A1), registry=agent_registry(), services=services)
    return dict(run), server


async def test_a1_requests_match_what_n8n_sends() -> None:
    run, server = await _run_a1()
    assert run["status"] == "success"
    first, second = (r.body for r in server.requests)
    assert first["tools"] == [CALCULATOR_TOOL] and second["tools"] == [CALCULATOR_TOOL]
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert first["messages"][1]["content"] == "What is 12345 * 6789? Use the calculator tool."
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool"]
    [tool_call] = second["messages"][2]["tool_calls"]
    assert tool_call["id"] == "call_1"
    assert tool_call["function"] == {"name": "Calculator", "arguments": '{"input":"12345 * 6789","id":"call_1"}'}
    assert second["messages"][3] == {"role": "tool", "tool_call_id": "call_1", "content": '[{"response":"83810205"}]'}
    assert "stream" not in first or first["stream"] is False


async def test_a1_run_data_has_n8n_shape() -> None:
    run, _ = await _run_a1()
    run_data = run["data"]["resultData"]["runData"]
    assert {name: len(runs) for name, runs in run_data.items()} == {
        "Manual Trigger": 1,
        "AI Agent": 1,
        "OpenAI Chat Model": 2,
        "Calculator": 1,
    }
    agent = run_data["AI Agent"][0]
    assert agent["metadata"]["nodeWasResumed"] is True
    sub = agent["metadata"]["subNodeExecutionData"]
    assert sub["metadata"]["iterationCount"] == 1
    assert sub["actions"][0]["action"] == {
        "actionType": "ExecutionNodeAction",
        "nodeName": "Calculator",
        "input": {"input": "12345 * 6789"},
        "type": "ai_tool",
        "id": "call_1",
        "metadata": {"itemIndex": 0},
    }
    for model_run in run_data["OpenAI Chat Model"]:
        assert model_run["source"][0]["previousNode"] == "AI Agent"
        assert "ai_languageModel" in model_run["data"] and "ai_languageModel" in model_run["inputOverride"]
    calculator = run_data["Calculator"][0]
    assert calculator["data"]["ai_tool"][0][0]["json"] == {"response": "83810205"}
    assert calculator["inputOverride"]["ai_tool"][0][0]["json"] == {"input": "12345 * 6789"}


async def test_a1_output_and_execution_order() -> None:
    run, _ = await _run_a1()
    run_data = run["data"]["resultData"]["runData"]
    [item] = run_data["AI Agent"][0]["data"]["main"][0]
    assert item["json"]["output"] == 'FINAL: 12345 * 6789 = [{"response":"83810205"}]'
    [step] = item["json"]["intermediateSteps"]
    assert step["action"]["tool"] == "Calculator"
    assert step["action"]["toolInput"] == {"input": "12345 * 6789"}
    assert step["action"]["toolCallId"] == "call_1"
    assert step["observation"] == '[{"response":"83810205"}]'
    order = sorted((t["executionIndex"], name) for name, runs in run_data.items() for t in runs)
    assert [index for index, _ in order] == [0, 2, 3, 4, 5]  # index 1 was the agent's first pass, as in n8n
    assert [name for _, name in order] == [
        "Manual Trigger",
        "OpenAI Chat Model",
        "Calculator",
        "AI Agent",
        "OpenAI Chat Model",
    ]
