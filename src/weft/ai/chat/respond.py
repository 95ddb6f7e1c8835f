"""Respond to Chat (``@n8n/n8n-nodes-langchain.chat``): send a message to the chat that started the execution.

* When the execution streams (Chat Trigger ``responseMode: streaming``), the message goes out as ``begin`` /
  ``item`` / ``end`` chunks.
* Otherwise it answers the chat request as ``{"output": message}`` (what n8n's chat widget reads) through the
  host's webhook response channel: the Chat Trigger must use ``responseMode: responseNode(s)``.
* "Send and Wait for Response" (``operation: sendAndWait`` from 1.1; ``waitUserReply`` in 1.0) sends the message
  and puts the execution to wait until the user answers. A ``responseType: approval`` message carries buttons
  (``{type: "with-buttons", text, blockUserInput, buttons: [{text, link, type}]}``, as n8n's ``getChatMessage``);
  the hosted chat page shows them, and a click, or a reply written in the chat, resumes the execution through
  the signed resume URL (:mod:`weft.ai.chat.waiting`). The output is n8n's ``onMessage`` item.

Without waiting, the node outputs its input items.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.ai.chat.trigger import CHAT_TRIGGER_TYPE
from weft.ai.chat.waiting import ChatMessage, chat_answer_item, chat_approval_message, send_and_wait_options
from weft.ai.hitl.send_and_wait import SendAndWaitHitlTool, resume_request, wait_till
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.webhooks import WebhookOptions, WebhookResponse, responder_of
from weft.workflow import NodeModel, NodeOutput

SEND_AND_WAIT = "sendAndWait"


class RespondToChat(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.chat",
        display_name="Respond to Chat",
        versions=(1, 1.1, 1.2, 1.3),
        description="Send a message to a chat",
        group=("input",),
        defaults={"message": "", "waitUserReply": True, "operation": "send", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        request = resume_request(ctx)
        if request is not None:
            return [[chat_answer_item(ctx, request)]]
        require_chat_trigger(ctx)
        if not _waits(ctx):
            await send_chat_message(ctx, _text(ctx.get_node_parameter("message", 0, "")))
            return [items]
        message = _chat_message(ctx)
        await send_chat_message(ctx, message)
        ctx.put_execution_to_wait(wait_till(ctx), resume_node=True)
        return [[{"json": {}, "sendMessage": message}]]  # type: ignore[typeddict-unknown-key]

    @classmethod
    def waiting_webhook_options(cls, node: NodeModel) -> WebhookOptions:
        """How the waiting webhook answers this node's links (see :mod:`weft.ai.chat.waiting`)."""
        return send_and_wait_options()

    check_waiting_request = SendAndWaitHitlTool.check_waiting_request


def _waits(ctx: ExecuteContext) -> bool:
    if float(ctx.node.typeVersion) < 1.1:
        options = ctx.get_node_parameter("options", 0, {})
        wait = ctx.get_node_parameter("waitUserReply", 0, True)
        if isinstance(options, Mapping) and "waitUserReply" in options:
            wait = options["waitUserReply"]
        return bool(wait)
    return bool(ctx.get_node_parameter("operation", 0, "send") == SEND_AND_WAIT)


def _chat_message(ctx: ExecuteContext) -> ChatMessage:
    """n8n's ``getChatMessage``: the text, or an approval message with buttons."""
    text = _text(ctx.get_node_parameter("message", 0, ""))
    if float(ctx.node.typeVersion) < 1.1 or ctx.get_node_parameter("responseType", 0, "freeText") != "approval":
        return text
    return chat_approval_message(ctx, text, SendAndWaitHitlTool().approval_options(ctx))


async def send_chat_message(ctx: ExecuteContext, message: ChatMessage) -> None:
    """Stream ``message`` when the execution streams, else answer the chat request with ``{output}`` (and, for a
    message with buttons, ``message``: the whole message)."""
    text = message if isinstance(message, str) else str(message.get("text", ""))
    if ctx.is_streaming():
        await ctx.send_chunk("begin", None)
        await ctx.send_chunk("item", text)
        await ctx.send_chunk("end", None)
        return
    responder = responder_of(ctx.services)
    if responder is not None:
        body: dict[str, Any] = {"output": text}
        if not isinstance(message, str):
            body["message"] = dict(message)
        responder.send_webhook_response(WebhookResponse.json(body))


def require_chat_trigger(ctx: ExecuteContext) -> None:
    """n8n's checks: a Chat Trigger in Hosted Chat mode answering through response nodes started the execution."""
    workflow = ctx.workflow
    trigger = None
    for name in [*workflow.parents(ctx.node.name), *workflow.nodes]:
        node = workflow.node(name)
        if node is not None and node.type == CHAT_TRIGGER_TYPE and not node.disabled:
            trigger = node
            break
    if trigger is None:
        raise NodeOperationError(ctx.node.name, "Workflow must be started from a chat trigger node")
    if trigger.parameters.get("mode") == "webhook":
        raise NodeOperationError(
            ctx.node.name,
            '"Embedded chat" is not supported, change the "Mode" in the chat trigger node to the "Hosted Chat"',
        )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


__all__ = ["RespondToChat", "require_chat_trigger", "send_chat_message"]
