"""An agent whose tool waits survives a JSON round trip of the execution and a resume in a new ``Execution``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.ai.tools.base import TOOL_OUTPUTS
from weft.engine.loop import Execution
from weft.engine.state import restore_waiting_keys
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.nodes.registry import NodeRegistry
from weft.testing.workflows import connect, node, workflow
from weft.workflow import NodeOutput, Workflow, parse_workflow

LC = "@n8n/n8n-nodes-langchain."


class ApprovalTool(NodeType):
    """A tool that puts the execution to wait on its first run and answers ``approved`` when resumed."""

    description = NodeDescription(name="weft.test.approval", display_name="Approval", inputs=(), outputs=TOOL_OUTPUTS)

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ToolSpec:
        schema = {"type": "object", "properties": {"input": {"type": "string"}}}
        return ToolSpec(name="Approval", description="Ask a human", parameters=schema, source_node_name=ctx.node.name)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        state = ctx.get_context("node")
        if state.get("waited"):
            return [[{"json": {"response": f"approved {ctx.get_input_data()[0]['json']['input']}"}}]]
        state["waited"] = True
        ctx.put_execution_to_wait(datetime(3000, 1, 1, tzinfo=UTC), resume_node=True)
        return [ctx.get_input_data()]


def _registry() -> NodeRegistry:
    registry = agent_registry()
    registry.register(ApprovalTool)
    return registry


def _workflow() -> dict[str, Any]:
    turns = [
        {
            "toolCalls": [
                {"name": "Calculator", "args": {"input": "2*21"}},
                {"name": "Approval", "args": {"input": "x"}},
            ]
        },
        "Results: {{last_tool_result}}",
    ]
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node(
            "AI Agent",
            LC + "agent",
            {"promptType": "define", "text": "go", "options": {"returnIntermediateSteps": True}},
            version=3.1,
        ),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        node("Calculator", LC + "toolCalculator"),
        node("Approval", "weft.test.approval"),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Calculator", "AI Agent", type_="ai_tool"),
        connect("Approval", "AI Agent", type_="ai_tool"),
    )


async def test_agent_resumes_in_a_new_execution_from_json_only() -> None:
    wf = _workflow()
    first = await Execution(Workflow(parse_workflow(wf)), registry=_registry()).run()
    assert first["status"] == "waiting"
    assert first["data"]["executionData"]["nodeExecutionStack"][0]["node"]["name"] == "Approval"

    stored = restore_waiting_keys(json.loads(json.dumps(first["data"])))
    resumed = await Execution(Workflow(parse_workflow(wf)), registry=_registry(), data=stored).resume()

    assert resumed["status"] == "success"
    run_data = resumed["data"]["resultData"]["runData"]
    assert {name: len(runs) for name, runs in run_data.items()} == {
        "Start": 1,
        "AI Agent": 1,
        "Model": 2,
        "Calculator": 1,
        "Approval": 1,
    }
    [item] = run_data["AI Agent"][0]["data"]["main"][0]
    assert item["json"]["output"] == 'Results: [{"response":"approved x"}]'
    assert [s["observation"] for s in item["json"]["intermediateSteps"]] == [
        '[{"response":"42"}]',
        '[{"response":"approved x"}]',
    ]
    second_prompt = run_data["Model"][1]["inputOverride"]["ai_languageModel"][0][0]["json"]["messages"][0]
    assert 'Tool: [{"response":"42"}]' in second_prompt and 'Tool: [{"response":"approved x"}]' in second_prompt
