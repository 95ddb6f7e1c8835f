"""Manual Trigger (``n8n-nodes-base.manualTrigger``): starts a run from the editor or ``weft execute``."""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeOutput


class ManualTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.manualTrigger",
        display_name="Manual Trigger",
        versions=(1,),
        description="Runs the flow on clicking a button in n8n",
        group=("trigger",),
        inputs=(),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return [ctx.get_input_data() or [{"json": {}}]]


class Start(ManualTrigger):
    """The legacy ``n8n-nodes-base.start`` node of old workflows."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.start",
        display_name="Start",
        versions=(1,),
        group=("trigger",),
        inputs=(),
    )
