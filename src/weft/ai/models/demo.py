"""``DemoChatModel``: a keyless model that makes agent demos do something sensible.

On the user's turn it calls every tool whose name or description shares a word with the prompt (case-insensitive,
words of three letters or more, common filler words ignored), filling the arguments from the tool's JSON
schema: string properties get the prompt, numbers the first number in it. When the tool results come back it
answers ``Based on the tools: <tool> returned <result>; <tool2> returned <result2>.``. With no matching tool it
answers ``You said: <prompt>``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from weft.ai.messages import (
    AIMessage,
    Message,
    ModelResponse,
    ToolCall,
    ToolDefinition,
    ToolMessage,
    last_human_text,
    trailing_tool_messages,
)
from weft.ai.models.base import StreamCallback
from weft.ai.models.scripted import respond

#: Words too common to say anything about a tool.
STOP_WORDS = frozenset(
    "the and for you your with this that are was what use useful tool tools from into get getting can how who "
    "when which about its has have not but all any our out via using used will please give tell".split()
)

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD = re.compile(r"[A-Za-z0-9]+")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def words(text: str) -> set[str]:
    """The significant words of ``text``: camelCase and snake_case split, lower-cased, ≥ 3 letters, no filler."""
    found = set()
    for raw in _WORD.findall(_CAMEL.sub(" ", text)):
        word = raw.lower()
        if len(word) >= 3 and word not in STOP_WORDS:
            found.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return found


def matching_tools(prompt: str, tools: Sequence[ToolDefinition]) -> list[ToolDefinition]:
    """The tools sharing a significant word with ``prompt``, in the order offered."""
    asked = words(prompt)
    return [t for t in tools if asked & (words(t.name) | words(t.description))]


def _value_for(schema: dict[str, Any], prompt: str) -> Any:
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind in ("number", "integer"):
        found = _NUMBER.search(prompt)
        number = float(found.group()) if found else 0.0
        return int(number) if kind == "integer" else number
    if kind == "boolean":
        return True
    if kind == "array":
        return [_value_for(schema.get("items") or {"type": "string"}, prompt)]
    if kind == "object":
        return arguments_for(schema, prompt)
    return prompt


def arguments_for(schema: dict[str, Any], prompt: str) -> dict[str, Any]:
    """Arguments for a tool with JSON schema ``schema``, built from the prompt."""
    properties = schema.get("properties") or {}
    return {name: _value_for(sub if isinstance(sub, dict) else {}, prompt) for name, sub in properties.items()}


def _tool_name(result: ToolMessage, messages: Sequence[Message]) -> str:
    if result.name:
        return result.name
    for message in reversed(messages):
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                if call.id == result.tool_call_id:
                    return call.name
    return result.tool_call_id


class DemoChatModel:
    """The book's mock model (see the module docstring); needs no key and no network."""

    def __init__(self, *, model_name: str = "weft-demo") -> None:
        self.model_name = model_name

    def reply(self, messages: Sequence[Message], tools: Sequence[ToolDefinition]) -> AIMessage:
        """The assistant message for this conversation (no streaming, no usage)."""
        results = trailing_tool_messages(messages)
        if results:
            said = "; ".join(f"{_tool_name(r, messages)} returned {r.content}" for r in results)
            return AIMessage(content=f"Based on the tools: {said}.")
        prompt = last_human_text(messages)
        chosen = matching_tools(prompt, tools)
        if not chosen:
            return AIMessage(content=f"You said: {prompt}")
        first = sum(len(m.tool_calls) for m in messages if isinstance(m, AIMessage)) + 1
        calls = [
            ToolCall(id=f"call_{first + i}", name=t.name, args=arguments_for(t.parameters, prompt))
            for i, t in enumerate(chosen)
        ]
        return AIMessage(content="", tool_calls=calls)

    async def generate(
        self,
        messages: list[Message],
        tools: list[ToolDefinition],
        *,
        stream_callback: StreamCallback | None = None,
    ) -> ModelResponse:
        message = self.reply(messages, tools)
        return await respond(message, messages, model_name=self.model_name, stream_callback=stream_callback)


__all__ = ["STOP_WORDS", "DemoChatModel", "arguments_for", "matching_tools", "words"]
