"""Answering in the chat: the approval message with buttons, and what the user's answer becomes.

A waiting Chat node (or ``chatHitlTool``) is resumed through its signed resume URL (``/webhook-waiting/<id>``):

* a button's link (``?approved=true|false&toolCallId=…&signature=…``), by GET or POST: n8n's
  ``sendAndWaitWebhook`` answer ``{data: {approved, respondedAt}}``; a POST body ``{toolParameters: {...}}`` with
  an approval carries edited arguments (beyond n8n);
* a reply written in the chat, POSTed as ``{chatInput: "…", sessionId}`` to the URL without ``approved``: the
  Chat node's ``onMessage`` item (``{…message, data: {approved: false}}`` for an approval question).

The waiting webhook answers with the next message the execution sends to the chat (a Chat node after the
agent, or the next approval question), as the first chat request was answered: ``responseMode: responseNode``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from weft.ai.hitl.core import approval_from_request, request_parts
from weft.nodes.contract import ExecuteContext
from weft.nodes.webhooks import WebhookOptions
from weft.workflow import Item

if TYPE_CHECKING:
    from weft.ai.hitl.send_and_wait import ApprovalOption

ChatMessage = str | dict[str, Any]
"""A text, or n8n's ``{type: "with-buttons", text, blockUserInput, buttons}``."""

WITH_BUTTONS = "with-buttons"


def chat_approval_message(
    ctx: ExecuteContext, text: str, options: list[ApprovalOption], tool: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """n8n's ``getChatMessage`` for ``responseType: approval``: the buttons in reverse option order. Beyond n8n,
    a HITL question also carries the call (``tool: {name, parameters, id}``): n8n's default message renders the
    arguments as ``[object Object]``, and the page lets the approver read and edit them."""
    message: dict[str, Any] = {
        "type": WITH_BUTTONS,
        "text": text,
        "blockUserInput": bool(ctx.get_node_parameter("blockUserInput", 0, False)),
        "buttons": [{"text": o.label, "link": o.url, "type": o.style} for o in reversed(options)],
    }
    if tool is not None:
        message["tool"] = dict(tool)
    return message


def send_and_wait_options() -> WebhookOptions:
    """The waiting webhook of a chat question: GET or POST, answered by the next chat message."""
    return WebhookOptions(methods=("GET", "POST"), path="", response_mode="responseNode")


def chat_answer_item(ctx: ExecuteContext, request: Mapping[str, Any]) -> Item:
    """The Chat node's output once the user answered (n8n's ``sendAndWaitWebhook`` / ``onMessage``)."""
    approval = approval_from_request(request)
    if approval is not None:
        return approval
    _, body = request_parts(request)
    message = {k: v for k, v in body.items() if k in ("sessionId", "action", "chatInput")}
    message.setdefault("action", "sendMessage")
    version = float(ctx.node.typeVersion)
    if version < 1.1:
        return {"json": message}
    free_text = ctx.get_node_parameter("responseType", 0, "freeText") == "freeText"
    if version <= 1.1:
        return {"json": {"data": {**message, **({} if free_text else {"approved": False})}}}
    nested: dict[str, Any] = dict(message["data"]) if isinstance(message.get("data"), Mapping) else {}
    if not free_text:
        nested["approved"] = False
    json: dict[str, Any] = {**message}
    if nested:
        json["data"] = nested
    return {"json": json}


__all__ = ["WITH_BUTTONS", "ChatMessage", "chat_answer_item", "chat_approval_message", "send_and_wait_options"]
