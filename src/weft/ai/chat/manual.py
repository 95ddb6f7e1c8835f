"""Manual Chat Trigger (``@n8n/n8n-nodes-langchain.manualChatTrigger``): a chat message typed in the editor.

The run's trigger input is ``{sessionId, action: "sendMessage", chatInput}`` (what the editor's chat sends); the
node passes it through, or outputs ``{chatInput: ""}`` when run without input.
"""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeOutput


class ManualChatTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.manualChatTrigger",
        display_name="Manual Chat Trigger",
        versions=(1, 1.1),
        description="Runs the flow on new manual chat message",
        group=("trigger",),
        inputs=(),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return [ctx.get_input_data() or [{"json": {"chatInput": ""}}]]


__all__ = ["ManualChatTrigger"]
