"""Which items a node runs on: main input 0, the first input with data (v1), or data looping back (v0)."""

from __future__ import annotations

from weft.nodes.contract import NodeType
from weft.workflow import ExecuteData, Item, Workflow


def connection_input(workflow: Workflow, entry: ExecuteData, node_type: NodeType) -> list[Item] | None:
    """Items of the node's input, or ``None`` when it has no input data and must not run (n8n
    ``prepareConnectionInputData``). Triggers ignore their input requirements."""
    main = entry["data"].get("main") or []
    if node_type.description.is_trigger:
        return list(main[0] or []) if main else []
    if not main:
        return None
    data = main[0]
    if workflow.settings.executionOrder == "v1":
        # inputs may be missing under v1: use the first one that has data
        data = next((d for d in main if d), data)
    elif not data:
        data = _loop_back_input(workflow, entry, main)
    return data if data else None


def _loop_back_input(workflow: Workflow, entry: ExecuteData, main: list[list[Item] | None]) -> list[Item] | None:
    """The first input is empty for good: use data that came back to this node from further down (a loop)."""
    source = (entry.get("source") or {}).get("main") or []
    if source and source[0] is not None:
        return None
    name = entry["node"]["name"]
    descendants = set(workflow.children(name))
    for index, items in enumerate(main):
        src = source[index] if index < len(source) else None
        previous = src["previousNode"] if src else None
        if items and previous is not None and (previous == name or previous in descendants):
            return items
    return None
