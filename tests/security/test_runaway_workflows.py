"""A workflow that never ends cannot freeze the server: the engine yields between node runs, so timeouts and
stops work, and a cap on node runs ends a loop with a clear error and bounded run data."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from weft.engine import EngineOptions, Execution
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Workflow, parse_workflow


def _cycle(**settings: Any) -> Workflow:
    """Start → A → B → A …: nothing ever ends it."""
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("A", "n8n-nodes-base.noOp"),
        node("B", "n8n-nodes-base.noOp"),
        connect("Start", "A"),
        connect("A", "B"),
        connect("B", "A"),
        **settings,
    )
    return Workflow(parse_workflow(data))


def _in_thread(work: Any, timeout: float = 60) -> Any:
    """Run ``work()`` (a coroutine function) on its own event loop; fail if it has not ended within ``timeout``
    (on an engine that never yields, it would run forever)."""
    result: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", asyncio.run(work())), daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the execution did not stop"
    return result["value"]


def test_a_cycle_ends_at_the_node_run_cap_with_its_run_data() -> None:
    async def work() -> Any:
        return await Execution(_cycle(), options=EngineOptions(max_node_runs=300)).run()

    run = _in_thread(work)
    assert run["status"] == "error"
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "The execution was stopped after 300 node runs"
    assert "WEFT_MAX_NODE_RUNS" in error["description"]
    run_data = run["data"]["resultData"]["runData"]
    assert sum(len(tasks) for tasks in run_data.values()) == 300


def test_the_execution_timeout_stops_a_cycle() -> None:
    async def work() -> Any:
        return await Execution(_cycle(executionTimeout=0.3), options=EngineOptions(max_node_runs=None)).run()

    run = _in_thread(work)
    assert run["status"] == "canceled"
    assert "timed out after 0.3 seconds" in run["data"]["resultData"]["error"]["message"]


def test_other_work_runs_while_a_cycle_runs_and_a_stop_ends_it() -> None:
    async def work() -> tuple[Any, int]:
        execution = Execution(_cycle(), options=EngineOptions(max_node_runs=None))
        running = asyncio.ensure_future(execution.run())
        ticks = 0
        for _ in range(5):  # another request of the same server, on the same event loop
            await asyncio.sleep(0.01)
            ticks += 1
        execution.cancel()
        return await running, ticks

    run, ticks = _in_thread(work)
    assert ticks == 5
    assert run["status"] == "canceled"
