"""OpenAI wire format: Weft messages to request JSON, and SDK responses back to Weft types.

Requests are shaped like the ones n8n (LangChain's ``ChatOpenAI``) sends: tools as
``{type: "function", function: {name, description, parameters, strict: false}}`` (n8n sets
``supportsStrictToolCalling: false``, which LangChain writes into ``function.strict``), assistant turns re-sent
with ``tool_calls``, and tool results as ``{role: "tool", tool_call_id, content}``. SDK objects are read
through ``model_dump()`` at this edge, so no SDK type leaves the module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from weft.ai.errors import ChatModelResponseError
from weft.ai.messages import (
    AIMessage,
    HumanMessage,
    ImagePart,
    Message,
    ModelResponse,
    SystemMessage,
    TextPart,
    ToolCall,
    ToolDefinition,
    Usage,
)
from weft.workflow.jsjson import js_json

PROVIDER = "OpenAI"


def parse_arguments(raw: str | None, tool_name: str) -> dict[str, Any]:
    """Tool-call arguments as a dict; the model's JSON string must hold an object."""
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ChatModelResponseError(
            f"The model called tool {tool_name!r} with arguments that are not JSON ({exc.msg}): {raw[:200]!r}. "
            "Use a model that supports tool calling, or lower the temperature.",
            provider=PROVIDER,
        ) from exc
    if not isinstance(value, dict):
        raise ChatModelResponseError(
            f"The model called tool {tool_name!r} with arguments {raw[:200]!r}, which is not a JSON object.",
            provider=PROVIDER,
        )
    return value


# --------------------------------------------------------------------------- chat completions: request


def chat_tools(tools: list[ToolDefinition]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters, "strict": False},
        }
        for t in tools
    ]


def _chat_content(message: HumanMessage) -> str | list[dict[str, Any]]:
    if isinstance(message.content, str):
        return message.content
    parts: list[dict[str, Any]] = []
    for part in message.content:
        if isinstance(part, TextPart):
            parts.append({"type": "text", "text": part.text})
        else:
            image = {"url": part.url} if part.detail == "auto" else {"url": part.url, "detail": part.detail}
            parts.append({"type": "image_url", "image_url": image})
    return parts


def _chat_tool_call(call: ToolCall) -> dict[str, Any]:
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": js_json(call.args)}}


def chat_messages(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, SystemMessage):
            out.append({"role": "system", "content": m.content})
        elif isinstance(m, HumanMessage):
            out.append({"role": "user", "content": _chat_content(m)})
        elif isinstance(m, AIMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": m.content}
            if m.tool_calls:
                entry["tool_calls"] = [_chat_tool_call(c) for c in m.tool_calls]
            out.append(entry)
        else:
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content})
    return out


# --------------------------------------------------------------------------- chat completions: response


def _usage(data: dict[str, Any] | None, input_key: str, output_key: str) -> Usage:
    data = data or {}
    return Usage(input_tokens=int(data.get(input_key) or 0), output_tokens=int(data.get(output_key) or 0))


def from_sdk_chat_completion(completion: Any) -> ModelResponse:
    """A ``ChatCompletion`` (SDK object) as a :class:`ModelResponse`."""
    data: dict[str, Any] = completion.model_dump()
    choices = data.get("choices") or []
    if not choices:
        raise ChatModelResponseError(
            "The model answered without any choice; check the server's logs.", provider=PROVIDER
        )
    choice = choices[0]
    message = choice.get("message") or {}
    calls = [
        ToolCall(
            id=str(c.get("id") or ""),
            name=c["function"]["name"],
            args=parse_arguments(c["function"].get("arguments"), c["function"]["name"]),
        )
        for c in message.get("tool_calls") or []
    ]
    return ModelResponse(
        message=AIMessage(content=message.get("content") or "", tool_calls=calls),
        usage=_usage(data.get("usage"), "prompt_tokens", "completion_tokens"),
        raw_model_name=data.get("model"),
        finish_reason=choice.get("finish_reason"),
    )


@dataclass
class ChatStreamAccumulator:
    """Builds the whole response from ``ChatCompletionChunk``s; ``add`` returns the chunk's text delta."""

    text: list[str] = field(default_factory=list)
    calls: dict[int, dict[str, str]] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    model: str | None = None
    finish_reason: str | None = None

    def add(self, chunk: Any) -> str:
        data: dict[str, Any] = chunk.model_dump()
        self.model = data.get("model") or self.model
        if data.get("usage"):
            self.usage = _usage(data["usage"], "prompt_tokens", "completion_tokens")
        delta_text = ""
        for choice in data.get("choices") or []:
            delta = choice.get("delta") or {}
            delta_text += delta.get("content") or ""
            for call in delta.get("tool_calls") or []:
                slot = self.calls.setdefault(int(call.get("index") or 0), {"id": "", "name": "", "arguments": ""})
                function = call.get("function") or {}
                slot["id"] = call.get("id") or slot["id"]
                slot["name"] += function.get("name") or ""
                slot["arguments"] += function.get("arguments") or ""
            self.finish_reason = choice.get("finish_reason") or self.finish_reason
        if delta_text:
            self.text.append(delta_text)
        return delta_text

    def response(self) -> ModelResponse:
        calls = [
            ToolCall(id=c["id"], name=c["name"], args=parse_arguments(c["arguments"], c["name"]))
            for _, c in sorted(self.calls.items())
        ]
        return ModelResponse(
            message=AIMessage(content="".join(self.text), tool_calls=calls),
            usage=self.usage,
            raw_model_name=self.model,
            finish_reason=self.finish_reason,
        )


# --------------------------------------------------------------------------- responses API


def responses_tools(tools: list[ToolDefinition]) -> list[dict[str, Any]]:
    return [
        {"type": "function", "name": t.name, "description": t.description, "parameters": t.parameters, "strict": False}
        for t in tools
    ]


def _responses_content(message: HumanMessage) -> str | list[dict[str, Any]]:
    if isinstance(message.content, str):
        return message.content
    return [
        {"type": "input_text", "text": p.text}
        if isinstance(p, TextPart)
        else {"type": "input_image", "image_url": p.url, "detail": p.detail}
        for p in message.content
        if isinstance(p, TextPart | ImagePart)
    ]


def responses_input(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, SystemMessage):
            out.append({"type": "message", "role": "system", "content": m.content})
        elif isinstance(m, HumanMessage):
            out.append({"type": "message", "role": "user", "content": _responses_content(m)})
        elif isinstance(m, AIMessage):
            if m.content:
                text = {"type": "output_text", "text": m.content, "annotations": []}
                out.append({"type": "message", "role": "assistant", "content": [text]})
            for c in m.tool_calls:
                out.append({"type": "function_call", "call_id": c.id, "name": c.name, "arguments": js_json(c.args)})
        else:
            out.append({"type": "function_call_output", "call_id": m.tool_call_id, "output": m.content})
    return out


def from_sdk_response(response: Any) -> ModelResponse:
    """A Responses-API ``Response`` (SDK object) as a :class:`ModelResponse`."""
    data: dict[str, Any] = response.model_dump()
    texts: list[str] = []
    calls: list[ToolCall] = []
    for item in data.get("output") or []:
        if item.get("type") == "message":
            texts.extend(p.get("text") or "" for p in item.get("content") or [] if p.get("type") == "output_text")
        elif item.get("type") == "function_call":
            args = parse_arguments(item.get("arguments"), item["name"])
            calls.append(ToolCall(id=str(item.get("call_id") or item.get("id") or ""), name=item["name"], args=args))
    status = data.get("status")
    finish = "tool_calls" if calls else ("stop" if status == "completed" else status)
    return ModelResponse(
        message=AIMessage(content="".join(texts), tool_calls=calls),
        usage=_usage(data.get("usage"), "input_tokens", "output_tokens"),
        raw_model_name=data.get("model"),
        finish_reason=finish,
    )
