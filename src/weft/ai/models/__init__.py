"""Chat models: the :class:`ChatModel` protocol, provider adapters and the tracing wrapper.

Adapters import their SDK on first use of this package's attribute, so ``import weft.ai.models`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from weft.ai.models.base import NO_RETRIES, ChatModel, RetryPolicy, StreamCallback, with_retries

if TYPE_CHECKING:
    from weft.ai.models.anthropic import AnthropicChatModel, AnthropicSettings
    from weft.ai.models.ollama import OllamaChatModel
    from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
    from weft.ai.models.traced import TracedChatModel

_LAZY = {
    "AnthropicChatModel": "weft.ai.models.anthropic",
    "AnthropicSettings": "weft.ai.models.anthropic",
    "OllamaChatModel": "weft.ai.models.ollama",
    "OpenAIChatModel": "weft.ai.models.openai",
    "OpenAISettings": "weft.ai.models.openai",
    "TracedChatModel": "weft.ai.models.traced",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'weft.ai.models' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "NO_RETRIES",
    "AnthropicChatModel",
    "AnthropicSettings",
    "ChatModel",
    "OllamaChatModel",
    "OpenAIChatModel",
    "OpenAISettings",
    "RetryPolicy",
    "StreamCallback",
    "TracedChatModel",
    "with_retries",
]
