"""Interval (``n8n-nodes-base.interval`` v1): n8n's legacy trigger that fires every N seconds, minutes or hours.

The scheduler fires an active workflow's Interval node as :func:`weft.nodes.schedules.interval.interval_seconds`
reads it; fired, or run by hand, the node outputs one empty item (a manual run checks the interval first).
"""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.schedules.interval import INTERVAL_TYPE, interval_seconds
from weft.workflow import NodeOutput


class Interval(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=INTERVAL_TYPE,
        display_name="Interval",
        versions=(1,),
        description="Triggers the workflow in a given interval",
        group=("trigger", "schedule"),
        inputs=(),
        defaults={"interval": 1, "unit": "seconds"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if ctx.mode == "manual":  # n8n calls trigger() only for a manual run; other modes pass the input on
            interval_seconds(ctx.node)
        seeded = ctx.get_input_data()
        return [seeded if seeded else [{"json": {}}]]


__all__ = ["Interval"]
