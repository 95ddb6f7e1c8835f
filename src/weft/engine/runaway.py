"""Guards against an execution that never ends: yielding between node runs, and the cap on node runs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from weft.errors import WorkflowOperationError


async def yield_between_nodes(stopping: Callable[[], bool]) -> None:
    """Let the event loop run other work between two node runs: a node that never awaits (Set, If …) must not
    starve timeouts, stops and the server's other requests. A stop that lands here (``stopping()`` is then true)
    is left to the caller's loop, which ends; any other cancellation goes on up."""
    try:
        await asyncio.sleep(0)
    except asyncio.CancelledError:
        if not stopping():
            raise


def check_node_run_cap(cap: int | None, runs: int, more_to_run: bool) -> None:
    """:class:`WorkflowOperationError` once ``runs`` reach ``cap`` with nodes still to run (``WEFT_MAX_NODE_RUNS``)."""
    if cap is not None and runs >= cap and more_to_run:
        raise WorkflowOperationError(
            f"The execution was stopped after {cap} node runs",
            description="A loop in the workflow probably never ends (check the condition that should end it). "
            "Raise the cap with WEFT_MAX_NODE_RUNS if the workflow really needs more runs.",
        )


__all__ = ["check_node_run_cap", "yield_between_nodes"]
