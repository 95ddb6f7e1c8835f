"""No Operation (``n8n-nodes-base.noOp``): passes its input through unchanged."""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeOutput


class NoOp(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.noOp",
        display_name="No Operation, do nothing",
        versions=(1,),
        description="No Operation",
        group=("organization",),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return [ctx.get_input_data()]
