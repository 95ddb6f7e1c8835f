"""The Cron node's (``n8n-nodes-base.cron`` v1) trigger times as cron expressions, for the scheduler.

Each entry of ``triggerTimes.item`` becomes a seconds-first cron expression as n8n's ``toCronExpression``
makes it (a random second, and for "every X hours" a random minute, so that instances do not all fire at
once).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from weft.errors import WorkflowDefinitionError
from weft.workflow import NodeModel

CRON_TYPE = "n8n-nodes-base.cron"
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


__all__ = ["CRON_TYPE", "cron_node_expressions", "to_cron_expression"]
