"""What the server's scheduler (:mod:`weft.services.schedules`) asks of every timer trigger (Schedule Trigger,
Cron and Interval): its rules (:func:`timer_rules`) and the JSON it starts its run with (:func:`timer_item`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from weft.nodes.schedules.cron import CRON_TYPE, cron_node_expressions
from weft.nodes.schedules.interval import EVERY, INTERVAL_TYPE, interval_seconds
from weft.nodes.schedules.schedule import SCHEDULE_TYPE, cron_expressions, schedule_item
from weft.workflow import NodeModel

#: The node types the scheduler fires on their own timers.
TIMER_TRIGGER_TYPES = (SCHEDULE_TYPE, CRON_TYPE, INTERVAL_TYPE)


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


__all__ = ["EVERY", "TIMER_TRIGGER_TYPES", "timer_item", "timer_rules"]
