"""Cron (``n8n-nodes-base.cron`` v1): n8n's legacy schedule trigger, and the timers of active workflows.

Each entry of ``triggerTimes.item`` becomes a seconds-first cron expression as n8n's ``toCronExpression``
makes it (a random second, and for "every X hours" a random minute, so that instances do not all fire at
once). Fired, or run by hand, the node outputs one empty item. :func:`timer_rules` and :func:`timer_item` are
what the server's scheduler (:mod:`weft.services.schedules`) asks of every timer trigger: Schedule Trigger,
Cron and Interval.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from weft.errors import WorkflowDefinitionError
from weft.nodes.builtin.interval import EVERY, INTERVAL_TYPE, interval_seconds
from weft.nodes.builtin.schedule_trigger import SCHEDULE_TYPE, cron_expressions, schedule_item
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeModel, NodeOutput

CRON_TYPE = "n8n-nodes-base.cron"
#: The node types the scheduler fires on their own timers.
TIMER_TRIGGER_TYPES = (SCHEDULE_TYPE, CRON_TYPE, INTERVAL_TYPE)
#: n8n ``cronNodeOptions``' defaults for an entry's missing fields.
_ENTRY_DEFAULTS: dict[str, Any] = {
    "mode": "everyDay",
    "hour": 14,
    "minute": 0,
    "dayOfMonth": 1,
    "weekday": "1",
    "cronExpression": "* * * * * *",
    "value": 2,
    "unit": "hours",
}


class Cron(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=CRON_TYPE,
        display_name="Cron",
        versions=(1,),
        description="Triggers the workflow at a specific time",
        group=("trigger", "schedule"),
        inputs=(),
        defaults={"triggerTimes": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        seeded = ctx.get_input_data()
        return [seeded if seeded else [{"json": {}}]]


def to_cron_expression(entry: Mapping[str, Any]) -> str:
    """n8n ``toCronExpression`` of one trigger time."""
    item = {**_ENTRY_DEFAULTS, **entry}
    second = random.randrange(60)
    mode = item["mode"]
    if mode == "everyMinute":
        return f"{second} * * * * *"
    if mode == "everyHour":
        return f"{second} {item['minute']} * * * *"
    if mode == "everyX" and item["unit"] == "minutes":
        return f"{second} */{item['value']} * * * *"
    if mode == "everyX" and item["unit"] == "hours":
        return f"{second} {random.randrange(60)} */{item['value']} * * *"
    if mode == "everyDay":
        return f"{second} {item['minute']} {item['hour']} * * *"
    if mode == "everyWeek":
        return f"{second} {item['minute']} {item['hour']} * * {item['weekday']}"
    if mode == "everyMonth":
        return f"{second} {item['minute']} {item['hour']} {item['dayOfMonth']} * *"
    expression = str(item["cronExpression"]).strip()
    return expression if len(expression.split()) == 6 else f"0 {expression}"


def cron_node_expressions(node: NodeModel) -> list[str]:
    """The Cron node's trigger times as seconds-first cron expressions."""
    times = node.parameters.get("triggerTimes") or {}
    entries = times.get("item") if isinstance(times, Mapping) else None
    if entries is not None and not isinstance(entries, list):
        raise WorkflowDefinitionError(
            "The Cron node's 'triggerTimes.item' must be a list of trigger times.",
            node_name=node.name,
            field="triggerTimes.item",
            fix="Add trigger times such as {'mode': 'everyDay', 'hour': 14, 'minute': 0}.",
        )
    return [to_cron_expression(entry) for entry in entries or [] if isinstance(entry, Mapping)]


def timer_rules(node: NodeModel) -> list[str]:
    """A timer trigger's rules: cron expressions, or ``"@every <seconds>"`` for an Interval node."""
    if node.type == CRON_TYPE:
        return cron_node_expressions(node)
    if node.type == INTERVAL_TYPE:
        return [f"{EVERY} {interval_seconds(node):g}"]
    return cron_expressions(node)


def timer_item(node: NodeModel, moment: datetime, tz: Any) -> dict[str, Any]:
    """The JSON a timer trigger starts its run with when it fires at ``moment``."""
    if node.type == SCHEDULE_TYPE:
        return schedule_item(moment, tz)
    return {}


__all__ = ["CRON_TYPE", "TIMER_TRIGGER_TYPES", "Cron", "timer_item", "timer_rules", "to_cron_expression"]
