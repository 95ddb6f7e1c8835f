"""Beyond n8n: the agent option ``runToolCallsConcurrently`` runs the tool calls of one model turn at once. The
tools are replayed to the model in call order, and their run records keep it too."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from weft.ai.agent_catalog import agent_registry
from weft.ai.tools.base import TOOL_OUTPUTS, string_input_schema
from weft.engine.loop import Execution
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.testing.workflows import connect, node, workflow
from weft.workflow import NodeOutput, Workflow, parse_workflow

LC = "@n8n/n8n-nodes-langchain."
TOOLS = ("Weather", "Time", "News")


class TogetherTool(NodeType):
    """Answers only once all three tools run at the same moment (else fails after a short wait)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.test.togetherTool", display_name="Together", inputs=(), outputs=TOOL_OUTPUTS
    )
    inside: ClassVar[int] = 0
    all_in: ClassVar[asyncio.Event | None] = None
    patience: ClassVar[float] = 5.0

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ToolSpec:
        return ToolSpec(
            name=ctx.node.name, description="waits", parameters=string_input_schema(), source_node_name=ctx.node.name
        )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        cls = type(self)
        cls.all_in = cls.all_in or asyncio.Event()
        cls.inside += 1
        if cls.inside == len(TOOLS):
            cls.all_in.set()
        try:
            await asyncio.wait_for(cls.all_in.wait(), cls.patience)
        except TimeoutError:
            raise NodeOperationError(ctx.node.name, "alone") from None
        return [[{"json": {"response": f"{ctx.node.name} ok"}}]]


async def _run(concurrently: bool) -> dict[str, Any]:
    TogetherTool.inside, TogetherTool.all_in = 0, None
    TogetherTool.patience = 5.0 if concurrently else 0.2
    registry = agent_registry()
    registry.register(TogetherTool)
    calls = {"toolCalls": [{"name": name, "args": {"input": name}} for name in TOOLS]}
    options = {"runToolCallsConcurrently": concurrently, "returnIntermediateSteps": True}
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "go", "options": options}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": [calls, "done"]}),
        *(node(name, "weft.test.togetherTool") for name in TOOLS),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        *(connect(name, "AI Agent", type_="ai_tool") for name in TOOLS),
    )
    run: dict[str, Any] = await Execution(Workflow(parse_workflow(wf)), registry=registry).run()
    return run


async def test_tool_calls_of_one_turn_run_at_once_and_are_replayed_in_call_order() -> None:
    run = await _run(True)
    assert run["status"] == "success"
    [item] = run["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0]
    assert [s["observation"] for s in item["json"]["intermediateSteps"]] == [
        f'[{{"response":"{name} ok"}}]' for name in TOOLS
    ]
    run_data = run["data"]["resultData"]["runData"]
    indexes = [run_data[name][0]["executionIndex"] for name in TOOLS]
    assert indexes == sorted(indexes)


async def test_by_default_they_run_one_after_the_other() -> None:
    run = await _run(False)
    [item] = run["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0]
    assert item["json"]["intermediateSteps"][0]["observation"] == '[{"error":"alone"}]'
