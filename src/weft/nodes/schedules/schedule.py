"""The Schedule Trigger's (``n8n-nodes-base.scheduleTrigger``) rules and output, for the scheduler and the node.

Each rule of ``rule.interval`` becomes a cron expression with seconds first (n8n's ``toCronExpression``);
the server's scheduler fires the workflow at each match and seeds this node with the moment it fired, and the
node outputs n8n's item (``timestamp``, ``Readable date``, …, ``Timezone``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from weft.errors import WorkflowDefinitionError
from weft.workflow import NodeModel

SCHEDULE_TYPE = "n8n-nodes-base.scheduleTrigger"

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def cron_expressions(node: NodeModel) -> list[str]:
    """The node's rules as seconds-first cron expressions; an unknown rule is a definition error."""
    rules = (node.parameters.get("rule") or {}).get("interval") or [{"field": "days"}]
    rules = [rule for rule in rules if isinstance(rule, Mapping)]
    if node.typeVersion >= 1.3:  # n8n validates the intervals from v1.3
        for rule in rules:
            _validate_interval(node.name, rule)
    return [_to_cron(node.name, rule) for rule in rules]


#: n8n ``validateInterval`` (v1.3+): ``{field: (interval parameter, lowest, highest, message)}``.
_INTERVAL_RANGES: dict[str, tuple[str, int, int | None, str]] = {
    "seconds": ("secondsInterval", 1, 59, "Seconds must be in range 1-59"),
    "minutes": ("minutesInterval", 1, 59, "Minutes must be in range 1-59"),
    "hours": ("hoursInterval", 1, 23, "Hours must be in range 1-23"),
    "days": ("daysInterval", 1, 31, "Days must be in range 1-31"),
    "months": ("monthsInterval", 1, None, "Months must be larger than 0"),
}


def _validate_interval(node_name: str, rule: Mapping[str, Any]) -> None:
    entry = _INTERVAL_RANGES.get(str(rule.get("field", "days")))
    if entry is None or rule.get(entry[0]) is None:
        return
    name, lowest, highest, message = entry
    value = float(rule[name])
    if value < lowest or (highest is not None and value > highest):
        raise WorkflowDefinitionError(
            f"Invalid interval: {message} (got {rule[name]!r}).",
            node_name=node_name,
            field=f"rule.interval.{name}",
            fix=f"Change the rule's {name!r}.",
        )


def _to_cron(node_name: str, rule: Mapping[str, Any]) -> str:
    kind = rule.get("field", "days")
    minute = int(rule.get("triggerAtMinute", 0) or 0)
    hour = int(rule.get("triggerAtHour", 0) or 0)
    if kind == "cronExpression":
        expression = str(rule.get("expression", "")).strip()
        return expression if len(expression.split()) == 6 else f"0 {expression}"
    if kind == "seconds":
        return f"*/{int(rule.get('secondsInterval', 30))} * * * * *"
    if kind == "minutes":
        return f"0 */{int(rule.get('minutesInterval', 5))} * * * *"
    if kind == "hours":
        return f"0 {minute} */{int(rule.get('hoursInterval', 1))} * * *"
    if kind == "days":
        return f"0 {minute} {hour} */{int(rule.get('daysInterval', 1))} * *"
    if kind == "weeks":
        days = rule.get("triggerAtDay") or [0]
        return f"0 {minute} {hour} * * {','.join(str(int(d)) for d in days)}"
    if kind == "months":
        day = int(rule.get("triggerAtDayOfMonth", 1) or 1)
        return f"0 {minute} {hour} {day} */{int(rule.get('monthsInterval', 1))} *"
    raise WorkflowDefinitionError(
        f"Schedule rule field {kind!r} is not supported.",
        node_name=node_name,
        field="rule.interval",
        fix="Use seconds, minutes, hours, days, weeks, months or cronExpression.",
    )


def timezone_of(name: str | None) -> Any:
    if not name or name == "DEFAULT":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def schedule_item(moment: datetime, tz: Any) -> dict[str, Any]:
    """n8n's Schedule Trigger output for ``moment`` in timezone ``tz``."""
    local = moment.astimezone(tz)
    offset = local.strftime("%z")
    offset = f"{offset[:3]}:{offset[3:]}" if offset else "+00:00"
    hour12 = local.hour % 12 or 12
    ampm = "am" if local.hour < 12 else "pm"
    clock = f"{hour12}:{local.minute:02d}:{local.second:02d} {ampm}"
    tz_name = getattr(tz, "key", None) or "UTC"
    return {
        "timestamp": local.strftime("%Y-%m-%dT%H:%M:%S.") + f"{local.microsecond // 1000:03d}{offset}",
        "Readable date": f"{_MONTHS[local.month - 1]} {_ordinal(local.day)} {local.year}, {clock}",
        "Readable time": clock,
        "Day of week": _DAYS[local.weekday()],
        "Year": f"{local.year}",
        "Month": _MONTHS[local.month - 1],
        "Day of month": f"{local.day:02d}",
        "Hour": f"{local.hour:02d}",
        "Minute": f"{local.minute:02d}",
        "Second": f"{local.second:02d}",
        "Timezone": f"{tz_name} (UTC{offset})",
    }


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


__all__ = ["SCHEDULE_TYPE", "cron_expressions", "schedule_item", "timezone_of"]
