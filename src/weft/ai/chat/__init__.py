"""Chat: the Chat Trigger, Respond to Chat and Manual Chat Trigger node types, the hosted chat page, chunks.

The server side (routes, streaming, database memory) is in ``weft.services.chat`` and ``weft.server.routes.chat``.
"""

from weft.ai.chat.trigger import (
    CHAT_TRIGGER_TYPE,
    ChatTrigger,
    ChatTriggerError,
    ChatTriggerOptions,
    chat_trigger_options,
)

__all__ = ["CHAT_TRIGGER_TYPE", "ChatTrigger", "ChatTriggerError", "ChatTriggerOptions", "chat_trigger_options"]
