"""Beyond n8n: the requested nodes of one concurrent engine request (``EngineRequest.concurrent``) run at once.

They are started in request order (their execution indexes), run together, then recorded in request order, so
the run data does not depend on which ended first. The loop hands in its own start, run and finish steps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from weft.engine.entry_metadata import EntryMetadata
from weft.errors import CancelSignal, ExecutionCancelledError
from weft.workflow import ExecuteData

S = TypeVar("S")
Result = tuple[Any, BaseException | None]


def pop_group(stack: list[ExecuteData]) -> list[ExecuteData]:
    """The next entry, with the entries after it that run at once with it (one concurrent request)."""
    entry = stack.pop(0)
    group_id = EntryMetadata.of(entry).concurrent_group
    group = [entry]
    while group_id is not None and stack and EntryMetadata.of(stack[0]).concurrent_group == group_id:
        group.append(stack.pop(0))
    return group


async def run_together(
    entries: list[ExecuteData],
    start: Callable[[ExecuteData], Awaitable[S | None]],
    run: Callable[[S], Awaitable[Result]],
    finish: Callable[[S, Any, BaseException | None], Awaitable[bool]],
    cancel_reason: Callable[[], ExecutionCancelledError | None],
) -> bool:
    """Start each entry in order (``None``: nothing to run), run them at once, finish each in order; whether any
    finish stopped the execution. A cancellation ends every run with the execution's reason."""
    started = [s for s in [await start(entry) for entry in entries] if s is not None]
    tasks = [asyncio.ensure_future(run(s)) for s in started]
    try:
        results = list(await asyncio.gather(*tasks))
    except asyncio.CancelledError:
        reason = cancel_reason()
        if reason is None:
            raise
        results = [t.result() if t.done() and not t.cancelled() else (None, CancelSignal(reason)) for t in tasks]
    stopped = False
    for one, (output, error) in zip(started, results, strict=True):
        stopped = await finish(one, output, error) or stopped
    return stopped


__all__ = ["pop_group", "run_together"]
