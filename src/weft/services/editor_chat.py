"""The editor's chat panel: chat with a saved workflow from its canvas (n8n's canvas chat).

The panel posts n8n's chat message ``{action: "sendMessage", sessionId, chatInput}`` for a workflow, not for a
``webhookId``: the workflow's Chat Trigger (``chatTrigger``, or the editor-only ``manualChatTrigger``) answers
it as its test URL does (:func:`weft.services.chat.call_chat` with ``test=True``: mode ``manual``, streamed when
the trigger streams, approval questions with their buttons). The editor is behind the login, so the trigger's
own authentication does not apply, nor does ``public`` (a chat not public is for this panel only), as in n8n's
editor; nor is listening needed (n8n's canvas chat runs the workflow with the message). ``loadPreviousSession``
lists the session's messages from the Simple Memory of the workflow, whatever the trigger's
``loadPreviousSession`` option.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from weft.ai.chat.history import langchain_messages
from weft.ai.chat.trigger import CHAT_TRIGGER_TYPE, ChatTriggerOptions, chat_trigger_options
from weft.services.chat import ChatTarget, simple_memory_key
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import WorkflowRunner
from weft.workflow import NodeModel

MANUAL_CHAT_TRIGGER_TYPE = "@n8n/n8n-nodes-langchain.manualChatTrigger"
CHAT_TRIGGER_TYPES = (CHAT_TRIGGER_TYPE, MANUAL_CHAT_TRIGGER_TYPE)


def editor_chat_target(prepared: PreparedWorkflow, node: str | None = None) -> ChatTarget | None:
    """The workflow's enabled chat trigger (the one named ``node`` when given) as a test URL serves it; ``None``
    when it has none."""
    for each in prepared.workflow.nodes.values():
        if each.type in CHAT_TRIGGER_TYPES and not each.disabled and node in (None, each.name):
            return ChatTarget(prepared=prepared, node=each.name, options=_options(each))
    return None


def _options(node: NodeModel) -> ChatTriggerOptions:
    if node.type == MANUAL_CHAT_TRIGGER_TYPE:  # n8n's manual chat answers with the last node's output
        return ChatTriggerOptions(webhook_id="", public=True)
    options = chat_trigger_options(node)  # not public: only this panel chats with it, as n8n's canvas chat
    return dataclasses.replace(options, public=True, authentication="none", load_previous_session="notSupported")


def memory_keys(prepared: PreparedWorkflow, session_id: str) -> list[str]:
    """The keys under which the workflow's Simple Memory nodes keep ``session_id`` (those reading the session
    from the chat input)."""
    keys = (simple_memory_key(prepared, node, session_id) for node in prepared.workflow.nodes.values())
    return [key for key in keys if key is not None]


async def session_messages(runner: WorkflowRunner, prepared: PreparedWorkflow, session_id: str) -> list[Any]:
    """The session's messages (n8n's ``loadPreviousSession`` answer: LangChain's serialized messages), from the
    first memory that holds any."""
    for key in memory_keys(prepared, session_id):
        stored = await runner.db(runner.store.memory.load, key)
        if stored:
            return langchain_messages(stored)
    return []


__all__ = ["CHAT_TRIGGER_TYPES", "MANUAL_CHAT_TRIGGER_TYPE", "editor_chat_target", "memory_keys", "session_messages"]
