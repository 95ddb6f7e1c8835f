"""The chat node types for the ``weft.nodes`` entry point (``ai-chat = "weft.ai.chat.catalog:CHAT_CATALOG"``)."""

from __future__ import annotations

_LC = "@n8n/n8n-nodes-langchain."

#: ``{type name: "module:Class"}`` (imported on first use).
CHAT_CATALOG: dict[str, str] = {
    _LC + "chatTrigger": "weft.ai.chat.trigger:ChatTrigger",
    _LC + "chat": "weft.ai.chat.respond:RespondToChat",
    _LC + "chatHitlTool": "weft.ai.chat.hitl:ChatHitlTool",
    _LC + "manualChatTrigger": "weft.ai.chat.manual:ManualChatTrigger",
}

__all__ = ["CHAT_CATALOG"]
