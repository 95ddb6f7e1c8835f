"""Long expressions leave the event loop (``weft.expressions.offload``): a node run is driven so that a
synchronous evaluation deep inside it can wait for a worker thread while the loop goes on."""

from __future__ import annotations

import asyncio
import contextvars
import threading

import pytest
from expr_fixtures import make_context

from weft.errors import ExpressionError
from weft.expressions import ExpressionLimits, evaluate
from weft.expressions.offload import can_offload, drive, run_off_loop

REQUEST = contextvars.ContextVar("REQUEST", default="none")
#: Busy for 0.3 s, far past the event loop's budget, then 1.
BUSY = "={{ (() => { const t = Date.now(); while (Date.now() - t < 300) {} return 1 })() }}"


async def _ticks_while(coro: object) -> tuple[object, int]:
    """The coroutine's result and how often another task ran on the loop meanwhile."""
    ticks = 0
    done = asyncio.Event()

    async def tick() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0.005)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0)
    ticks = 0
    try:
        result = await coro  # type: ignore[misc]
    finally:
        done.set()
        await ticker
    return result, ticks


async def test_a_long_expression_runs_in_a_worker_while_the_loop_goes_on() -> None:
    ctx = make_context()

    async def node_run() -> object:
        return evaluate(BUSY, ctx)

    value, ticks = await _ticks_while(drive(node_run()))
    assert value == 1
    assert ticks > 0  # the loop ran other tasks during the evaluation


async def test_without_drive_a_long_expression_holds_the_loop() -> None:
    ctx = make_context()

    async def node_run() -> object:
        return evaluate(BUSY, ctx)

    value, ticks = await _ticks_while(node_run())
    assert value == 1
    assert ticks == 0


async def test_an_endless_expression_times_out_in_the_worker_with_its_own_limit() -> None:
    ctx = make_context(limits=ExpressionLimits(time_s=0.3))

    async def node_run() -> object:
        return evaluate("={{ (() => { while (true) {} })() }}", ctx)

    with pytest.raises(ExpressionError, match="Expression timed out"):
        await drive(node_run())
    # the thread's runtime was dropped, the event loop's is intact
    assert evaluate("={{ [1, 2].map(x => x * 2).join() }}", ctx) == "2,4"


async def test_drive_awaits_like_await_values_errors_and_context_variables() -> None:
    REQUEST.set("r-1")

    async def node_run() -> str:
        await asyncio.sleep(0.001)
        assert can_offload()
        worker = run_off_loop(lambda: (threading.current_thread().name, REQUEST.get()))
        return f"{REQUEST.get()} {worker[1]} {worker[0].startswith('weft-code')}"

    assert await drive(node_run()) == "r-1 r-1 True"
    assert not can_offload()

    async def failing() -> None:
        await asyncio.sleep(0)
        run_off_loop(lambda: 1 / 0)

    with pytest.raises(ZeroDivisionError):
        await drive(failing())


async def test_a_cancelled_node_run_is_cancelled_where_it_waits_for_the_worker() -> None:
    release = threading.Event()
    seen: list[str] = []

    async def node_run() -> None:
        try:
            run_off_loop(lambda: release.wait(5))
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    task = asyncio.create_task(drive(node_run()))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    release.set()
    assert seen == ["cancelled"]


async def test_drives_nest() -> None:
    async def inner() -> int:
        await asyncio.sleep(0)
        return run_off_loop(lambda: 2)

    async def outer() -> int:
        return await drive(inner()) + run_off_loop(lambda: 1)

    assert await drive(outer()) == 3


async def test_drivers_are_reused_and_each_run_sees_its_own_context() -> None:
    async def read() -> str:
        await asyncio.sleep(0)
        return REQUEST.get()

    async def boom() -> None:
        raise ValueError("first run fails")

    with pytest.raises(ValueError, match="first run fails"):
        await drive(boom())
    seen = []
    for name in ("a", "b"):
        context = contextvars.copy_context()
        context.run(REQUEST.set, name)
        seen.append(await asyncio.get_running_loop().create_task(drive(read()), context=context))
    assert seen == ["a", "b"]
