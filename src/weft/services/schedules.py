"""Timer triggers of active workflows (Schedule Trigger, Cron, Interval): one asyncio task per node and rule.

The rules are seconds-first cron expressions (n8n's), or an Interval node's period (``"@every <seconds>"``).
:meth:`ScheduleTriggers.sync` follows the active workflows: tasks of deactivated or changed workflows are
cancelled, new ones started.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from weft.errors import WeftError
from weft.nodes.schedules.schedule import timezone_of
from weft.nodes.schedules.timers import EVERY, timer_item, timer_rules
from weft.services.activation import schedule_nodes
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import WorkflowRunner
from weft.workflow import Item

log = logging.getLogger("weft.schedules")


class ScheduleTriggers:
    """The running schedules, keyed by ``(workflow id, version, node, rule index)``."""

    def __init__(self, runner: WorkflowRunner) -> None:
        self.runner = runner
        self._tasks: dict[tuple[str, str | None, str, int], asyncio.Task[None]] = {}

    def sync(self, workflows: dict[str, PreparedWorkflow]) -> None:
        wanted: dict[tuple[str, str | None, str, int], tuple[PreparedWorkflow, str, str]] = {}
        for workflow_id, prepared in workflows.items():
            for node in schedule_nodes(prepared):
                try:
                    rules = timer_rules(prepared.workflow.nodes[node])
                except WeftError as exc:
                    log.error("Schedule of workflow %r is skipped: %s", workflow_id, exc)
                    continue
                for index, expression in enumerate(rules):
                    wanted[(workflow_id, prepared.version_id, node, index)] = (prepared, node, expression)
        for key in list(self._tasks):
            if key not in wanted:
                self._tasks.pop(key).cancel()
        for key, (prepared, node, expression) in wanted.items():
            if key not in self._tasks:
                self._tasks[key] = asyncio.ensure_future(self._fire_forever(prepared, node, expression))

    def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    async def _fire_forever(self, prepared: PreparedWorkflow, node: str, expression: str) -> None:
        from croniter import croniter  # imported when a workflow has a schedule: not in every server's memory

        tz = timezone_of(prepared.workflow.settings.timezone)
        if expression.startswith(EVERY):  # an Interval node: n8n's setInterval, first one period after activation
            await self._fire_every(prepared, node, float(expression.split()[1]))
            return
        try:
            schedule = croniter(expression, datetime.now(tz), second_at_beginning=True)
        except (ValueError, KeyError) as exc:
            log.error("Workflow %r node %r: invalid cron expression %r (%s)", prepared.id, node, expression, exc)
            return
        while True:
            moment: datetime = schedule.get_next(datetime)
            await asyncio.sleep(max(0.0, (moment - datetime.now(UTC)).total_seconds()))
            item: Item = {"json": timer_item(prepared.workflow.nodes[node], moment, tz)}
            self.runner.spawn(self.runner.run(prepared, mode="trigger", start_node=node, trigger_items=[item]))

    async def _fire_every(self, prepared: PreparedWorkflow, node: str, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            item: Item = {"json": {}}
            self.runner.spawn(self.runner.run(prepared, mode="trigger", start_node=node, trigger_items=[item]))


__all__ = ["ScheduleTriggers"]
