"""``weft.lmChatScripted``: a chat model that plays the assistant turns listed in the workflow.

Parameters: ``turns``, a list (or a JSON string of a list) of turns, each either a text or an object such as
``{"toolCalls": [{"name": "Calculator", "args": {"input": "2+2"}}]}`` or ``{"text": "It is {{last_tool_result}}"}``
(see :mod:`weft.ai.models._turns` for the whole format); ``mode``, ``conversation`` (default: turn *n* answers a
conversation holding *n* assistant messages) or ``sequential``. Offered only with ``WEFT_DEMO_NODES`` on (a demo
model: ``weft.nodes.catalog.DEMO_NODE_TYPES``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from weft.ai.models.base import ChatModel
from weft.ai.models.scripted import ScriptedChatModel
from weft.ai.nodes.lm_chat_common import MODEL_OUTPUTS, traced
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


def _turns(ctx: SupplyDataContext, item_index: int) -> list[Any]:
    raw = ctx.get_node_parameter("turns", item_index, [])
    if isinstance(raw, str):
        try:
            raw = json.loads(raw) if raw.strip() else []
        except json.JSONDecodeError as exc:
            raise NodeOperationError(
                ctx.node.name, f"The 'turns' parameter is not valid JSON ({exc.msg}); write a JSON list of turns."
            ) from exc
    if isinstance(raw, Mapping):
        raw = raw.get("turns") or raw.get("values") or []
    if not isinstance(raw, list) or not all(isinstance(t, str | Mapping) for t in raw):
        raise NodeOperationError(
            ctx.node.name,
            "The 'turns' parameter must be a list of turns, each a text or an object with 'text' and/or 'toolCalls'.",
        )
    return raw


class LmChatScripted(NodeType):
    """Supplies a :class:`~weft.ai.models.scripted.ScriptedChatModel` built from the node's ``turns``."""

    description = NodeDescription(
        name="weft.lmChatScripted",
        display_name="Scripted Chat Model",
        versions=(1,),
        description="A deterministic chat model for tests and demos: it plays the listed assistant turns",
        inputs=(),
        outputs=MODEL_OUTPUTS,
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ChatModel:
        mode = ctx.get_node_parameter("mode", item_index, "conversation")
        model = ScriptedChatModel(
            _turns(ctx, item_index), mode="sequential" if mode == "sequential" else "conversation"
        )
        return traced(ctx, model, {"model": model.model_name, "turns": len(model.turns), "mode": model.mode})
