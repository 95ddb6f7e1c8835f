"""Workflows of the approval tests: a chat agent whose Refund tool is gated by a Chat HITL Tool."""

from __future__ import annotations

import uuid
from typing import Any

from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
TRIGGER = "When chat message received"
REFUND_CODE = "return `refunded order ${query}`;"


def refund_call(order: str = "42", call_id: str = "call_refund") -> dict[str, Any]:
    """A model's call of the gated Refund tool, in n8n's ``{toolParameters, hitlParameters}`` shape."""
    return {"id": call_id, "name": "Refund", "args": {"toolParameters": {"input": order}, "hitlParameters": {}}}


def refund_workflow(
    turns: list[Any],
    *,
    approval: dict[str, Any] | None = None,
    hitl_version: float = 1.3,
    extra: list[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], str]:
    """Chat Trigger (response nodes) → AI Agent → Respond to Chat; Refund (Code Tool) → Approve (chatHitlTool) →
    the agent. Returns the workflow and the chat's webhook id."""
    webhook_id = str(uuid.uuid4())
    values = approval or {"approvalType": "double", "approveLabel": "Approve", "disapproveLabel": "Decline"}
    trigger = {"public": True, "options": {"responseMode": "responseNodes"}}
    parts: list[Any] = [
        {**node(TRIGGER, LC + "chatTrigger", trigger, version=1.4), "webhookId": webhook_id},
        node("AI Agent", LC + "agent", {"promptType": "auto"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        node("Approve", LC + "chatHitlTool", {"approvalOptions": {"values": values}}, version=hitl_version),
        node("Refund", LC + "toolCode", {"jsCode": REFUND_CODE, "description": "Refund an order"}, version=1.3),
        node("Reply", LC + "chat", {"message": "={{ $json.output }}"}, version=1.3),
        connect(TRIGGER, "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Approve", "AI Agent", type_="ai_tool"),
        connect("Refund", "Approve", type_="ai_tool"),
        connect("AI Agent", "Reply"),
        *(extra or []),
    ]
    data = workflow(*parts)
    data["id"] = uuid.uuid4().hex[:16]
    for each in data["nodes"]:
        each.setdefault("id", str(uuid.uuid4()))
    return data, webhook_id


def message(text: str, session: str = "s1") -> dict[str, Any]:
    return {"action": "sendMessage", "sessionId": session, "chatInput": text}
