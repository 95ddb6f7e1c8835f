"""Sub-workflows that wait, as n8n 2.41.1 does it (recorded live: ``tests/subworkflows/n8n_2.41_sub_wait.json``, and
2.8.4's ``n8n_sub_wait.json``).

1. A child execution knows its parent: ``parentExecution: {executionId, workflowId, shouldResume}`` in its data
   and in its start node's stack entry (:func:`link_to_parent`). ``shouldResume`` is the Execute Workflow node's
   "wait for sub-workflow completion"; a Workflow Tool leaves it out (as 2.8.4).
2. When the child stops in a wait, the node that called it puts its own execution to wait for it (until
   ``2999-12-31``, n8n's ``WAIT_FOR_SUB_EXECUTION``; 2.8.4 used ``3000-01-01``) and outputs the child's output so far
   (:func:`wait_for_child`); both are stored ``waiting``. The caller's run and stack entry carry
   ``metadata.subExecution`` and ``metadata.waitingChildExecutionIds`` naming the child.
3. When the child is resumed and finishes, :func:`resume_parent` writes the child's last output into the parent's
   stack head and resumes the parent: the caller passes that output through (n8n's ``updateParentExecutionWith
   ChildResults`` + ``WaitTracker.startExecution``). A child that fails leaves its error as the head's
   ``metadata.resumeError``: the caller runs again and fails with it, or outputs it as an error item when it
   continues on fail (2.41.1; 2.8.4 resumed the parent with the stale output).

Everything lives in the database, so a restart between the wait and the resume changes nothing; a parent whose
child finished while the process stopped is resumed at the next start (:func:`resume_orphaned_parents`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from weft.nodes.contract import ExecuteContext
from weft.nodes.subworkflows import waiting_children, with_resume_error, with_waiting_child
from weft.services.errors import ExecutionConflictError, ExecutionNotFoundError
from weft.services.run_result import RunResult
from weft.services.waiting import claim_waiting
from weft.workflow import NodeOutput, Run, RunExecutionData, Workflow

if TYPE_CHECKING:
    from weft.services.runner import WorkflowRunner

#: n8n's ``WAIT_FOR_SUB_EXECUTION``: how long a parent waits for its child (the child resumes it before).
WAIT_FOR_SUB_EXECUTION = datetime(2999, 12, 31, tzinfo=UTC)
#: The statuses of a child that will not change any more.
FINISHED = frozenset({"success", "error", "canceled", "crashed"})


def parent_link(execution_id: str | None, workflow: Workflow, should_resume: bool | None) -> dict[str, Any] | None:
    """The child's ``parentExecution`` (``None`` when the parent is not stored: nothing could resume it)."""
    if execution_id is None:
        return None
    link: dict[str, Any] = {"executionId": execution_id, "workflowId": workflow.id}
    if should_resume is not None:
        link["shouldResume"] = should_resume
    return link


def link_to_parent(parent: Mapping[str, Any]) -> Callable[[Any, RunExecutionData], None]:
    """A ``workflowExecuteBefore`` hook writing ``parentExecution`` into the child's data and start entry."""

    def link(_workflow: Any, data: RunExecutionData) -> None:
        cast(dict[str, Any], data)["parentExecution"] = dict(parent)
        stack = data["executionData"]["nodeExecutionStack"]
        if stack:
            stack[0]["metadata"] = {**(stack[0].get("metadata") or {}), "parentExecution": dict(parent)}

    return link


def note_sub_execution(ctx: ExecuteContext, execution_id: str, workflow_id: str | None) -> None:
    """n8n's ``setMetadata({subExecution, subExecutionsCount: 1})``: kept on the caller's stack entry, so its run
    (and, while it waits, the stored stack) names the child."""
    entry = getattr(ctx, "execute_data", None)
    if not isinstance(entry, dict):
        return
    link = {"executionId": execution_id, "workflowId": workflow_id or ctx.workflow.id}
    entry["metadata"] = {**(entry.get("metadata") or {}), "subExecution": link, "subExecutionsCount": 1}


def wait_for_child(ctx: ExecuteContext, child_id: str, run: Run) -> NodeOutput:
    """The caller waits for its child (which resumes it); the child's output so far."""
    entry = getattr(ctx, "execute_data", None)
    if isinstance(entry, dict):
        entry["metadata"] = with_waiting_child(entry.get("metadata"), child_id)
    ctx.put_execution_to_wait(WAIT_FOR_SUB_EXECUTION)
    return last_output(run) or [[]]


def last_output(run: Run) -> NodeOutput | None:
    """The last run of the child's last node: its outputs (n8n's ``getDataLastExecutedNodeData``)."""
    result = run["data"]["resultData"]
    last = result.get("lastNodeExecuted")
    tasks = result["runData"].get(last or "") or []
    if not tasks:
        return None
    main = (tasks[-1].get("data") or {}).get("main")
    return [list(items or []) for items in main] if main else None


async def resume_parent(runner: WorkflowRunner, child: RunResult) -> None:
    """After a resumed child finished: resume the parent waiting for it, with the child's output or error."""
    link = cast(dict[str, Any], child.run["data"]).get("parentExecution")
    if not isinstance(link, dict) or link.get("shouldResume") is False or child.run["status"] == "waiting":
        return
    await _resume_waiting_parent(runner, str(link.get("executionId") or ""), child)


async def resume_orphaned_parents(runner: WorkflowRunner, *, limit: int = 1000) -> list[str]:
    """Resume the parents still waiting for a child that has finished: the process stopped between the child's end
    and its parent's resume (n8n 2.41.1's "parked parents"). Run at start-up; the claim keeps it to one resume."""
    resumed: list[str] = []
    waiting = await runner.db(runner.store.executions.list, statuses=["waiting"], limit=limit)
    for row in waiting:
        if row.wait_till is None or row.wait_till < WAIT_FOR_SUB_EXECUTION:  # not a parent waiting for a child
            continue
        parent = await runner.db(runner.store.executions.get, row.id)
        for child_id in _awaited_children(parent.data if parent else None):
            child = await runner.db(runner.store.executions.get, child_id)
            if child is not None and child.status in FINISHED:
                run = cast(Run, {"status": child.status, "data": child.data or {}})
                await _resume_waiting_parent(runner, row.id, RunResult(execution_id=child.id, run=run, saved=True))
                resumed.append(row.id)
                break
    return resumed


async def _resume_waiting_parent(runner: WorkflowRunner, parent_id: str, child: RunResult) -> None:
    stored = await runner.db(runner.store.executions.get, parent_id)
    if stored is None or stored.status != "waiting" or not _waits_for(stored.data, child.execution_id):
        return
    try:
        claimed = await claim_waiting(runner, parent_id, check_signature=False)
    except (ExecutionConflictError, ExecutionNotFoundError):  # resumed meanwhile by someone else
        return
    if child.run["status"] == "success":
        output = last_output(child.run) or [[]]
        await runner.resume_claimed(claimed, resume_items=[dict(i) for i in output[0]])  # type: ignore[misc]
        return
    error = child.run["data"]["resultData"].get("error") or {"message": f"The sub-workflow ended {child.run['status']}"}
    if claimed.data is not None:  # the caller runs again and fails with the child's error (n8n's resumeError)
        plain = cast(dict[str, Any], claimed.data)
        plain["waitReason"] = "resume-node"
        head = plain["executionData"]["nodeExecutionStack"][0]
        head["metadata"] = with_resume_error(head.get("metadata"), error)
    await runner.resume_claimed(claimed)


def _waits_for(data: RunExecutionData | None, child_id: str) -> bool:
    """Whether the parent's stack head is the node that waits for ``child_id`` (nothing else may resume it)."""
    return str(child_id) in _awaited_children(data)


def waits_for_sub_execution(data: RunExecutionData | None) -> bool:
    """Whether a waiting execution waits for a child (then only the child resumes it, never its resume URL)."""
    return bool(_awaited_children(data))


def _awaited_children(data: RunExecutionData | None) -> list[str]:
    """The ids in the stack head's ``waitingChildExecutionIds``."""
    plain = cast(dict[str, Any], data or {})
    stack = (plain.get("executionData") or {}).get("nodeExecutionStack") or []
    return waiting_children(stack[0].get("metadata")) if stack else []


__all__ = [
    "FINISHED",
    "WAIT_FOR_SUB_EXECUTION",
    "last_output",
    "link_to_parent",
    "note_sub_execution",
    "parent_link",
    "resume_orphaned_parents",
    "resume_parent",
    "wait_for_child",
    "waits_for_sub_execution",
]
