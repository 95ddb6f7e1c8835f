"""What a resumed or retried execution starts from, read from and written into its stored run data."""

from __future__ import annotations

from typing import Any

from weft.workflow import ExecuteData, Item, RunExecutionData


def seed_resume(data: RunExecutionData, resume_items: list[Item] | None, resume_request: dict[str, Any] | None) -> None:
    """Give the waiting node what resumes it: the resume webhook's items, or (a node that runs again) the request
    under its stack entry's ``metadata.resumeRequest``."""
    stack: list[ExecuteData] = data["executionData"]["nodeExecutionStack"]
    if not stack:
        return
    head = stack[0]
    if data.get("waitReason") == "resume-node":
        if resume_request is not None:
            head["metadata"] = {**(head.get("metadata") or {}), "resumeRequest": resume_request}
        return
    if resume_items is not None:
        head["data"] = {**head["data"], "main": [resume_items]}


def first_task(data: RunExecutionData) -> tuple[str, list[Item]] | None:
    """The node that ran first and the items it was given (``inputOverride`` or its own output for triggers)."""
    first: tuple[int, str, Any] | None = None
    for name, tasks in data.get("resultData", {}).get("runData", {}).items():
        for task in tasks:
            index = task.get("executionIndex", 0)
            if first is None or index < first[0]:
                first = (index, name, task)
    if first is None:
        return None
    _, name, task = first
    output = ((task.get("data") or {}).get("main") or [[]])[0] or []
    items: list[Item] = []
    for item in output:
        fresh: Item = {"json": item.get("json", {})}
        if "binary" in item:
            fresh["binary"] = item["binary"]
        items.append(fresh)
    return name, items


__all__ = ["first_task", "seed_resume"]
