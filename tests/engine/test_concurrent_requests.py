"""Beyond n8n: the actions of one concurrent engine request run at once, and their run records stay in request
order. A barrier node proves the overlap without timing: each run waits until all three are running."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import pytest

from weft.engine import Execution
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.testing.probe_nodes import probe_registry
from weft.testing.workflows import connect, node, workflow
from weft.workflow import NodeOutput, Workflow, parse_workflow

TOOLS = ("Tool A", "Tool B", "Tool C")


class Barrier(NodeType):
    """Waits until three runs are inside at once (fails after ``patience`` seconds), then answers its name."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.barrier", display_name="Barrier")
    inside: ClassVar[int] = 0
    all_in: ClassVar[asyncio.Event | None] = None
    patience: ClassVar[float] = 5.0

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        cls = type(self)
        if cls.all_in is None:
            cls.all_in = asyncio.Event()
        cls.inside += 1
        if cls.inside == 3:
            cls.all_in.set()
        try:
            await asyncio.wait_for(cls.all_in.wait(), cls.patience)
        except TimeoutError:
            raise NodeOperationError(ctx.node.name, "the other runs never came") from None
        return [[{"json": {"tool": ctx.node.name}}]]


def _run(concurrent: bool, *, wait_in: str | None = None) -> Any:
    Barrier.inside, Barrier.all_in = 0, None
    Barrier.patience = 5.0 if concurrent and wait_in is None else 0.2  # short where it can only time out
    registry = probe_registry()
    registry.register(Barrier)
    actions = [{"nodeName": name, "input": {"query": name}, "id": name[-1]} for name in TOOLS]
    tools = [node(name, "weft.test.waitHere" if name == wait_in else "weft.test.barrier") for name in TOOLS]
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Agent", "weft.test.requester", {"actions": actions, "concurrent": concurrent}),
        *tools,
        connect("Start", "Agent"),
        *(connect(name, "Agent", type_="ai_tool") for name in TOOLS),
    )
    return asyncio.run(Execution(Workflow(parse_workflow(wf)), registry=registry).run())


def test_a_concurrent_request_runs_its_actions_at_once_in_request_order() -> None:
    run = _run(True)
    assert run["status"] == "success"
    run_data = run["data"]["resultData"]["runData"]
    indexes = [run_data[name][0]["executionIndex"] for name in TOOLS]
    assert indexes == sorted(indexes)  # started, and recorded, in request order
    assert [run_data[name][0]["data"]["ai_tool"][0][0]["json"] for name in TOOLS] == [{"tool": n} for n in TOOLS]
    [agent] = run_data["Agent"]
    assert [r["tool"] for r in agent["data"]["main"][0][0]["json"]["responses"]] == list(TOOLS)


def test_without_it_the_actions_run_one_after_the_other() -> None:
    run = _run(False)
    run_data = run["data"]["resultData"]["runData"]
    assert run_data["Tool A"][0]["data"]["ai_tool"][0][0]["json"] == {"error": "the other runs never came"}


def test_a_node_that_would_wait_fails_clearly_instead() -> None:
    run = _run(True, wait_in="Tool B")
    error = run["data"]["resultData"]["runData"]["Tool B"][0]["error"]
    assert error["message"] == "A tool that waits cannot run concurrently with other tools"


@pytest.mark.parametrize("concurrent", [True, False])
def test_the_stored_entries_carry_the_group_only_when_concurrent(concurrent: bool) -> None:
    from weft.engine.requests import handle_request
    from weft.nodes.contract import EngineRequest, ExecuteNodeAction

    wf = Workflow(
        parse_workflow(
            workflow(node("Start", "n8n-nodes-base.manualTrigger"), *(node(n, "weft.test.echo") for n in TOOLS))
        )
    )
    entry: Any = {
        "node": {"name": "Start"},
        "data": {"main": [[{"json": {}}]]},
        "source": {"main": [{"previousNode": "X", "previousNodeOutput": 0, "previousNodeRun": 0}]},
    }
    request = EngineRequest(
        actions=[ExecuteNodeAction(node_name=n, input={}, id=n) for n in TOOLS], concurrent=concurrent
    )
    entries = handle_request(wf, requester="Start", request=request, run_index=0, execute_data=entry, run_data={})
    groups = {(e.get("metadata") or {}).get("weftConcurrentGroup") for e in entries[:-1]}
    assert groups == ({"Start#0"} if concurrent else {None})
