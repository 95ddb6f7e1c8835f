"""AI node types. ``CATALOG`` lists the chat-model nodes for the ``weft.nodes`` entry point.

Register it in ``pyproject.toml``::

    [project.entry-points."weft.nodes"]
    ai-models = "weft.ai.nodes:CATALOG"
"""

from __future__ import annotations

_LC = "@n8n/n8n-nodes-langchain."

#: ``{type name: "module:Class"}`` of the chat-model node types (imported on first use).
CATALOG: dict[str, str] = {
    _LC + "lmChatOpenAi": "weft.ai.nodes.lm_chat_openai:LmChatOpenAi",
    _LC + "lmChatAnthropic": "weft.ai.nodes.lm_chat_anthropic:LmChatAnthropic",
    _LC + "lmChatOllama": "weft.ai.nodes.lm_chat_ollama:LmChatOllama",
    "weft.lmChatScripted": "weft.ai.nodes.lm_chat_scripted:LmChatScripted",
    "weft.lmChatDemo": "weft.ai.nodes.lm_chat_demo:LmChatDemo",
}

__all__ = ["CATALOG"]
