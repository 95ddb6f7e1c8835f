"""Polling triggers of active workflows (Gmail Trigger, Google Sheets Trigger, …): n8n's ``ActiveWorkflows``
polling, run by the scheduler's leader.

Each enabled node whose type has ``poll`` is polled at its ``pollTimes`` (cron rules as the Cron node's, at
least a minute apart). A poll runs the node's ``poll`` with a context outside any execution
(:mod:`weft.services.trigger_context`); its static data is stored after every poll that changed it; items start
an execution in mode ``trigger`` at the node, which passes them through. A failing poll is stored as an error
execution of the node (n8n's ``createErrorExecution``) and starts the workflow's error workflow.
:meth:`PollingTriggers.poll` is the one poll, which the timers call and tests drive directly.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from weft.engine.outcomes import error_to_json
from weft.engine.state import initial_run_execution_data
from weft.nodes.triggers import is_polling, poll_cron_expressions
from weft.services.prepared import PreparedWorkflow
from weft.services.rule_timers import RuleTimers
from weft.services.runner import WorkflowRunner
from weft.services.trigger_context import save_static_data, trigger_context
from weft.workflow import Item, NodeModel, Run

log = logging.getLogger("weft.polling")


def polling_nodes(runner: WorkflowRunner, prepared: PreparedWorkflow) -> list[str]:
    """The enabled nodes of the workflow whose type polls."""
    return [
        node.name
        for node in prepared.workflow.nodes.values()
        if not node.disabled and is_polling(runner.registry.type_class(node.type))
    ]


class PollingTriggers(RuleTimers):
    """The running pollers (:class:`RuleTimers`); :meth:`poll` is one poll."""

    rule_name = "poll time"

    def __init__(self, runner: WorkflowRunner) -> None:
        super().__init__(runner)
        self._busy: set[tuple[str | None, str]] = set()

    def nodes(self, prepared: PreparedWorkflow) -> list[str]:
        return polling_nodes(self.runner, prepared)

    def rules(self, node: NodeModel) -> list[str]:
        return poll_cron_expressions(node)

    async def run_rule(self, prepared: PreparedWorkflow, node: str, rule: str) -> None:
        async for _ in self.moments(prepared, node, rule):
            try:
                await self.poll(prepared, node)
            except Exception:  # a poll must never end its timer
                log.exception("Polling workflow %r node %r failed", prepared.id, node)

    async def poll(self, prepared: PreparedWorkflow, node: str, *, activation: str = "update") -> str | None:
        """Poll ``node`` once; the id of the execution its items started (or of the error execution), else None.

        A poll still running for the node skips this one (n8n polls a node one at a time)."""
        key = (prepared.id, node)
        if key in self._busy:
            return None
        self._busy.add(key)
        try:
            return await poll_once(self.runner, prepared, node, activation=activation)
        finally:
            self._busy.discard(key)


async def poll_once(
    runner: WorkflowRunner,
    prepared: PreparedWorkflow,
    node: str,
    *,
    activation: str = "update",
    raise_errors: bool = False,
) -> str | None:
    """One poll of ``node`` (see :class:`PollingTriggers`); ``raise_errors``: the activation's first poll, whose
    error refuses the activation instead of being stored."""
    ctx = await trigger_context(runner, prepared, node, mode="trigger", activation=activation)
    try:
        polled = await ctx.node_type.poll(ctx)  # type: ignore[attr-defined]
    except Exception as error:
        if raise_errors:
            raise
        log.error("Poll of workflow %r node %r failed: %s", prepared.id, node, error)
        return await record_poll_error(runner, prepared, node, error)
    await save_static_data(runner, ctx)
    items: list[Item] = list(polled[0]) if polled else []
    if not items:
        return None
    result = await runner.run(prepared, mode="trigger", start_node=node, trigger_items=items)
    return result.execution_id


async def record_poll_error(runner: WorkflowRunner, prepared: PreparedWorkflow, node: str, error: Exception) -> str:
    """Store the failed poll as an execution in error whose only run is the node's (n8n's
    ``createErrorExecutionData``); the workflow's error workflow runs as after any failed execution."""

    async def fail(execution: Any) -> Run:
        data = initial_run_execution_data()
        error_json = error_to_json(error, node)
        data["resultData"]["runData"] = {
            node: [{"startTime": 0, "executionIndex": 0, "executionTime": 0, "error": error_json, "source": []}]
        }
        data["resultData"]["lastNodeExecuted"] = node
        data["resultData"]["error"] = error_json
        now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        run: Run = {
            "data": data,
            "mode": "trigger",
            "startedAt": now,
            "stoppedAt": now,
            "status": "error",
            "finished": False,
        }
        await execution.hooks.run("workflowExecuteAfter", run, None)
        return run

    result = await runner.run(prepared, mode="trigger", start_node=node, begin=fail)
    return result.execution_id


__all__ = ["PollingTriggers", "poll_once", "polling_nodes", "record_poll_error"]
