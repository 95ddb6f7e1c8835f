"""Respond to Chat (``@n8n/n8n-nodes-langchain.chat``): send a message to the chat that started the execution.

* When the execution streams (Chat Trigger ``responseMode: streaming``), the message goes out as ``begin`` /
  ``item`` / ``end`` chunks.
* Otherwise it answers the chat request as ``{"output": message}`` (what n8n's chat widget reads) through the
  host's webhook response channel: the Chat Trigger must use ``responseMode: responseNode(s)``.
* ``waitUserReply`` (n8n's default: on) would pause the execution until the user's next message; Weft does
  not support that yet and says so, rather than silently going on.

The node outputs its input items.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.ai.chat.trigger import CHAT_TRIGGER_TYPE
from weft.errors import NodeOperationError
from weft.nodes.builtin.respond_to_webhook import WebhookResponder, WebhookResponse
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeOutput


class RespondToChat(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.chat",
        display_name="Respond to Chat",
        versions=(1, 1.1, 1.2, 1.3),
        description="Send a message to a chat",
        group=("input",),
        defaults={"message": "", "waitUserReply": True, "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        _require_chat_trigger(ctx)
        options = ctx.get_node_parameter("options", 0, {})
        wait = ctx.get_node_parameter("waitUserReply", 0, True)
        if isinstance(options, Mapping) and "waitUserReply" in options:
            wait = options["waitUserReply"]
        if wait:
            raise NodeOperationError(
                ctx.node.name,
                "Waiting for the user's reply is not supported yet",
                description="Turn off 'Wait for User Reply' on this node: the message is sent and the workflow "
                "goes on. To continue the conversation, handle the user's next message in a new execution.",
            )
        message = _text(ctx.get_node_parameter("message", 0, ""))
        await send_chat_message(ctx, message)
        return [items]


async def send_chat_message(ctx: ExecuteContext, message: str) -> None:
    """Stream ``message`` when the execution streams, else answer the chat request with ``{output}``."""
    if ctx.is_streaming():
        await ctx.send_chunk("begin", None)
        await ctx.send_chunk("item", message)
        await ctx.send_chunk("end", None)
        return
    if isinstance(ctx.services, WebhookResponder):
        ctx.services.send_webhook_response(WebhookResponse.json({"output": message}))


def _require_chat_trigger(ctx: ExecuteContext) -> None:
    workflow = ctx.workflow
    for name in workflow.parents(ctx.node.name):
        node = workflow.node(name)
        if node is not None and node.type == CHAT_TRIGGER_TYPE and not node.disabled:
            return
    raise NodeOperationError(ctx.node.name, "Workflow must be started from a chat trigger node")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


__all__ = ["RespondToChat", "send_chat_message"]
