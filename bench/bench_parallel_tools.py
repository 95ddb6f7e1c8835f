"""Beyond n8n: the time the agent option ``runToolCallsConcurrently`` saves when one model turn calls three tools
that each wait 200 ms (an API call, say). Each tool is a node that sleeps 200 ms; the model is
scripted. Prints the median wall time of the whole execution, one after the other and at once. Usage::

    .venv/bin/python bench/bench_parallel_tools.py [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from typing import Any, ClassVar

from weft.ai.agent_catalog import agent_registry
from weft.ai.tools.base import TOOL_OUTPUTS, string_input_schema
from weft.engine.loop import Execution
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.nodes.registry import NodeRegistry
from weft.testing.workflows import connect, node, workflow
from weft.workflow import NodeOutput, Workflow, parse_workflow

LC = "@n8n/n8n-nodes-langchain."
TOOLS = ("Weather", "Time", "News")


class SlowTool(NodeType):
    """A tool that answers after 200 ms."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.bench.slowTool", display_name="Slow tool", inputs=(), outputs=TOOL_OUTPUTS
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ToolSpec:
        return ToolSpec(
            name=ctx.node.name, description="slow", parameters=string_input_schema(), source_node_name=ctx.node.name
        )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        await asyncio.sleep(0.2)
        return [[{"json": {"response": f"{ctx.node.name} ok"}}]]


def bench_workflow(concurrently: bool) -> Workflow:
    calls = {"toolCalls": [{"name": name, "args": {"input": name}} for name in TOOLS]}
    options = {"runToolCallsConcurrently": concurrently}
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "go", "options": options}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": [calls, "done"]}),
        *(node(name, "weft.bench.slowTool") for name in TOOLS),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        *(connect(name, "AI Agent", type_="ai_tool") for name in TOOLS),
    )
    return Workflow(parse_workflow(wf))


async def measure(concurrently: bool, repeat: int) -> float:
    registry = agent_registry(NodeRegistry(demo_nodes=True))  # its model is the Scripted Chat Model, a demo node
    registry.register(SlowTool)
    model = bench_workflow(concurrently)
    times: list[float] = []
    for _ in range(repeat):
        started = time.perf_counter()
        run: dict[str, Any] = await Execution(model, registry=registry).run()
        times.append((time.perf_counter() - started) * 1000)
        assert run["status"] == "success", run["data"]["resultData"].get("error")
    return statistics.median(times)


async def main(repeat: int) -> None:
    print(f"$ {sys.executable} bench/bench_parallel_tools.py --repeat {repeat}")
    one_by_one = await measure(False, repeat)
    at_once = await measure(True, repeat)
    print(f"three 200 ms tools, one after the other: median {one_by_one:7.1f} ms")
    print(f"three 200 ms tools, at once:             median {at_once:7.1f} ms   (saves {one_by_one - at_once:.1f} ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=11)
    asyncio.run(main(parser.parse_args().repeat))
