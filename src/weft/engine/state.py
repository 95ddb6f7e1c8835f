"""Creating and reading the plain-JSON execution state (``IRunExecutionData``)."""

from __future__ import annotations

from typing import Any

from weft.workflow import Item, RunExecutionData
from weft.workflow.items import empty_run_data


def initial_run_execution_data() -> RunExecutionData:
    """An empty execution: no stack yet, no run data, no pinned data."""
    data = empty_run_data()
    data["resultData"]["pinData"] = {}
    return data


def next_execution_index_of(data: RunExecutionData) -> int:
    """The next ``executionIndex``: one past the highest recorded (0 for a new execution)."""
    highest = -1
    for runs in data["resultData"]["runData"].values():
        for task in runs:
            highest = max(highest, task.get("executionIndex", -1))
    return highest + 1


def to_item(value: Any) -> Item:
    """Normalise what a node or pin data gives into an item: a bare object becomes ``{json: object}``."""
    if isinstance(value, dict) and isinstance(value.get("json"), dict):
        return value  # type: ignore[return-value]
    if isinstance(value, dict):
        return {"json": value}
    return {"json": {"data": value}}


def restore_waiting_keys(data: RunExecutionData) -> RunExecutionData:
    """JSON turns the integer keys of ``waitingExecution`` into strings; turn them back after loading."""
    stack_data = data["executionData"]
    for key in ("waitingExecution", "waitingExecutionSource"):
        table: dict[str, Any] = stack_data.get(key) or {}  # type: ignore[assignment]
        stack_data[key] = {node: {int(k): v for k, v in runs.items()} for node, runs in table.items()}  # type: ignore[literal-required]
    return data


def clear_wait(data: RunExecutionData) -> None:
    """Resuming a waiting execution: the node at the stack head passes its data through (n8n), unless it asked to
    run again (``waitReason: 'resume-node'``, chapter 23's human approval)."""
    if not data.get("waitTill"):
        return
    data["waitTill"] = None
    reason = data.pop("waitReason", None)
    stack = data["executionData"]["nodeExecutionStack"]
    if reason in ("resume-node", "suspended") or not stack:
        return
    stack[0]["node"] = {**stack[0]["node"], "disabled": True}
