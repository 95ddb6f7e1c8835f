"""Reading other nodes' data for ``$('Node')``, ``$node`` and ``$items()`` (n8n's ``WorkflowDataProxy``).

Functions here are pure reads of an :class:`ExpressionContext`. Problems are raised as :class:`DataError`
carrying n8n's message and a description; the session hands them to JavaScript, which throws them where
the expression asked for the data.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from weft.errors import ExpressionError
from weft.expressions.context import ExpressionContext
from weft.workflow import MAIN, Item, TaskData


class DataError(ExpressionError):
    """An expected data problem, shown to the user as an expression error (recorded for JavaScript to throw)."""

    def __init__(self, message: str, description: str | None = None) -> None:
        super().__init__(message, description=description)

    def record(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "description": self.description}}


def run_data(ctx: ExpressionContext) -> dict[str, list[TaskData]] | None:
    if ctx.run_execution_data is None:
        return None
    return ctx.run_execution_data.get("resultData", {}).get("runData", {})


def pinned_items(ctx: ExpressionContext, name: str) -> list[Item] | None:
    """Pinned output of ``name`` (only in manual executions, as n8n's ``getPinDataIfManualExecution``)."""
    if ctx.mode != "manual":
        return None
    pinned = ctx.workflow.pin_data.get(name)
    if not pinned:
        return None
    return [p if isinstance(p.get("json"), dict) else {"json": p} for p in pinned]  # type: ignore[misc]


def connection_source_index(ctx: ExpressionContext, name: str) -> int | None:
    """Output index of ``name`` on the path into the active node (n8n's ``getNodeConnectionIndexes``)."""
    seen = {ctx.node_name}
    queue = deque([ctx.node_name])
    while queue:
        current = queue.popleft()
        for edges in ctx.workflow.inputs(current, MAIN):
            for edge in edges:
                if edge.source == name:
                    return edge.source_index
                if edge.source not in seen:
                    seen.add(edge.source)
                    queue.append(edge.source)
    return None


def is_parent(ctx: ExpressionContext, name: str) -> bool:
    """Whether ``name`` is upstream of the active node (through the node it supplies, for sub-nodes)."""
    workflow = ctx.workflow
    if name in workflow.parents(ctx.node_name, MAIN):
        return True
    for root in workflow.children(ctx.node_name, None, depth=1):
        if root not in workflow.children(ctx.node_name, MAIN, depth=1) and name in workflow.parents(root, MAIN):
            return True
    return False


def node_info(ctx: ExpressionContext, name: str) -> dict[str, Any]:
    """What JavaScript needs to know about ``name`` before reading its data."""
    node = ctx.workflow.node(name)
    runs = (run_data(ctx) or {}).get(name)
    pinned = pinned_items(ctx, name) is not None
    return {
        "exists": node is not None,
        "hasRunData": runs is not None,
        "pinned": pinned,
        "executed": runs is not None or pinned,
        "runCount": len(runs) if runs is not None else 0,
        "sourceIndex": connection_source_index(ctx, name) if node is not None else None,
        "isParent": is_parent(ctx, name) if node is not None else False,
        "params": node.parameters if node is not None else {},
        "context": _node_context(ctx, name),
    }


def _node_context(ctx: ExpressionContext, name: str) -> dict[str, Any]:
    """``$node[name].context``: the node's stored context (``contextData['node:<name>']``), e.g. Split in Batches'."""
    data = ctx.run_execution_data
    if data is None:
        return {}
    contexts = (data.get("executionData") or {}).get("contextData") or {}
    context: dict[str, Any] = contexts.get(f"node:{name}", {})
    return context


def node_output(ctx: ExpressionContext, name: str, branch: int | str | None, run: int) -> list[Item]:
    """Items of ``name``'s output ``branch`` in run ``run`` (-1: last), falling back to pinned data."""
    pinned = pinned_items(ctx, name)
    if branch == "pin":
        return pinned or []
    try:
        return _execution_output(ctx, name, None if branch is None else int(branch), run)
    except DataError:
        if pinned is not None:
            return pinned
        raise


def _execution_output(ctx: ExpressionContext, name: str, branch: int | None, run: int) -> list[Item]:
    all_runs = run_data(ctx)
    if all_runs is None:
        raise DataError("The workflow hasn't been executed yet, so you can't reference any output data")
    if ctx.workflow.node(name) is None:
        raise DataError("Referenced node doesn't exist", f"No node called {name!r} in this workflow")
    runs = all_runs.get(name)
    if runs is None:
        raise DataError(f"Node '{name}' hasn't been executed", unexecuted_description(name))
    run = len(runs) - 1 if run == -1 else run
    if run >= len(runs) or run < 0:
        raise DataError(f'Run {run} of node "{name}" not found')
    main = (runs[run].get("data") or {}).get(MAIN) or []
    if not main or main[0] is None:
        raise DataError("No data found from `main` input")
    if branch is None:
        branch = connection_source_index(ctx, name)
        if branch is None:
            raise DataError(f'connect "{ctx.node_name}" to "{name}"')
    if branch >= len(main):
        raise DataError(f'Node "{name}" has no branch with index {branch}.')
    return list(main[branch] or [])


def unexecuted_description(name: str) -> str:
    return (
        "An expression references this node, but the node is unexecuted. Consider re-wiring your nodes or "
        f'checking for execution first, i.e. {{{{ $if( $("{name}").isExecuted, <action_if_executed>, "") }}}}'
    )
