"""Chat history in the run data as n8n shows it: LangChain's serialized messages.

n8n's memory runs log ``chatHistory`` as LangChain objects (``{"lc": 1, "type": "constructor", "id":
["langchain_core", "messages", "HumanMessage"], "kwargs": {…}}``). A ``saveContext`` run logs the session's own
message array, which JavaScript keeps by reference: when the run data is printed, every ``saveContext`` run of a
session shows the whole history as it stands at the end of the execution (recorded: cases a016, a017, a018).
:func:`live_history` gives that shared list.
"""

from __future__ import annotations

import weakref
from typing import Any

from weft.ai.messages import AIMessage, HumanMessage, Message, SystemMessage, ToolMessage
from weft.nodes.contract import NodeContext

_LC_CLASS = {HumanMessage: "HumanMessage", AIMessage: "AIMessage", SystemMessage: "SystemMessage"}


def _constructor(cls_name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    return {"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", cls_name], "kwargs": kwargs}


def lc_message(message: Message) -> dict[str, Any]:
    """``message`` as LangChain serializes it (``toJSON()``)."""
    if isinstance(message, AIMessage):
        calls = [{"name": c.name, "args": c.args, "id": c.id, "type": "tool_call"} for c in message.tool_calls]
        kwargs: dict[str, Any] = {"content": message.content, "tool_calls": calls, "invalid_tool_calls": []}
        return _constructor("AIMessage", {**kwargs, "additional_kwargs": {}, "response_metadata": {}})
    if isinstance(message, ToolMessage):
        kwargs = {"content": message.content, "tool_call_id": message.tool_call_id, "name": message.name}
        return _constructor("ToolMessage", {**kwargs, "additional_kwargs": {}, "response_metadata": {}})
    content = message.text if isinstance(message, HumanMessage) else message.content
    kwargs = {"content": content, "additional_kwargs": {}, "response_metadata": {}}
    return _constructor(_LC_CLASS[type(message)], kwargs)


def lc_messages(messages: list[Message]) -> list[dict[str, Any]]:
    return [lc_message(m) for m in messages]


class LiveHistory(list[dict[str, Any]]):
    """A session's whole history in LangChain form, shared by every ``saveContext`` run that logs it."""


# One list per execution and session while its run data holds it; the next execution starts from the store.
_LIVE: weakref.WeakValueDictionary[tuple[str | None, int, str], LiveHistory] = weakref.WeakValueDictionary()


def live_history(ctx: NodeContext, session_key: str, stored: list[Message]) -> LiveHistory:
    """The shared history list of ``session_key`` in this execution, created from ``stored`` when none is live."""
    key = (ctx.execution_id, id(ctx.workflow), session_key)
    history = _LIVE.get(key)
    if history is None:
        history = LiveHistory(lc_messages(stored))
        _LIVE[key] = history
    return history


__all__ = ["LiveHistory", "lc_message", "lc_messages", "live_history"]
