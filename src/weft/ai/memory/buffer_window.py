"""``@n8n/n8n-nodes-langchain.memoryBufferWindow`` (Simple Memory): chat history per session key.

The session key comes from the input's ``sessionId`` (what the Chat Trigger outputs; ``sessionIdType:
fromInput``, the default from typeVersion 1.2) or from the ``sessionKey`` parameter (``customKey``, and versions
before 1.2); from typeVersion 1.4 a session from the input is scoped to the node (``<id>__<node name>``).
``contextWindowLength`` (default 5) is the number of past turns the model sees. Messages live in
the host's store (``ctx.services.chat_memory``, the database when the server runs) or in the process.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from weft.ai.memory.chat_memory import WindowChatMemory
from weft.ai.memory.store import PROCESS_STORE
from weft.errors import NodeOperationError
from weft.nodes.contract import ChatMemoryStore, NodeDescription, NodeType, SupplyDataContext
from weft.workflow import AI_MEMORY

_SESSION_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def input_session_key(node_name: str, version: float, session: str) -> str:
    """The key of a session read from the input (the chat trigger's ``sessionId``): from typeVersion 1.4 n8n scopes
    it to the memory node."""
    return f"{session}__{_SESSION_UNSAFE.sub('_', node_name)}" if version >= 1.4 else session


def session_id(ctx: SupplyDataContext, item_index: int, *, selector_from: float = 1.2) -> str:
    """The session key for ``item_index``, with n8n's errors when there is none.

    ``selector_from`` is the first typeVersion with the ``sessionIdType`` parameter (Simple Memory: 1.2; Postgres
    Chat Memory has it from 1, default ``fromInput``)."""
    version = float(ctx.node.typeVersion)
    from_input = (
        version >= selector_from and ctx.get_node_parameter("sessionIdType", item_index, "fromInput") == "fromInput"
    )
    if from_input:
        items = ctx.get_input_data()
        value = items[item_index]["json"].get("sessionId") if item_index < len(items) else None
        if value in (None, ""):
            raise NodeOperationError(
                ctx.node.name,
                "No session ID found",
                description="Expected to find the session ID in an input field called 'sessionId' (this is what "
                "the chat trigger node outputs). To use something else, change the 'Session ID' parameter",
                item_index=item_index,
            )
        return input_session_key(ctx.node.name, version, str(value))
    value = ctx.get_node_parameter("sessionKey", item_index, "chat_history" if version < 1.2 else "")
    if value in (None, ""):
        raise NodeOperationError(
            ctx.node.name,
            "Key parameter is empty",
            description="Provide a key to use as session ID in the 'Key' parameter or use the 'Connected Chat "
            "Trigger Node' option to use the session ID from your Chat Trigger",
            item_index=item_index,
        )
    return str(value)


def chat_memory_store(ctx: SupplyDataContext) -> ChatMemoryStore:
    """The host's store when it keeps one (the server: the database), else the process-wide one."""
    services: Any = getattr(ctx, "services", None)
    store = getattr(services, "chat_memory", None)
    return store if store is not None else PROCESS_STORE


class MemoryBufferWindow(NodeType):
    """Supplies a :class:`WindowChatMemory` for the parent agent."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.memoryBufferWindow",
        display_name="Simple Memory",
        versions=(1, 1.1, 1.2, 1.3, 1.4),
        description="Stores in n8n memory, so no credentials required",
        inputs=(),
        outputs=(AI_MEMORY,),
        defaults={"contextWindowLength": 5},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> WindowChatMemory:
        key = session_id(ctx, item_index)
        turns = int(ctx.get_node_parameter("contextWindowLength", item_index, 5))
        workflow_id = ctx.workflow.id or "workflow"
        # n8n keys its buffers by workflow and session (``${workflowId}__${sessionKey}``)
        return WindowChatMemory(ctx, chat_memory_store(ctx), f"{workflow_id}__{key}", turns)


__all__ = ["MemoryBufferWindow", "chat_memory_store", "input_session_key", "session_id"]
