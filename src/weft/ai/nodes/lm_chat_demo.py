"""``weft.lmChatDemo``: a keyless demo model that calls the tools matching the prompt and reports their results.

Offered only with ``WEFT_DEMO_NODES`` on (a demo model: ``weft.nodes.catalog.DEMO_NODE_TYPES``).
"""

from __future__ import annotations

from weft.ai.models.base import ChatModel
from weft.ai.models.demo import DemoChatModel
from weft.ai.nodes.lm_chat_common import MODEL_OUTPUTS, traced
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


class LmChatDemo(NodeType):
    """Supplies a :class:`~weft.ai.models.demo.DemoChatModel`; it has no parameters."""

    description = NodeDescription(
        name="weft.lmChatDemo",
        display_name="Demo Chat Model",
        versions=(1,),
        description="A chat model that needs no key: it calls the tools that match the prompt and reports them",
        inputs=(),
        outputs=MODEL_OUTPUTS,
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ChatModel:
        model = DemoChatModel()
        return traced(ctx, model, {"model": model.model_name})
