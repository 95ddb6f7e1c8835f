"""Filter (``n8n-nodes-base.filter`` v2–2.2): keeps the items that match the conditions.

With ``continueOnFail`` an item whose conditions cannot be evaluated is discarded, as in n8n.
"""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.builtin._filter_node import CompiledFilter, filter_error, node_filter_settings
from weft.nodes.builtin._utils import Params, with_paired_item
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput


class Filter(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.filter",
        display_name="Filter",
        versions=(2, 2.1, 2.2),
        description="Remove items matching a condition",
        group=("transform",),
        defaults={"options": {}, "looseTypeValidation": False, "conditions": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        settings = node_filter_settings(params, loose_since=2.1, version=2 if params.node_version >= 2.2 else 1)
        conditions = CompiledFilter(params.raw("conditions", {}), settings)
        kept: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                passed = conditions.passes(params, index)
            except Exception as error:
                if ctx.continue_on_fail():
                    continue
                raise filter_error(ctx, error, index, bool(settings["loose"])) from error
            if passed:
                kept.append(with_paired_item(item, index))
        return [kept]
