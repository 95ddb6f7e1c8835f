"""Error workflows: when an execution fails, the workflow its ``settings.errorWorkflow`` names runs.

n8n's ``executeErrorWorkflow``: after an execution that is not manual ends with an error (its status neither
``success`` nor ``waiting``, with ``resultData.error``), the error workflow runs in mode ``error`` from its
Error Trigger, with one item::

    {execution: {id, url, error, lastNodeExecuted, mode, retryOf, executionContext}, workflow: {id, name}}

The error workflow must exist, be active (n8n 2's rule) and let the failed workflow call it (its
``settings.callerPolicy``); otherwise the refusal is logged. A workflow
without ``errorWorkflow`` that holds an Error Trigger itself is its own error workflow; an error workflow that
fails does not start itself again.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any

from weft.engine import ExecutionHooks
from weft.nodes.error_workflows import ERROR_TRIGGER_TYPE
from weft.services.prepared import PreparedWorkflow
from weft.workflow import Run

if TYPE_CHECKING:  # the runner builds these hooks for each execution
    from weft.services.runner import WorkflowRunner

log = logging.getLogger("weft.error_workflow")
#: n8n 2.41's ``runtimeData.redaction`` when nothing is redacted (tests/nodes/n8n_error_workflow_payloads.json).
_NO_REDACTION = {"version": 2, "production": False, "manual": False}


def error_workflow_hooks(
    runner: WorkflowRunner, prepared: PreparedWorkflow, mode: str, execution_id: str
) -> ExecutionHooks:
    """Hooks for a new execution that start its error workflow when it fails (never for manual runs)."""
    hooks = ExecutionHooks()
    if mode == "manual":
        return hooks

    async def after(run: Run, _: Any) -> None:
        if run.get("status") in ("success", "waiting") or run["data"]["resultData"].get("error") is None:
            return
        runner.spawn(execute_error_workflow(runner, prepared, run, mode, execution_id))

    hooks.on("workflowExecuteAfter", after)
    return hooks


async def error_payload(
    runner: WorkflowRunner, prepared: PreparedWorkflow, run: Run, mode: str, execution_id: str
) -> dict[str, Any]:
    """n8n's ``IWorkflowErrorData`` for a failed execution."""
    stored = await runner.db(runner.store.executions.get, execution_id, include_data=False)
    workflow_id = str(prepared.workflow.id or "")
    result = run["data"]["resultData"]
    execution: dict[str, Any] = {
        "id": execution_id,
        "url": f"{runner.settings.base_url.rstrip('/')}/workflow/{workflow_id}/executions/{execution_id}",
        "error": result.get("error"),
        "lastNodeExecuted": result.get("lastNodeExecuted"),
        "mode": mode,
        "retryOf": None if stored is None else stored.retry_of,
    }
    execution["executionContext"] = execution_context(prepared, run, mode)
    if execution["retryOf"] is None:
        del execution["retryOf"]  # undefined in n8n: absent from the item
    return {"execution": execution, "workflow": {"id": workflow_id, "name": prepared.workflow.name}}


def execution_context(prepared: PreparedWorkflow, run: Run, mode: str) -> dict[str, Any]:
    """The execution's ``runtimeData`` (n8n's execution context): where n8n's engine keeps it, else as n8n 2 makes
    it, ``{version: 1, establishedAt, source: <mode>, triggerNode: {name, type}, redaction}``."""
    runtime = (run["data"].get("executionData") or {}).get("runtimeData")  # type: ignore[union-attr]
    if isinstance(runtime, dict):
        return runtime
    started = str(run.get("startedAt") or "")
    try:
        established = int(datetime.fromisoformat(started.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        established = int(time.time() * 1000)
    context: dict[str, Any] = {"version": 1, "establishedAt": established, "source": mode}
    first = _first_node(run)
    if first is not None and first in prepared.workflow.nodes:
        context["triggerNode"] = {"name": first, "type": prepared.workflow.nodes[first].type}
    context["redaction"] = dict(_NO_REDACTION)  # n8n 2.41's: console output is not redacted
    return context


def _first_node(run: Run) -> str | None:
    """The node that ran first (execution index 0): the execution's start."""
    runs = run["data"]["resultData"].get("runData") or {}
    order = [(task.get("executionIndex", 0), name) for name, tasks in runs.items() for task in tasks[:1]]
    return min(order)[1] if order else None


async def execute_error_workflow(
    runner: WorkflowRunner, prepared: PreparedWorkflow, run: Run, mode: str, execution_id: str
) -> None:
    """Start the error workflow of a failed execution, if it has one (n8n ``executeErrorWorkflow``)."""
    target = _error_workflow_of(prepared, mode)
    if target is None:
        return
    payload = await error_payload(runner, prepared, run, mode, execution_id)
    try:
        await run_error_workflow(runner, target, payload)
    except Exception:  # the failed execution is over: its error workflow's failure is only logged, as in n8n
        log.exception("Could not execute the error workflow %r of execution %s", target, execution_id)


def _error_workflow_of(prepared: PreparedWorkflow, mode: str) -> str | None:
    """The workflow to run when an execution of ``prepared`` in ``mode`` fails, if any."""
    workflow_id = str(prepared.workflow.id or "")
    target = prepared.workflow.settings.errorWorkflow
    if not workflow_id:
        return None
    if target and not (mode == "error" and target == workflow_id):
        return str(target)
    if mode != "error" and any(n.type == ERROR_TRIGGER_TYPE for n in prepared.workflow.nodes.values()):
        return workflow_id  # its own Error Trigger
    return None


def caller_allowed(prepared: PreparedWorkflow, caller_id: str) -> bool:
    """n8n's sub-workflow policy (``settings.callerPolicy``, default ``workflowsFromSameOwner``): ``none`` refuses
    every caller, ``workflowsFromAList`` those not in ``callerIds``. An instance of Weft has one owner, so
    ``workflowsFromSameOwner`` lets every workflow of the instance call."""
    settings = prepared.workflow.settings
    policy = getattr(settings, "callerPolicy", None) or "workflowsFromSameOwner"
    if policy in ("any", "workflowsFromSameOwner"):
        return True
    if policy == "workflowsFromAList":
        listed = [part.strip() for part in str(getattr(settings, "callerIds", None) or "").split(",")]
        return caller_id in listed
    return False


async def run_error_workflow(runner: WorkflowRunner, workflow_id: str, payload: dict[str, Any]) -> str | None:
    """Run workflow ``workflow_id`` in mode ``error`` from its Error Trigger with ``payload``; its execution id."""
    failed = payload["workflow"]["id"]
    stored = await runner.db(runner.store.workflows.get, workflow_id)
    if stored is None:
        log.error('Calling Error Workflow for "%s". Could not find workflow "%s"', failed, workflow_id)
        return None
    if not stored.active:
        log.error(
            'Calling Error Workflow for "%s". Workflow "%s" is not active and cannot be executed', failed, workflow_id
        )
        return None
    prepared = runner.cache.get(stored)
    if not caller_allowed(prepared, failed):
        log.warning(
            "Error workflow execution blocked due to subworkflow settings: workflow %r may not be called by %r "
            "(its settings.callerPolicy)",
            workflow_id,
            failed,
        )
        return None
    triggers = [n.name for n in prepared.workflow.nodes.values() if n.type == ERROR_TRIGGER_TYPE]
    if not triggers:
        log.error(
            'Calling Error Workflow for "%s". Could not find "%s" in workflow "%s"',
            failed,
            ERROR_TRIGGER_TYPE,
            workflow_id,
        )
        return None
    # n8n starts at the last Error Trigger it finds
    result = await runner.run(prepared, mode="error", start_node=triggers[-1], trigger_items=[{"json": payload}])
    return result.execution_id


__all__ = ["caller_allowed", "error_payload", "error_workflow_hooks", "execute_error_workflow", "run_error_workflow"]
