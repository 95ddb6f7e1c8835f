"""``@n8n/n8n-nodes-langchain.memoryManager`` (Chat Memory Manager): read, insert or delete a memory's messages.

A main-flow node over the memory sub-node on its ``ai_memory`` input (Simple Memory, Postgres Chat Memory). It
works on the session's whole stored history, not the model's window, as n8n's ``chatHistory`` does. Each item
reads its own session (``getInputConnectionData(AiMemory, i)``). typeVersion 1 outputs the messages after an
insert or delete; 1.1 outputs ``{success: true}``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.ai.memory.chat_memory import WindowChatMemory
from weft.ai.memory.lc_json import lc_message
from weft.ai.messages import AIMessage, HumanMessage, Message, SystemMessage, ToolMessage
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_MEMORY, MAIN, NodeOutput
from weft.workflow.items import Item

_TYPES = {HumanMessage: "human", AIMessage: "ai", SystemMessage: "system", ToolMessage: "tool"}


def _content(message: Message) -> Any:
    return message.text if isinstance(message, HumanMessage) else message.content


def simplify_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """n8n's ``simplifyMessages``: consecutive messages grouped by type, a new group when a type repeats."""
    result: list[dict[str, Any]] = []
    group: dict[str, Any] = {}
    for message in messages:
        kind = _TYPES[type(message)]
        if kind in group:
            result.append(group)
            group = {}
        group[kind] = _content(message)
    if group:
        result.append(group)
    return result


def _new_message(node: str, entry: Any, item_index: int) -> Message:
    entry = entry if isinstance(entry, dict) else {}
    kind, text = entry.get("type", "system"), entry.get("message", "")
    text = text if isinstance(text, str) else str(text)
    if kind == "user":
        return HumanMessage(content=text)
    if kind == "ai":
        return AIMessage(content=text)
    if kind == "system":
        return SystemMessage(content=text)
    raise NodeOperationError(
        node,
        f"Unknown message type '{kind}'",
        description="Set 'Type' to 'ai', 'system' or 'user'",
        item_index=item_index,
    )


async def _clear(node: str, memory: Any, item_index: int) -> None:
    clear = getattr(memory, "clear", None)
    if callable(clear):
        await clear()
        return
    if isinstance(memory, WindowChatMemory) and type(memory).stored is WindowChatMemory.stored:
        memory.store.clear(memory.session_key)
        return
    raise NodeOperationError(
        node,
        "The connected memory cannot delete messages",
        description="Connect a Simple Memory node to delete or override messages",
        item_index=item_index,
    )


async def _replace(node: str, memory: Any, messages: list[Message], item_index: int) -> None:
    await _clear(node, memory, item_index)
    if messages:
        await memory.append_stored(messages)


async def _delete(ctx: ExecuteContext, memory: Any, messages: list[Message], i: int) -> None:
    if ctx.get_node_parameter("deleteMode", i, "lastN") != "lastN":
        await _clear(ctx.node.name, memory, i)
        return
    count = int(ctx.get_node_parameter("lastMessagesCount", i, 2))
    if len(messages) >= count:
        await _replace(ctx.node.name, memory, messages[: len(messages) - count], i)


async def _insert(ctx: ExecuteContext, memory: Any, i: int) -> None:
    entries = ctx.get_node_parameter("messages.messageValues", i, []) or []
    new = [_new_message(ctx.node.name, entry, i) for entry in entries]
    if ctx.get_node_parameter("insertMode", i, "insert") == "override":
        await _clear(ctx.node.name, memory, i)
    if new:
        await memory.append_stored(new)


def _load_output(ctx: ExecuteContext, messages: list[Message], i: int, version: float) -> list[dict[str, Any]]:
    simplify = bool(ctx.get_node_parameter("simplifyOutput", i, True))
    options = ctx.get_node_parameter("options", i, {}) or {}
    group = options.get("groupMessages")
    if simplify and messages and version == 1:
        simple = simplify_messages(messages)
        return [{"messages": simple, "messagesCount": len(simple)}] if group else simple
    grouped = group is not False and not (group is None and version == 1)
    output: list[Any] = simplify_messages(messages) if simplify else [lc_message(m) for m in messages]
    return [{"messages": output, "messagesCount": len(output)}] if grouped else output


def _items(rows: list[Any], i: int) -> list[Item]:
    return [{"json": row if isinstance(row, dict) else {"data": row}, "pairedItem": {"item": i}} for row in rows]


class MemoryManager(NodeType):
    """Chat Memory Manager: get, insert or delete the messages of the connected memory."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.memoryManager",
        display_name="Chat Memory Manager",
        versions=(1, 1.1),
        description="Manage chat messages memory and use it in the workflow",
        inputs=(MAIN, AI_MEMORY),
        outputs=(MAIN,),
        defaults={
            "mode": "load",
            "insertMode": "insert",
            "deleteMode": "lastN",
            "lastMessagesCount": 2,
            "simplifyOutput": True,
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        mode = ctx.get_node_parameter("mode", 0, "load")
        out: list[Item] = []
        for i in range(len(ctx.get_input_data())):
            memory = await _memory(ctx, i)
            messages: list[Message] = await memory.stored()
            if mode == "load":
                rows = _load_output(ctx, messages, i, version)
                if bool(ctx.get_node_parameter("simplifyOutput", i, True)) and messages and version == 1:
                    return [_items(rows, i)]  # n8n's version 1 returns here, after the first item
                out.extend(_items(rows, i))
                continue
            if mode == "delete":
                await _delete(ctx, memory, messages, i)
            elif mode == "insert":
                await _insert(ctx, memory, i)
            rows = [lc_message(m) for m in await memory.stored()] if version == 1 else [{"success": True}]
            out.extend(_items(rows, i))
        return [out]


async def _memory(ctx: ExecuteContext, item_index: int) -> Any:
    memories = await ctx.get_input_connection_data(AI_MEMORY, item_index)
    if not memories:
        raise NodeOperationError(
            ctx.node.name,
            "A Memory sub-node must be connected",
            description="Connect a memory node (Simple Memory, Postgres Chat Memory) to the 'Memory' input",
        )
    return memories[0]


__all__ = ["MemoryManager", "simplify_messages"]
