"""The Interval node's (``n8n-nodes-base.interval`` v1) period, for the scheduler and the node.

An active workflow's Interval node fires first one interval after activation, then every interval (n8n's
``setInterval``). An interval below 1, or longer than ``setInterval`` allows (2^31 - 1 ms, about 24.8 days), is
refused with n8n's messages (on activation the workflow's timer is skipped with that error logged).
"""

from __future__ import annotations

from weft.errors import NodeOperationError
from weft.workflow import NodeModel

INTERVAL_TYPE = "n8n-nodes-base.interval"
#: How a timer rule says "every N seconds" (see :func:`weft.nodes.schedules.timers.timer_rules`).
EVERY = "@every"
_UNIT_SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600}
_MAX_MS = 2147483647


def interval_seconds(node: NodeModel) -> float:
    """The node's interval in seconds, with n8n's checks."""
    raw = node.parameters.get("interval", 1)
    unit = str(node.parameters.get("unit", "seconds"))
    try:
        interval = float(raw)
    except (TypeError, ValueError):
        interval = 0.0
    if interval <= 0:
        raise NodeOperationError(
            node.name, "The interval has to be set to at least 1 or higher!", description="Set 'interval' to 1 or more."
        )
    seconds = interval * _UNIT_SECONDS.get(unit, 1)
    if seconds * 1000 > _MAX_MS:
        raise NodeOperationError(
            node.name,
            "The interval value is too large.",
            description="Use an interval of at most 24 days (2147483647 ms), or a Schedule Trigger.",
        )
    return seconds


__all__ = ["EVERY", "INTERVAL_TYPE", "interval_seconds"]
