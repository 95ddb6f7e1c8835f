"""One MCP session per node per execution: reused by every call, closed when the execution ends, and replaced
when its server goes away; the execution-scoped resource holder under it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from weft.engine.hooks import ExecutionHooks
from weft.nodes.resources import ExecutionResources
from weft.testing.mcp_server import McpTestServer

from .conftest import agent_workflow, answer, mcp_tool, run, runs_of


def calls(*cities: str) -> list[Any]:
    return [{"tool": "MCP_Client_get_weather", "args": {"city": c}} for c in cities] + ["{{last_tool_result}}"]


async def test_several_calls_in_one_execution_share_one_session(server: McpTestServer) -> None:
    result = await run(agent_workflow(mcp_tool(server.url), calls("Oslo", "Rome", "Lima")))
    assert [c[1]["city"] for c in server.calls] == ["Oslo", "Rome", "Lima"]
    assert len(runs_of(result, "MCP Client")) == 3
    assert server.sessions == 1  # listing the tools and the three calls
    assert server.closed == 1  # the engine closed it when the execution ended


async def test_each_execution_has_its_own_session(server: McpTestServer) -> None:
    for _ in range(2):
        await run(agent_workflow(mcp_tool(server.url), calls("Oslo")))
    assert (server.sessions, server.closed) == (2, 2)


async def test_a_server_that_goes_away_fails_the_call_and_the_next_one_reconnects() -> None:
    server = McpTestServer(extras=True).start()
    port = server.port
    replacement: list[McpTestServer] = []
    hooks = ExecutionHooks()

    async def after(name: str, *_: Any) -> None:
        if name != "MCP Client":
            return
        if not replacement and server._thread is not None:  # after the first call: the server goes away
            await asyncio.to_thread(server.stop)
        elif server._thread is None and not replacement:  # after the failed call: it comes back
            replacement.append(await asyncio.to_thread(McpTestServer(port=port).start))

    hooks.on("nodeExecuteAfter", after)
    try:
        result = await run(agent_workflow(mcp_tool(server.url), calls("Oslo", "Rome", "Lima")), hooks=hooks)
    finally:
        server.stop()
        for one in replacement:
            one.stop()
    tool_runs = runs_of(result, "MCP Client")
    assert [r["executionStatus"] for r in tool_runs] == ["success", "error", "success"], [
        r.get("error") for r in tool_runs
    ]
    assert tool_runs[1]["error"]["message"] == "MCP error -32000: Connection closed"
    assert replacement[0].calls == [("get_weather", {"city": "Lima"})]
    assert replacement[0].sessions == 1
    assert result["status"] == "success" and "Lima" in answer(result)


# --------------------------------------------------------------------------- the resource holder


class Opened:
    def __init__(self) -> None:
        self.entered = 0
        self.exited = 0

    @asynccontextmanager
    async def resource(self) -> AsyncIterator[str]:
        self.entered += 1
        try:
            yield f"resource {self.entered}"
        finally:
            self.exited += 1


async def test_a_resource_is_opened_once_and_closed_at_the_end() -> None:
    resources, opened = ExecutionResources(), Opened()
    first = await resources.open("k", opened.resource)
    again = await resources.open("k", opened.resource)
    assert first == again == "resource 1" and opened.entered == 1 and "k" in resources
    await resources.aclose()
    assert opened.exited == 1 and "k" not in resources


async def test_a_discarded_resource_is_opened_again() -> None:
    resources, opened = ExecutionResources(), Opened()
    await resources.open("k", opened.resource)
    await resources.discard("k")
    assert opened.exited == 1
    assert await resources.open("k", opened.resource) == "resource 2"
    await resources.aclose()
    assert opened.exited == 2


async def test_a_failed_opening_is_not_kept() -> None:
    resources = ExecutionResources()

    @asynccontextmanager
    async def broken() -> AsyncIterator[str]:
        raise ConnectionError("refused")
        yield "never"

    with pytest.raises(ConnectionError, match="refused"):
        await resources.open("k", broken)
    assert "k" not in resources
    opened = Opened()
    assert await resources.open("k", opened.resource) == "resource 1"
    await resources.aclose()


async def test_concurrent_openers_share_one_opening() -> None:
    resources, opened = ExecutionResources(), Opened()
    values = await asyncio.gather(*(resources.open("k", opened.resource) for _ in range(5)))
    assert set(values) == {"resource 1"} and opened.entered == 1
    await resources.aclose()


async def test_cancelling_during_a_hanging_call_ends_the_execution_and_closes_its_session(
    server: McpTestServer,
) -> None:
    from weft.ai.agent_catalog import agent_registry
    from weft.engine import Execution
    from weft.workflow import Workflow, parse_workflow

    turns = [{"tool": "MCP_Client_wait", "args": {"seconds": 60}}, "done"]
    wf = Workflow(parse_workflow(agent_workflow(mcp_tool(server.url), turns)))
    execution = Execution(wf, registry=agent_registry())
    task = asyncio.ensure_future(execution.run())
    async with asyncio.timeout(30):  # the waits are bounded
        while not server.calls:  # noqa: ASYNC110 - the call reached the server, which hangs
            await asyncio.sleep(0.01)
        execution.cancel()
        result = await task
    assert result["status"] == "canceled"
    assert len(execution.resources) == 0  # the session was closed when the execution ended
    assert server.sessions == 1
