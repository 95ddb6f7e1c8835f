"""``chatHitlTool``: the Chat node as a HITL tool (n8n's ``convertNodeToHitlTool`` of ``chat``).

The agent's call of a gated tool is asked in the chat that started the execution: the message (by default
"The agent wants to run this tool: …") with Approve (and, for ``approvalType: double``, Disapprove) buttons.
The execution waits; a click approves or denies, a written reply denies with the reply as feedback to the model
(n8n's ``onMessage``). See :mod:`weft.ai.hitl` for the mechanism and :mod:`weft.ai.chat.waiting` for the answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.ai.chat.respond import require_chat_trigger, send_chat_message
from weft.ai.chat.waiting import chat_answer_item, chat_approval_message, send_and_wait_options
from weft.ai.hitl.send_and_wait import ApprovalOption, SendAndWaitHitlTool
from weft.nodes.contract import ExecuteContext, NodeDescription
from weft.nodes.webhooks import WebhookOptions
from weft.workflow import AI_TOOL, Item, NodeModel


class ChatHitlTool(SendAndWaitHitlTool):
    """Chat HITL Tool: ask for approval in the chat before a connected tool runs."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.chatHitlTool",
        display_name="Chat",
        versions=(1, 1.1, 1.2, 1.3),
        description="Request human approval for tools",
        group=("input",),
        inputs=(AI_TOOL,),
        outputs=(AI_TOOL,),
        defaults={"operation": "sendAndWait", "responseType": "approval", "options": {}},
    )

    async def send(self, ctx: ExecuteContext, message: str, options: list[ApprovalOption]) -> dict[str, Any]:
        """The question in the chat; the run records it as n8n's ``sendMessage`` (without the call, which only
        the chat client gets)."""
        require_chat_trigger(ctx)
        await send_chat_message(ctx, chat_approval_message(ctx, message, options, self.tool_call(ctx)))
        return chat_approval_message(ctx, message, options)

    def answer(self, ctx: ExecuteContext, request: Mapping[str, Any]) -> Item:
        return chat_answer_item(ctx, request)

    @classmethod
    def waiting_webhook_options(cls, node: NodeModel) -> WebhookOptions:
        return send_and_wait_options()


__all__ = ["ChatHitlTool"]
