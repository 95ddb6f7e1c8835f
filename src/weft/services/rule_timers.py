"""What timer-driven triggers of active workflows share (Schedule Trigger, Cron, Interval, polling triggers): one
asyncio task per node and rule, following the active workflows (:meth:`RuleTimers.sync`: the tasks of
deactivated or changed workflows are cancelled, new ones started), and the wait for a cron rule's next moment in
the workflow's timezone."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from weft.errors import WeftError
from weft.nodes.schedules.schedule import timezone_of
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import WorkflowRunner
from weft.workflow import NodeModel

log = logging.getLogger("weft.timers")

TimerKey = tuple[str, str | None, str, int]
"""``(workflow id, version, node, rule index)``."""


class RuleTimers:
    """The running timers of one kind; subclasses say which nodes, which rules, and what a rule does."""

    #: How a log line names the rules of this kind.
    rule_name = "rule"

    def __init__(self, runner: WorkflowRunner) -> None:
        self.runner = runner
        self._tasks: dict[TimerKey, asyncio.Task[None]] = {}

    def nodes(self, prepared: PreparedWorkflow) -> list[str]:
        """The workflow's nodes this kind runs."""
        raise NotImplementedError

    def rules(self, node: NodeModel) -> list[str]:
        """The node's rules (typed errors for bad parameters)."""
        raise NotImplementedError

    async def run_rule(self, prepared: PreparedWorkflow, node: str, rule: str) -> None:
        """Run one rule for as long as the workflow is active."""
        raise NotImplementedError

    def sync(self, workflows: dict[str, PreparedWorkflow]) -> None:
        """Follow the active workflows."""
        wanted: dict[TimerKey, tuple[PreparedWorkflow, str, str]] = {}
        for workflow_id, prepared in workflows.items():
            for node in self.nodes(prepared):
                try:
                    rules = self.rules(prepared.workflow.nodes[node])
                except WeftError as exc:
                    log.error("The %s of workflow %r is skipped: %s", self.rule_name, workflow_id, exc)
                    continue
                for index, rule in enumerate(rules):
                    wanted[(workflow_id, prepared.version_id, node, index)] = (prepared, node, rule)
        for key in list(self._tasks):
            if key not in wanted:
                self._tasks.pop(key).cancel()
        for key, (prepared, node, rule) in wanted.items():
            if key not in self._tasks:
                self._tasks[key] = asyncio.ensure_future(self.run_rule(prepared, node, rule))

    def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    @property
    def scheduled(self) -> list[TimerKey]:
        return sorted(self._tasks, key=str)

    async def moments(self, prepared: PreparedWorkflow, node: str, expression: str) -> AsyncIterator[datetime]:
        """Each next moment of a seconds-first cron ``expression`` in the workflow's timezone, once it comes (an
        invalid expression is logged and yields nothing)."""
        from croniter import croniter  # imported when a workflow has a timer: not in every server's memory

        tz = timezone_of(prepared.workflow.settings.timezone)
        try:
            schedule = croniter(expression, datetime.now(tz), second_at_beginning=True)
        except (ValueError, KeyError) as exc:
            log.error("Workflow %r node %r: invalid %s %r (%s)", prepared.id, node, self.rule_name, expression, exc)
            return
        while True:
            moment: datetime = schedule.get_next(datetime)
            await asyncio.sleep(max(0.0, (moment - datetime.now(UTC)).total_seconds()))
            yield moment


__all__ = ["RuleTimers", "TimerKey"]
