"""Guards against an execution that never ends or never fits: yielding between node runs, the cap on node runs,
and the cap on the items one node run may output."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from weft.errors import NodeOperationError, WorkflowOperationError
from weft.workflow import NodeOutput


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


class ItemCapError(NodeOperationError):
    """A node run output more items than ``WEFT_EXECUTION_ITEMS_MAX`` allows."""

    def __init__(self, node_name: str, count: int, cap: int) -> None:
        super().__init__(
            node_name,
            f"Node '{node_name}' output {count:,} items, more than the {cap:,} one node may output "
            "(WEFT_EXECUTION_ITEMS_MAX)",
            description="Process the data in smaller parts (send smaller requests, or split the list with Loop Over "
            "Items), or raise WEFT_EXECUTION_ITEMS_MAX (0 for no cap) if the server has the memory: each item "
            "takes a few kilobytes while the execution runs.",
            items=count,
            cap=cap,
        )
        self.count = count
        self.cap = cap


def check_item_cap(cap: int | None, node_name: str, output: NodeOutput) -> None:
    """:class:`ItemCapError` when ``output`` holds more than ``cap`` items (``WEFT_EXECUTION_ITEMS_MAX``)."""
    if cap is None:
        return
    count = sum(len(items) for items in output if items is not None)
    if count > cap:
        raise ItemCapError(node_name, count, cap)


__all__ = ["ItemCapError", "check_item_cap", "check_node_run_cap", "yield_between_nodes"]
