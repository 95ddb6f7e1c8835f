"""Filter (``n8n-nodes-base.filter`` v2–2.3, and v1 with If v1's typed conditions): keeps the matching items.

Like n8n, every version returns the discarded items as a second output, which the run data keeps although the
node has one output (nothing can be connected to it).

With ``continueOnFail`` an item whose conditions cannot be evaluated is discarded, as in n8n.
"""

from __future__ import annotations

from typing import ClassVar

from weft.library.core._filter_node import CompiledFilter, filter_error, filter_version_of, node_filter_settings
from weft.library.core._if_v1 import execute_if_v1
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, with_paired_item
from weft.workflow import Item, NodeOutput


class Filter(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.filter",
        display_name="Filter",
        versions=(1, 2, 2.1, 2.2, 2.3),
        description="Remove items matching a condition",
        group=("transform",),
        defaults={"options": {}, "looseTypeValidation": False, "conditions": {}, "combineConditions": "AND"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if ctx.node.typeVersion < 2:
            return execute_if_v1(ctx, "combineConditions")
        params = Params(ctx)
        settings = node_filter_settings(params, loose_since=2.1, version=filter_version_of(params.node_version))
        conditions = CompiledFilter(params.raw("conditions", {}), settings)
        kept: list[Item] = []
        discarded: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                passed = conditions.passes(params, index)
            except Exception as error:
                if ctx.continue_on_fail():
                    discarded.append(with_paired_item(item, index))
                    continue
                raise filter_error(ctx, error, index, bool(settings["loose"])) from error
            (kept if passed else discarded).append(with_paired_item(item, index))
        return [kept, discarded]
