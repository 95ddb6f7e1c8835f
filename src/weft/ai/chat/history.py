"""A chat session's stored messages in the shape n8n's chat widget loads (``action: loadPreviousSession``).

n8n answers ``{data: [message.toJSON() …]}`` with LangChain's serialized messages; the widget reads ``id`` (the
class path) and ``kwargs.content``. Only what a user sees is sent: human messages and AI messages with text
(tool calls and tool results stay out).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_CLASSES = {"human": "HumanMessage", "ai": "AIMessage"}


def langchain_messages(messages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stored messages (``weft.ai.messages`` JSON) → LangChain ``toJSON()`` objects, oldest first."""
    out: list[dict[str, Any]] = []
    for message in messages:
        cls = _CLASSES.get(str(message.get("kind")))
        text = _text(message.get("content"))
        if cls is None or not text:
            continue
        out.append(
            {
                "lc": 1,
                "type": "constructor",
                "id": ["langchain_core", "messages", cls],
                "kwargs": {"content": text, "additional_kwargs": {}, "response_metadata": {}},
            }
        )
    return out


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("kind") == "text")
    return ""


__all__ = ["langchain_messages"]
