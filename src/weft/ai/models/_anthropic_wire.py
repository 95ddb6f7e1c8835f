"""Anthropic Messages wire format: Weft messages to request JSON, SDK responses and stream events back.

System messages go in the separate ``system`` field; tool calls are ``tool_use`` blocks of the assistant turn;
tool results are ``tool_result`` blocks of a user turn (consecutive results share one turn, as the API wants).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from weft.ai.errors import ChatModelResponseError
from weft.ai.messages import (
    AIMessage,
    HumanMessage,
    Message,
    ModelResponse,
    SystemMessage,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolMessage,
    Usage,
)

PROVIDER = "Anthropic"
_FINISH = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "stop_sequence": "stop"}


def tools_json(tools: list[ToolDefinition]) -> list[dict[str, Any]]:
    return [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]


def system_text(messages: list[Message]) -> str:
    return "\n\n".join(m.content for m in messages if isinstance(m, SystemMessage))


def _image_block(url: str) -> dict[str, Any]:
    if url.startswith("data:") and ";base64," in url:
        media_type, data = url[5:].split(";base64,", 1)
        return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}
    return {"type": "image", "source": {"type": "url", "url": url}}


def _user_content(message: HumanMessage) -> str | list[dict[str, Any]]:
    if isinstance(message.content, str):
        return message.content
    return [
        {"type": "text", "text": p.text} if isinstance(p, TextPart) else _image_block(p.url) for p in message.content
    ]


def _assistant_content(message: AIMessage) -> str | list[dict[str, Any]]:
    if not message.tool_calls:
        return message.content
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.content}] if message.content else []
    blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.args} for c in message.tool_calls]
    return blocks


def messages_json(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, SystemMessage):
            continue
        if isinstance(m, ToolMessage):
            block = {"type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content}
            previous = out[-1] if out else None
            if previous and previous["role"] == "user" and _is_tool_results(previous["content"]):
                previous["content"].append(block)
            else:
                out.append({"role": "user", "content": [block]})
        elif isinstance(m, HumanMessage):
            out.append({"role": "user", "content": _user_content(m)})
        else:
            out.append({"role": "assistant", "content": _assistant_content(m)})
    return out


def _is_tool_results(content: Any) -> bool:
    return isinstance(content, list) and all(b.get("type") == "tool_result" for b in content)


def _usage(data: dict[str, Any] | None) -> Usage:
    data = data or {}
    return Usage(input_tokens=int(data.get("input_tokens") or 0), output_tokens=int(data.get("output_tokens") or 0))


def from_sdk_message(message: Any) -> ModelResponse:
    """An Anthropic ``Message`` (SDK object) as a :class:`ModelResponse`."""
    data: dict[str, Any] = message.model_dump()
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in data.get("content") or []:
        if block.get("type") == "text":
            texts.append(block.get("text") or "")
        elif block.get("type") == "tool_use":
            calls.append(ToolCall(id=str(block["id"]), name=str(block["name"]), args=dict(block.get("input") or {})))
    stop = data.get("stop_reason")
    return ModelResponse(
        message=AIMessage(content="".join(texts), tool_calls=calls),
        usage=_usage(data.get("usage")),
        raw_model_name=data.get("model"),
        finish_reason=_FINISH.get(stop or "", stop),
    )


@dataclass
class StreamAccumulator:
    """Builds the response from raw stream events; ``add`` returns the event's text delta."""

    blocks: dict[int, dict[str, Any]] = field(default_factory=dict)
    model: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    stop_reason: str | None = None

    def add(self, event: Any) -> str:
        data: dict[str, Any] = event.model_dump()
        kind = data.get("type")
        if kind == "message_start":
            message = data.get("message") or {}
            self.model = message.get("model")
            self.input_tokens = int((message.get("usage") or {}).get("input_tokens") or 0)
        elif kind == "content_block_start":
            block = dict(data.get("content_block") or {})
            block.setdefault("text", "")
            block["partial_json"] = ""
            self.blocks[int(data.get("index") or 0)] = block
        elif kind == "content_block_delta":
            return self._delta(int(data.get("index") or 0), data.get("delta") or {})
        elif kind == "message_delta":
            self.stop_reason = (data.get("delta") or {}).get("stop_reason") or self.stop_reason
            self.output_tokens = int((data.get("usage") or {}).get("output_tokens") or self.output_tokens)
        return ""

    def _delta(self, index: int, delta: dict[str, Any]) -> str:
        block = self.blocks.setdefault(index, {"type": "text", "text": "", "partial_json": ""})
        if delta.get("type") == "text_delta":
            block["text"] += delta.get("text") or ""
            return str(delta.get("text") or "")
        if delta.get("type") == "input_json_delta":
            block["partial_json"] += delta.get("partial_json") or ""
        return ""

    def response(self) -> ModelResponse:
        texts: list[str] = []
        calls: list[ToolCall] = []
        for _, block in sorted(self.blocks.items()):
            if block.get("type") == "text":
                texts.append(block["text"])
            elif block.get("type") == "tool_use":
                calls.append(ToolCall(id=block["id"], name=block["name"], args=_stream_args(block)))
        return ModelResponse(
            message=AIMessage(content="".join(texts), tool_calls=calls),
            usage=Usage(input_tokens=self.input_tokens, output_tokens=self.output_tokens),
            raw_model_name=self.model,
            finish_reason=_FINISH.get(self.stop_reason or "", self.stop_reason),
        )


def _stream_args(block: dict[str, Any]) -> dict[str, Any]:
    raw = block.get("partial_json") or ""
    if not raw:
        return dict(block.get("input") or {})
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ChatModelResponseError(
            f"The model called tool {block.get('name')!r} with arguments that are not JSON: {raw[:200]!r}.",
            provider=PROVIDER,
        ) from exc
    return value if isinstance(value, dict) else {}
