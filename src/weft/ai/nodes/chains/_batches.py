"""Items in batches, as n8n's chain nodes run them.

With batching (the node's version has the option and the batch size is above 1; the Information Extractor also
takes 1) the items of a batch run at once and the node reads their results in item order once all have settled,
then waits ``delayBetweenBatches`` ms before the next batch. Without, each item runs and is read before the next
starts. Either way the reader may raise to stop: no later batch starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from weft.nodes.contract import ExecuteContext

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Batching:
    """How a node's items run: ``size`` at a time, ``delay_ms`` between batches."""

    size: int = 1
    delay_ms: float = 0

    @classmethod
    def of(cls, ctx: ExecuteContext, path: str, *, enabled: bool, minimum: int = 2) -> Batching:
        """The node's ``<path>.batchSize`` / ``<path>.delayBetweenBatches`` (n8n's default size is 5) when
        ``enabled`` and the size is at least ``minimum``; else one item after the other."""
        if not enabled:
            return cls()
        size = _number(ctx.get_node_parameter(f"{path}.batchSize", 0, 5), 5)
        delay = _number(ctx.get_node_parameter(f"{path}.delayBetweenBatches", 0, 0), 0)
        if size < minimum:
            return cls()
        return cls(size=int(size), delay_ms=delay)


def _number(value: Any, default: float) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


async def run_in_batches(
    count: int,
    batching: Batching,
    work: Callable[[int], Awaitable[T]],
    read: Callable[[int, T | Exception], None],
) -> None:
    """Run ``work(index)`` for every item, batch by batch, and ``read(index, result or the exception it raised)``
    in item order once the batch has settled. ``read`` may raise to stop."""
    size = max(1, batching.size)
    for start in range(0, count, size):
        indices = range(start, min(start + size, count))
        results = await asyncio.gather(*(work(i) for i in indices), return_exceptions=True)
        for index, result in zip(indices, results, strict=True):
            if isinstance(result, BaseException) and not isinstance(result, Exception):
                raise result  # cancellation and engine signals are never swallowed
            read(index, result)
        if batching.delay_ms > 0 and start + size < count:
            await asyncio.sleep(batching.delay_ms / 1000)


__all__ = ["Batching", "run_in_batches"]
