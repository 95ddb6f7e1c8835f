"""Chapter 19 §4: watch the execution stack while an AI Agent calls two tools at once.

Run it with ``python examples/agent_stack_trace.py``. The workflow is Start → Question → AI Agent, with a chat
model "Model" and two tools, "Calculator" (the built-in Calculator) and "Shout" (a Code Tool). The model asks for
both tools in one turn; the agent returns an engine request, the engine pushes the two tools above the agent
and resumes it with their results. Hooks print the stack after every pop and every node end.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.ai.messages import AIMessage, Message, ToolCall, ToolDefinition, ToolMessage, last_human_text
from weft.ai.models.traced import TracedChatModel
from weft.engine import ExecutionHooks
from weft.engine.loop import Execution
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext
from weft.testing import FunctionChatModel
from weft.testing.workflows import connect, node, workflow
from weft.workflow import ExecuteData, Workflow, parse_workflow

LC = "@n8n/n8n-nodes-langchain."
WIDTH = 10  # the longest node name, "Calculator"


def book_model(messages: list[Message], tools: list[ToolDefinition]) -> AIMessage:
    """Call both tools on the user's turn; then report what they returned."""
    results = [m for m in messages if isinstance(m, ToolMessage)]
    if not results:
        prompt = last_human_text(messages)
        return AIMessage(
            tool_calls=[
                ToolCall(id="call_1", name="Calculator", args={"input": "6 * 7"}),
                ToolCall(id="call_2", name="Shout", args={"input": prompt}),
            ]
        )
    said = "; ".join(f"{r.name} returned {json.loads(r.content)[0]['response']}" for r in results)
    return AIMessage(content=f"Based on the tools: {said}.")


class BookModel(NodeType):
    """The example's chat model node: :func:`book_model`, traced like every model node."""

    description = NodeDescription(
        name="weft.example.bookModel", display_name="Book Model", inputs=(), outputs=("ai_languageModel",)
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> Any:
        return TracedChatModel(FunctionChatModel(book_model), ctx, options={"model": "book"})


def chapter19_workflow() -> dict[str, Any]:
    question = {"assignments": {"assignments": [{"id": "q", "name": "chatInput", "value": "hi and compute 6 * 7"}]}}
    shout = {"description": "Shouts the input back in capitals", "jsCode": "return ('shout ' + query).toUpperCase();"}
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Question", "n8n-nodes-base.set", question, version=3.4),
        node("AI Agent", LC + "agent", {"promptType": "auto"}, version=3.1),
        node("Model", "weft.example.bookModel"),
        node("Calculator", LC + "toolCalculator"),
        node("Shout", LC + "toolCode", shout, version=1.3),
        connect("Start", "Question"),
        connect("Question", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Calculator", "AI Agent", type_="ai_tool"),
        connect("Shout", "AI Agent", type_="ai_tool"),
    )


def describe_stack(stack: list[ExecuteData]) -> str:
    names = []
    for entry in stack:
        name = entry["node"]["name"]
        sub = (entry.get("metadata") or {}).get("subNodeExecutionData")
        names.append(f"{name}(resume: {len(sub['actions'])} results)" if sub else name)
    return "[" + ", ".join(names) + "]"


def tracing_hooks(execution: Execution, lines: list[str]) -> ExecutionHooks:
    hooks = ExecutionHooks()

    def before(name: str, task: Any) -> None:
        lines.append(f"▶ {name:<{WIDTH}} stack after pop: {describe_stack(execution.stack)}")

    def after(name: str, task: Any, data: Any = None) -> None:
        kind = next(iter(task.get("data") or {"main": None}))
        lines.append(f"✓ {name:<{WIDTH}} {'output as ' + kind:<26} stack: {describe_stack(execution.stack)}")

    hooks.on("nodeExecuteBefore", before)
    hooks.on("nodeExecuteAfter", after)
    return hooks


async def main() -> list[str]:
    registry = agent_registry()
    registry.register(BookModel)
    execution = Execution(Workflow(parse_workflow(chapter19_workflow())), registry=registry)
    lines: list[str] = []
    execution.hooks = tracing_hooks(execution, lines)
    run = await execution.run()
    run_data = run["data"]["resultData"]["runData"]
    [item] = run_data["AI Agent"][0]["data"]["main"][0] or []
    answer = item["json"]["output"]
    lines.append("")
    lines.append(f"answer: {answer}")
    lines.append("runs  : " + " ".join(f"{name}={len(runs)}" for name, runs in run_data.items()))
    return lines


if __name__ == "__main__":
    print("\n".join(asyncio.run(main())))
