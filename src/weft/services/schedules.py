"""Timer triggers of active workflows (Schedule Trigger, Cron, Interval), on :class:`RuleTimers`.

The rules are seconds-first cron expressions (n8n's), or an Interval node's period (``"@every <seconds>"``).
"""

from __future__ import annotations

import asyncio

from weft.nodes.schedules.schedule import timezone_of
from weft.nodes.schedules.timers import EVERY, timer_item, timer_rules
from weft.services.activation import schedule_nodes
from weft.services.prepared import PreparedWorkflow
from weft.services.rule_timers import RuleTimers
from weft.workflow import Item, NodeModel


class ScheduleTriggers(RuleTimers):
    """The running schedules (:class:`RuleTimers`): each fire starts an execution with the timer's item."""

    rule_name = "schedule"

    def nodes(self, prepared: PreparedWorkflow) -> list[str]:
        return schedule_nodes(prepared)

    def rules(self, node: NodeModel) -> list[str]:
        return timer_rules(node)

    async def run_rule(self, prepared: PreparedWorkflow, node: str, rule: str) -> None:
        if rule.startswith(EVERY):  # an Interval node: n8n's setInterval, first one period after activation
            await self._fire_every(prepared, node, float(rule.split()[1]))
            return
        tz = timezone_of(prepared.workflow.settings.timezone)
        async for moment in self.moments(prepared, node, rule):
            item: Item = {"json": timer_item(prepared.workflow.nodes[node], moment, tz)}
            self.runner.spawn(self.runner.run(prepared, mode="trigger", start_node=node, trigger_items=[item]))

    async def _fire_every(self, prepared: PreparedWorkflow, node: str, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            item: Item = {"json": {}}
            self.runner.spawn(self.runner.run(prepared, mode="trigger", start_node=node, trigger_items=[item]))


__all__ = ["ScheduleTriggers"]
