"""Provider-neutral chat messages, tool definitions and model responses.

Every type is a frozen, keyword-only dataclass whose JSON form carries a ``kind`` discriminator, so a
conversation can be stored in engine-request metadata or in chat memory and read back unchanged::

    >>> msg = AIMessage(content="", tool_calls=[ToolCall(id="call_1", name="Calculator", args={"input": "1+1"})])
    >>> message_from_json(msg.to_json()) == msg
    True

The ``kind`` values (``system``, ``human``, ``ai``, ``tool``) are LangChain's message types, which n8n
uses in its memory and logs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from weft.ai.errors import MessageFormatError

JsonDict: TypeAlias = dict[str, Any]


# --------------------------------------------------------------------------- content parts


@dataclass(frozen=True, kw_only=True)
class TextPart:
    """A piece of text inside a multi-part human message."""

    text: str
    kind: Literal["text"] = "text"

    def to_json(self) -> JsonDict:
        return {"kind": self.kind, "text": self.text}


@dataclass(frozen=True, kw_only=True)
class ImagePart:
    """An image inside a human message: a ``data:`` URL (n8n's binary passthrough) or an ``https:`` URL."""

    url: str
    detail: Literal["auto", "low", "high"] = "auto"
    kind: Literal["image"] = "image"

    def to_json(self) -> JsonDict:
        return {"kind": self.kind, "url": self.url, "detail": self.detail}


ContentPart: TypeAlias = TextPart | ImagePart


def _part_from_json(data: Mapping[str, Any]) -> ContentPart:
    kind = data.get("kind")
    if kind == "text":
        return TextPart(text=str(data.get("text", "")))
    if kind == "image":
        return ImagePart(url=str(data["url"]), detail=data.get("detail", "auto"))
    raise MessageFormatError(f"Unknown content part kind {kind!r}; expected 'text' or 'image'.")


# --------------------------------------------------------------------------- tool calls and definitions


@dataclass(frozen=True, kw_only=True)
class ToolCall:
    """The model asks for one tool to be run."""

    id: str
    """The provider's call id (``call_…``, ``toolu_…``); the tool result must quote it."""
    name: str
    """The tool's name as offered in :class:`ToolDefinition`."""
    args: dict[str, Any] = field(default_factory=dict)
    """Parsed arguments."""

    def to_json(self) -> JsonDict:
        return {"id": self.id, "name": self.name, "args": self.args}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ToolCall:
        return cls(id=str(data["id"]), name=str(data["name"]), args=dict(data.get("args") or {}))


@dataclass(frozen=True, kw_only=True)
class ToolDefinition:
    """A tool offered to the model."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})
    """JSON Schema of the arguments (an ``object`` schema)."""

    def to_json(self) -> JsonDict:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ToolDefinition:
        return cls(
            name=str(data["name"]),
            description=str(data.get("description", "")),
            parameters=dict(data.get("parameters") or {"type": "object", "properties": {}}),
        )


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True, kw_only=True)
class SystemMessage:
    """Instructions for the model (the agent's system message)."""

    content: str
    kind: Literal["system"] = "system"

    def to_json(self) -> JsonDict:
        return {"kind": self.kind, "content": self.content}


@dataclass(frozen=True, kw_only=True)
class HumanMessage:
    """The user's turn: plain text, or text and images."""

    content: str | list[ContentPart]
    kind: Literal["human"] = "human"

    @property
    def text(self) -> str:
        """The text of the message, parts joined by newlines."""
        if isinstance(self.content, str):
            return self.content
        return "\n".join(p.text for p in self.content if isinstance(p, TextPart))

    def to_json(self) -> JsonDict:
        content: Any = self.content if isinstance(self.content, str) else [p.to_json() for p in self.content]
        return {"kind": self.kind, "content": content}


@dataclass(frozen=True, kw_only=True)
class AIMessage:
    """The model's turn: text, tool calls, or both."""

    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    kind: Literal["ai"] = "ai"

    def to_json(self) -> JsonDict:
        return {"kind": self.kind, "content": self.content, "tool_calls": [c.to_json() for c in self.tool_calls]}


@dataclass(frozen=True, kw_only=True)
class ToolMessage:
    """A tool's result, answering the tool call ``tool_call_id``."""

    tool_call_id: str
    name: str
    """The tool's name (Anthropic and logs need it; OpenAI ignores it)."""
    content: str
    """The tool output as sent to the model (n8n sends the tool node's items JSON-stringified)."""
    kind: Literal["tool"] = "tool"

    def to_json(self) -> JsonDict:
        return {"kind": self.kind, "tool_call_id": self.tool_call_id, "name": self.name, "content": self.content}


Message: TypeAlias = SystemMessage | HumanMessage | AIMessage | ToolMessage


def message_from_json(data: Mapping[str, Any]) -> Message:
    """Read a message written by ``to_json``; the ``kind`` key selects the type."""
    kind = data.get("kind")
    if kind == "system":
        return SystemMessage(content=str(data.get("content", "")))
    if kind == "human":
        raw = data.get("content", "")
        content: str | list[ContentPart] = raw if isinstance(raw, str) else [_part_from_json(p) for p in raw]
        return HumanMessage(content=content)
    if kind == "ai":
        calls = [ToolCall.from_json(c) for c in data.get("tool_calls") or []]
        return AIMessage(content=str(data.get("content") or ""), tool_calls=calls)
    if kind == "tool":
        return ToolMessage(
            tool_call_id=str(data["tool_call_id"]), name=str(data.get("name", "")), content=str(data["content"])
        )
    raise MessageFormatError(f"Unknown message kind {kind!r}; expected 'system', 'human', 'ai' or 'tool'.")


def messages_to_json(messages: Iterable[Message]) -> list[JsonDict]:
    return [m.to_json() for m in messages]


def messages_from_json(data: Iterable[Mapping[str, Any]]) -> list[Message]:
    return [message_from_json(d) for d in data]


# --------------------------------------------------------------------------- responses


@dataclass(frozen=True, kw_only=True)
class Usage:
    """Tokens spent on one model call (0 when the provider did not say)."""

    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def to_json(self) -> JsonDict:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Usage:
        return cls(input_tokens=int(data.get("input_tokens", 0)), output_tokens=int(data.get("output_tokens", 0)))


@dataclass(frozen=True, kw_only=True)
class ModelResponse:
    """What one ``ChatModel.generate`` call returns."""

    message: AIMessage
    usage: Usage = field(default_factory=Usage)
    raw_model_name: str | None = None
    """The model that answered, as the provider named it (``gpt-4o-mini-2024-07-18``)."""
    finish_reason: str | None = None
    """Why the model stopped, normalized: ``stop``, ``tool_calls``, ``length`` or the provider's own word."""

    def to_json(self) -> JsonDict:
        return {
            "kind": "model_response",
            "message": self.message.to_json(),
            "usage": self.usage.to_json(),
            "raw_model_name": self.raw_model_name,
            "finish_reason": self.finish_reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ModelResponse:
        message = message_from_json(data["message"])
        if not isinstance(message, AIMessage):
            raise MessageFormatError(f"A model response holds an 'ai' message, not {message.kind!r}.")
        return cls(
            message=message,
            usage=Usage.from_json(data.get("usage") or {}),
            raw_model_name=data.get("raw_model_name"),
            finish_reason=data.get("finish_reason"),
        )


# --------------------------------------------------------------------------- helpers


def last_human_text(messages: Sequence[Message]) -> str:
    """The text of the last human message ('' when there is none)."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message.text
    return ""


def trailing_tool_messages(messages: Sequence[Message]) -> list[ToolMessage]:
    """The tool results at the end of the conversation (the answers to the model's last tool calls)."""
    tail: list[ToolMessage] = []
    for message in reversed(messages):
        if not isinstance(message, ToolMessage):
            break
        tail.append(message)
    return list(reversed(tail))


def estimate_tokens(text: str) -> int:
    """A deterministic token estimate (about four characters per token), for traces and fake models."""
    return (len(text) + 3) // 4


def buffer_string(messages: Sequence[Message]) -> str:
    """The conversation as one string, like LangChain's ``getBufferString`` (n8n logs prompts this way)."""
    lines: list[str] = []
    for m in messages:
        if isinstance(m, SystemMessage):
            lines.append(f"System: {m.content}")
        elif isinstance(m, HumanMessage):
            # LangChain's getBufferString: parts joined as they are, an image as "[image]" (case a303)
            text = m.content if isinstance(m.content, str) else "".join(_part_text(p) for p in m.content)
            lines.append(f"Human: {text}")
        elif isinstance(m, AIMessage):
            calls = json.dumps([c.to_json() for c in m.tool_calls]) if m.tool_calls else ""
            lines.append(f"AI: {m.content}{calls}")
        else:
            lines.append(f"Tool: {m.content}")
    return "\n".join(lines)


def _part_text(part: ContentPart) -> str:
    return part.text if isinstance(part, TextPart) else "[image]"


__all__ = [
    "AIMessage",
    "ContentPart",
    "HumanMessage",
    "ImagePart",
    "Message",
    "ModelResponse",
    "SystemMessage",
    "TextPart",
    "ToolCall",
    "ToolDefinition",
    "ToolMessage",
    "Usage",
    "buffer_string",
    "estimate_tokens",
    "last_human_text",
    "message_from_json",
    "messages_from_json",
    "messages_to_json",
    "trailing_tool_messages",
]
