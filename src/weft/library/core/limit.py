"""Limit (``n8n-nodes-base.limit`` v1): keeps the first or last ``maxItems`` items."""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params
from weft.workflow import NodeOutput


class Limit(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.limit",
        display_name="Limit",
        versions=(1,),
        description="Restrict the number of items",
        group=("transform",),
        defaults={"maxItems": 1, "keep": "firstItems"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        items = ctx.get_input_data()
        max_items = max(0, int(params.get("maxItems", 0, 1)))
        if max_items > len(items):
            return [items]
        if params.get("keep", 0, "firstItems") == "firstItems":
            return [items[:max_items]]
        return [items[len(items) - max_items :]]
