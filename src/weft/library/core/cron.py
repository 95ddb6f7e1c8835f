"""Cron (``n8n-nodes-base.cron`` v1): n8n's legacy schedule trigger.

The scheduler fires an active workflow at the node's trigger times (:mod:`weft.nodes.schedules.cron`); fired, or
run by hand, the node outputs one empty item.
"""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.schedules.cron import CRON_TYPE
from weft.workflow import NodeOutput


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


__all__ = ["Cron"]
