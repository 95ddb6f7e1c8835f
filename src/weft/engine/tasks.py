"""Run records (``ITaskData``): opening one before a node runs, closing it, writing it into its slot."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from weft.workflow import ExecuteData, Item, RunData, RunExecutionData, TaskData

if TYPE_CHECKING:
    from weft.nodes.contract import NodeType


@dataclass(frozen=True, slots=True)
class StartedRun:
    """A stack entry whose run has begun (its record opened): what running it and recording it need."""

    entry: ExecuteData
    node_type: NodeType
    run_index: int
    inputs: list[Item]
    task: TaskData


def task_started(entry: ExecuteData, execution_index: int) -> TaskData:
    source = entry.get("source")
    return {
        "startTime": int(time.time() * 1000),
        "executionIndex": execution_index,
        "executionTime": 0,
        "source": list(source["main"]) if source else [],
        "hints": [],
    }


def task_finished(task: TaskData, entry: ExecuteData, data: RunExecutionData) -> TaskData:
    task["executionTime"] = int(time.time() * 1000) - task["startTime"]
    task["executionStatus"] = "waiting" if data.get("waitTill") else "success"
    if entry.get("metadata"):
        task["metadata"] = entry["metadata"]
    return task


def upsert_task(run_data: RunData, name: str, run_index: int, task: TaskData) -> None:
    """Write ``task`` at ``run_index``; a reserved placeholder (a tool's) keeps its ``inputOverride`` and source."""
    runs = run_data.setdefault(name, [])
    if run_index < len(runs):
        existing = runs[run_index]
        if "inputOverride" in existing and "inputOverride" not in task:
            task["inputOverride"] = existing["inputOverride"]
        if existing.get("startTime") == 0 and existing.get("source") and not task.get("source"):
            task["source"] = existing["source"]
        runs[run_index] = task
    else:
        runs.append(task)
