"""Schedule Trigger (``n8n-nodes-base.scheduleTrigger``): starts an active workflow on a schedule.

The server's scheduler fires the workflow at each match of the node's rules (:mod:`weft.nodes.schedules`) and
seeds this node with the moment it fired; the node outputs n8n's item (``timestamp``, ``Readable date``, …,
``Timezone``), for now when run by hand.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.schedules.schedule import SCHEDULE_TYPE, schedule_item, timezone_of
from weft.workflow import NodeOutput


class ScheduleTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=SCHEDULE_TYPE,
        display_name="Schedule Trigger",
        versions=(1, 1.1, 1.2, 1.3, 1.4),
        description="Triggers the workflow on a given schedule",
        group=("trigger", "schedule"),
        inputs=(),
        defaults={"rule": {"interval": [{"field": "days"}]}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        seeded = ctx.get_input_data()
        if seeded and seeded[0].get("json", {}).get("timestamp"):
            return [seeded]
        return [[{"json": schedule_item(datetime.now(UTC), timezone_of(ctx.workflow.settings.timezone))}]]


__all__ = ["ScheduleTrigger"]
