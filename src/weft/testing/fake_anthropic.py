"""``FakeAnthropicServer``: a scripted Anthropic Messages endpoint (``POST /v1/messages``, JSON or SSE).

Same script format and request recording as :class:`~weft.testing.fake_openai.FakeOpenAIServer`; tool-use ids
are ``toolu_1``, ``toolu_2`` …::

    with FakeAnthropicServer([{"tool": "Calculator", "args": {"input": "2+2"}}, "It is 4"]) as server:
        model = AnthropicChatModel(AnthropicSettings(model="claude-x", base_url=server.base_url))
"""

from __future__ import annotations

import json
from typing import Any

from weft.ai.messages import HumanMessage, Message, ToolMessage, estimate_tokens
from weft.ai.models._turns import ScriptedTurn, render
from weft.ai.models.scripted import split_text
from weft.testing._fake_http import FakeServerBase, Reply

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    529: "overloaded_error",
}


def _conversation(body: dict[str, Any]) -> list[Message]:
    out: list[Message] = []
    for m in body.get("messages") or []:
        content = m.get("content")
        if m.get("role") != "user":
            continue
        if isinstance(content, str):
            out.append(HumanMessage(content=content))
            continue
        for block in content or []:
            if block.get("type") == "tool_result":
                out.append(
                    ToolMessage(tool_call_id=block.get("tool_use_id", ""), name="", content=str(block.get("content")))
                )
            elif block.get("type") == "text":
                out.append(HumanMessage(content=block.get("text") or ""))
    return out


class FakeAnthropicServer(FakeServerBase):
    """A scripted Anthropic Messages API server."""

    name = "FakeAnthropicServer"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``: the ``anthropicApi`` credential's URL (the SDK adds ``/v1``)."""
        return self.root_url

    def route(self, method: str, path: str, body: dict[str, Any]) -> Reply:
        if not path.endswith("/v1/messages"):
            return Reply(status=404, body=_error(404, f"Unknown path {path}"))
        turn = self._take_turn()
        if turn is None:
            reply = self.exhausted_reply(path)
            return Reply(status=500, body=_error(500, str((reply.body or {}).get("error", {}).get("message"))))
        if turn.error is not None:
            return Reply(status=turn.error, body=_error(turn.error, turn.error_message), delay=turn.delay)
        reply = self._message(body, turn)
        reply.delay = turn.delay
        return reply

    def _message(self, body: dict[str, Any], turn: ScriptedTurn) -> Reply:
        conversation = _conversation(body)
        text = str(render(turn.text, conversation))
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        for call in turn.tool_calls:
            args = render(call.args, conversation)
            content.append(
                {"type": "tool_use", "id": call.id or self.next_id("toolu"), "name": call.name, "input": args}
            )
        tokens_in = turn.usage.input_tokens if turn.usage else estimate_tokens(json.dumps(body.get("messages")))
        tokens_out = turn.usage.output_tokens if turn.usage else estimate_tokens(json.dumps(content))
        message = {
            "id": self.next_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": str(body.get("model") or "fake-claude"),
            "content": content,
            "stop_reason": "tool_use" if turn.tool_calls else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
        }
        if not body.get("stream"):
            return Reply(body=message)
        return Reply(events=_stream_events(message))


def _stream_events(message: dict[str, Any]) -> list[tuple[str | None, str]]:
    events: list[tuple[str | None, str]] = []

    def add(kind: str, **data: Any) -> None:
        events.append((kind, json.dumps({"type": kind, **data})))

    usage = message["usage"]
    start = {
        **message,
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": usage["input_tokens"], "output_tokens": 1},
    }
    add("message_start", message=start)
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            add("content_block_start", index=index, content_block={"type": "text", "text": ""})
            for piece in split_text(block["text"]):
                add("content_block_delta", index=index, delta={"type": "text_delta", "text": piece})
        else:
            add("content_block_start", index=index, content_block={**block, "input": {}})
            partial = json.dumps(block["input"])
            add("content_block_delta", index=index, delta={"type": "input_json_delta", "partial_json": partial})
        add("content_block_stop", index=index)
    add(
        "message_delta",
        delta={"stop_reason": message["stop_reason"], "stop_sequence": None},
        usage={"output_tokens": usage["output_tokens"]},
    )
    add("message_stop")
    return events


def _error(status: int, message: str) -> dict[str, Any]:
    kind = _ERROR_TYPES.get(status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": message or kind.replace("_", " ")}}


__all__ = ["FakeAnthropicServer", "ScriptedTurn"]
