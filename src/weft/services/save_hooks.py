"""Saving an execution as it runs: its outcome when it ends, its progress after each node.

Invariants:

* The outcome is saved by the ``workflowExecuteAfter`` hook, honouring ``saveDataSuccessExecution``,
  ``saveDataErrorExecution`` and ``saveManualExecutions``; a waiting execution is always saved whole.
* Large run data is encoded in a worker thread, the event loop going on; a small one inline.
* The files of an execution that is not saved outlive it by :data:`UNSAVED_FILES_GRACE_S` (a webhook's answer may be
  streaming one).
* In a queue worker every write checks the worker's claim on the execution.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from weft.db.large_json import dumps_off_loop
from weft.db.save_policy import keep_run
from weft.engine import ExecutionHooks
from weft.workflow import Run, RunExecutionData

if TYPE_CHECKING:  # the runner adds these hooks to each execution
    from weft.services.runner import WorkflowRunner

#: Seconds the files of an execution that is not saved outlive it (a webhook's answer may be streaming one).
UNSAVED_FILES_GRACE_S = 30.0


def add_save_hooks(
    runner: WorkflowRunner,
    hooks: ExecutionHooks,
    settings: Mapping[str, Any],
    execution_id: str,
    outcome: dict[str, bool],
) -> None:
    """Save the execution when it ends (``outcome["saved"]``: whether its row kept it) and, when its workflow's
    ``settings`` ask for it, its progress after each node."""

    async def save(run: Run, _: Any) -> None:
        # large run data is encoded in a worker thread first, the event loop going on (None: small, inline)
        keep = keep_run(run, settings, runner.save_defaults)
        data_text = await dumps_off_loop(run["data"]) if keep else None
        outcome["saved"] = await (runner.db_write if data_text is None else runner.db_write_large)(
            runner.executions.finish,
            execution_id,
            run,
            workflow_settings=settings,
            defaults=runner.save_defaults,
            data_text=data_text,
            **runner.claim_of(execution_id),
        )
        if not outcome["saved"]:  # its files go a little later: the webhook's answer may still stream one
            later = lambda: runner.spawn(runner.delete_binary([execution_id]))  # noqa: E731
            asyncio.get_running_loop().call_later(UNSAVED_FILES_GRACE_S, later)

    hooks.on("workflowExecuteAfter", save)
    if saves_progress(settings, runner.settings.save_execution_progress):

        async def progress(_name: str, _task: Any, data: RunExecutionData) -> None:
            await runner.db_write(
                runner.store.executions.save_progress, execution_id, data, **runner.claim_of(execution_id)
            )

        hooks.on("nodeExecuteAfter", progress)


def saves_progress(settings: Mapping[str, Any], default: bool) -> bool:
    """A workflow's ``saveExecutionProgress`` (``DEFAULT``: the instance's setting)."""
    value = settings.get("saveExecutionProgress", "DEFAULT")
    return default if value in ("DEFAULT", None) else bool(value)


__all__ = ["UNSAVED_FILES_GRACE_S", "add_save_hooks", "saves_progress"]
