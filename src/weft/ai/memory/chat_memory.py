"""The memory object a memory sub-node supplies to the agent: ``load()`` the window, ``save()`` a finished turn.

Each call is recorded as a run of the memory node, like n8n's ``logWrapper`` does (``inputOverride`` holds
``{action: "loadMemoryVariables"}`` or ``{action: "saveContext", …}``); the logged ``chatHistory`` is in
LangChain's form, see :mod:`weft.ai.memory.lc_json`.
"""

from __future__ import annotations

from typing import Any

from weft.ai.memory.lc_json import lc_messages, live_history
from weft.ai.messages import AIMessage, HumanMessage, Message, messages_from_json, messages_to_json
from weft.nodes.contract import ChatMemoryStore, SupplyDataContext
from weft.workflow import AI_MEMORY


def window_by_turns(messages: list[Message], turns: int) -> list[Message]:
    """The last ``turns`` conversation turns, each starting at a human message.

    n8n's buffer window keeps the last ``2 * k`` messages; with tool calls and results kept in memory that would
    cut a turn in half (a tool result without its call), so Weft counts whole turns instead.
    """
    if turns <= 0:
        return []
    starts = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    if len(starts) <= turns:
        return messages[starts[0] :] if starts else []
    return messages[starts[-turns] :]


class WindowChatMemory:
    """A session's chat history over a :class:`ChatMemoryStore`, windowed to the last ``turns`` turns."""

    def __init__(self, ctx: SupplyDataContext, store: ChatMemoryStore, session_key: str, turns: int) -> None:
        self._ctx = ctx
        self.store = store
        self.session_key = session_key
        self.turns = turns
        self._history: list[Message] = []

    async def stored(self) -> list[Message]:
        """The session's whole stored history, oldest first (a subclass may read another backend)."""
        return messages_from_json(self.store.load(self.session_key))

    async def append_stored(self, messages: list[Message]) -> None:
        """Append ``messages`` to the session's stored history."""
        self.store.append(self.session_key, messages_to_json(messages))

    async def load(self) -> list[Message]:
        """The windowed history (oldest first), recorded as a ``loadMemoryVariables`` run."""
        run = self._ctx.add_input_data(AI_MEMORY, [[{"json": {"action": "loadMemoryVariables", "values": {}}}]])
        stored = await self.stored()
        self._history = window_by_turns(stored, self.turns)
        output = {"action": "loadMemoryVariables", "chatHistory": lc_messages(self._history)}
        self._ctx.add_output_data(AI_MEMORY, run, [[{"json": output}]])
        return list(self._history)

    async def save(self, messages: list[Message], *, logged: bool = True) -> None:
        """Append a finished turn (``[Human, AI(tool_calls), Tool, …, AI(final)]``), recorded as ``saveContext``.

        ``logged=False`` records no run: n8n adds a turn that used tools straight to the chat history
        (``chatHistory.addMessages``), past its logging wrapper (recorded: case a038).
        """
        # the session's whole history, shared by every saveContext run of the session (as n8n logs it)
        history = live_history(self._ctx, self.session_key, await self.stored())
        run = self._ctx.add_input_data(AI_MEMORY, [[{"json": save_action(messages)}]]) if logged else None
        await self.append_stored(messages)
        history.extend(lc_messages(messages))
        if run is not None:
            self._ctx.add_output_data(AI_MEMORY, run, [[{"json": {"action": "saveContext", "chatHistory": history}}]])


def save_action(messages: list[Message]) -> dict[str, Any]:
    """The ``saveContext`` run's input: the turn's human text and final answer."""
    human = next((m.text for m in messages if isinstance(m, HumanMessage)), "")
    final = next((m.content for m in reversed(messages) if isinstance(m, AIMessage)), "")
    return {"action": "saveContext", "input": {"input": human}, "output": {"output": final}}


__all__ = ["WindowChatMemory", "save_action", "window_by_turns"]
