"""If (``n8n-nodes-base.if`` v2–2.3; legacy v1 in :mod:`._if_v1`): routes each item to ``true`` (output 0) or
``false`` (output 1).

The conditions are n8n's filter parameter (:mod:`weft.library.core._filter`). With ``continueOnFail`` an item
whose conditions cannot be evaluated goes to the ``false`` output, as in n8n.
"""

from __future__ import annotations

from typing import ClassVar

from weft.library.core._filter_node import CompiledFilter, filter_error, filter_version_of, node_filter_settings
from weft.library.core._if_v1 import execute_if_v1
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, with_paired_item
from weft.workflow import MAIN, Item, NodeOutput


class If(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.if",
        display_name="If",
        versions=(1, 2, 2.1, 2.2, 2.3),
        description="Route items to different branches (true/false)",
        group=("transform",),
        outputs=(MAIN, MAIN),
        defaults={"options": {}, "looseTypeValidation": False, "conditions": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if ctx.node.typeVersion < 2:
            return execute_if_v1(ctx)
        params = Params(ctx)
        settings = node_filter_settings(params, loose_since=2.1, version=filter_version_of(params.node_version))
        conditions = CompiledFilter(params.raw("conditions", {}), settings)
        true_items: list[Item] = []
        false_items: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                passed = conditions.passes(params, index)
            except Exception as error:
                if ctx.continue_on_fail():
                    false_items.append(with_paired_item(item, index))
                    continue
                raise filter_error(ctx, error, index, bool(settings["loose"])) from error
            (true_items if passed else false_items).append(with_paired_item(item, index))
        return [true_items, false_items]
