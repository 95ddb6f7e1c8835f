"""Agent round-trip overhead: an AI Agent with a scripted model and one Calculator tool (DESIGN.md §7).

Measures, per execution, the wall time of the whole run and the time spent inside the model's ``generate``; the
difference is what the engine and the agent cost around the model. Two workflows:

* ``round trip``: the model calls the Calculator once, then answers (2 model calls, 1 tool run, 1 resume);
* ``direct``:     the model answers at once (1 model call, no tool).

``overhead(round trip) − overhead(direct)`` is the cost of one tool round trip. Usage::

    .venv/bin/python bench/bench_agent.py [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.ai.messages import Message, ModelResponse, ToolDefinition
from weft.ai.models.base import StreamCallback
from weft.ai.models.traced import TracedChatModel
from weft.engine.loop import Execution
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext
from weft.testing import ScriptedChatModel
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Workflow, parse_workflow

LC = "@n8n/n8n-nodes-langchain."
MODEL_SECONDS = [0.0]


class TimedModel:
    """A scripted model that adds the time spent in ``generate`` to ``MODEL_SECONDS``."""

    def __init__(self, turns: list[Any]) -> None:
        self.inner = ScriptedChatModel(turns)

    async def generate(
        self, messages: list[Message], tools: list[ToolDefinition], *, stream_callback: StreamCallback | None = None
    ) -> ModelResponse:
        started = time.perf_counter()
        try:
            return await self.inner.generate(messages, tools, stream_callback=stream_callback)
        finally:
            MODEL_SECONDS[0] += time.perf_counter() - started


class BenchModel(NodeType):
    description = NodeDescription(
        name="weft.bench.timedModel", display_name="Timed model", inputs=(), outputs=("ai_languageModel",)
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> Any:
        turns = ctx.get_node_parameter("turns", item_index, [])
        return TracedChatModel(TimedModel(turns), ctx, options={"model": "bench"})


def bench_workflow(turns: list[Any]) -> Workflow:
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "What is 12345 * 6789?"}, version=3.1),
        node("Model", "weft.bench.timedModel", {"turns": turns}),
        node("Calculator", LC + "toolCalculator"),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Calculator", "AI Agent", type_="ai_tool"),
    )
    return Workflow(parse_workflow(wf))


async def measure(turns: list[Any], repeat: int) -> tuple[float, float, float]:
    """Medians in ms: (whole execution, model, execution minus model)."""
    registry = agent_registry()
    registry.register(BenchModel)
    model = bench_workflow(turns)
    totals, models, overheads = [], [], []
    for index in range(repeat + 20):
        MODEL_SECONDS[0] = 0.0
        execution = Execution(model, registry=registry)
        started = time.perf_counter()
        run = await execution.run()
        total = time.perf_counter() - started
        assert run["status"] == "success", run["data"]["resultData"].get("error")
        if index >= 20:  # warm-up runs are not counted
            totals.append(total * 1000)
            models.append(MODEL_SECONDS[0] * 1000)
            overheads.append((total - MODEL_SECONDS[0]) * 1000)
    return statistics.median(totals), statistics.median(models), statistics.median(overheads)


async def main(repeat: int) -> None:
    print(f"$ {sys.executable} bench/bench_agent.py --repeat {repeat}")
    round_trip = await measure([{"tool": "Calculator", "args": {"input": "12345 * 6789"}}, "It is 83810205"], repeat)
    direct = await measure(["It is 83810205"], repeat)
    for label, (total, model, overhead) in (("round trip", round_trip), ("direct", direct)):
        print(f"{label:<11} whole {total:7.3f} ms   model {model:6.3f} ms   beyond the model {overhead:7.3f} ms")
    print(f"one tool round trip costs {round_trip[2] - direct[2]:.3f} ms beyond the model (target ≤ 1 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=500)
    asyncio.run(main(parser.parse_args().repeat))
