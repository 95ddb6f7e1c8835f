"""``FakeOpenAIServer``: a scripted OpenAI-compatible HTTP server on 127.0.0.1 for tests and demos.

It speaks ``POST /v1/chat/completions`` (JSON, or SSE with ``stream: true``), ``POST /v1/responses`` (JSON or
SSE) and ``GET /v1/models``, answers each request with the next scripted turn, and records every request::

    with FakeOpenAIServer([{"tool": "Calculator", "args": {"input": "2+2"}}, "It is {{last_tool_result}}"]) as server:
        model = OpenAIChatModel(OpenAISettings(model="gpt-4o-mini", base_url=server.base_url))
        ...
        assert server.requests[1].body["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": "4"}

Tool-call ids are ``call_1``, ``call_2`` … in the order the server hands them out. Error turns
(``{"error": 429}``) answer with OpenAI's error JSON; ``{"delay": s}`` holds the answer back.
"""

from __future__ import annotations

import json
import time
from typing import Any

from weft.ai.messages import HumanMessage, Message, ToolMessage, estimate_tokens
from weft.ai.models._turns import ScriptedTurn, render
from weft.ai.models.scripted import split_text
from weft.testing._fake_http import FakeServerBase, Reply

_ERROR_DEFAULTS: dict[int, tuple[str, str, str | None]] = {
    400: ("Invalid request.", "invalid_request_error", None),
    401: ("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"),
    403: ("You are not allowed to use this model.", "invalid_request_error", None),
    404: ("The model does not exist.", "invalid_request_error", "model_not_found"),
    429: ("Rate limit reached for requests.", "requests", "rate_limit_exceeded"),
    500: ("The server had an error while processing your request.", "server_error", None),
}


def error_body(turn: ScriptedTurn) -> dict[str, Any]:
    """OpenAI's error JSON for an error turn."""
    status = turn.error or 500
    message, kind, code = _ERROR_DEFAULTS.get(status, ("Error.", "server_error", None))
    return {
        "error": {
            "message": turn.error_message or message,
            "type": kind,
            "param": None,
            "code": turn.error_code or code,
        }
    }


def _conversation(body: dict[str, Any]) -> list[Message]:
    """Just enough of the request as Weft messages to fill the script's templates."""
    out: list[Message] = []
    for m in body.get("messages") or []:
        if m.get("role") == "user":
            content = m.get("content")
            out.append(HumanMessage(content=content if isinstance(content, str) else json.dumps(content)))
        elif m.get("role") == "tool":
            out.append(ToolMessage(tool_call_id=m.get("tool_call_id", ""), name="", content=str(m.get("content"))))
    for item in body.get("input") or []:
        if item.get("type") == "function_call_output":
            out.append(ToolMessage(tool_call_id=item.get("call_id", ""), name="", content=str(item.get("output"))))
        elif item.get("role") == "user":
            content = item.get("content")
            out.append(HumanMessage(content=content if isinstance(content, str) else json.dumps(content)))
    return out


class FakeOpenAIServer(FakeServerBase):
    """A scripted OpenAI-compatible server (see the module docstring)."""

    name = "FakeOpenAIServer"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``: the credential's Base URL."""
        return self.root_url + "/v1"

    def route(self, method: str, path: str, body: dict[str, Any]) -> Reply:
        if method == "GET" and path.endswith("/models"):
            return Reply(body={"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "weft"}]})
        if not path.endswith(("/chat/completions", "/responses")):
            return Reply(
                status=404, body={"error": {"message": f"Unknown path {path}", "type": "invalid_request_error"}}
            )
        turn = self._take_turn()
        if turn is None:
            return self.exhausted_reply(path)
        if turn.error is not None:
            return Reply(status=turn.error, body=error_body(turn), delay=turn.delay)
        conversation = _conversation(body)
        text = str(render(turn.text, conversation))
        calls = [(c.id or self.next_id("call"), c.name, render(c.args, conversation)) for c in turn.tool_calls]
        usage = turn.usage
        tokens_in = (
            usage.input_tokens if usage else estimate_tokens(json.dumps(body.get("messages") or body.get("input")))
        )
        tokens_out = usage.output_tokens if usage else estimate_tokens(text + json.dumps([c[2] for c in calls]))
        model = str(body.get("model") or "fake-model")
        stream = bool(body.get("stream"))
        if path.endswith("/responses"):
            reply = self._responses(model, text, calls, (tokens_in, tokens_out), stream)
        else:
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            reply = self._chat(model, text, calls, (tokens_in, tokens_out), stream, include_usage)
        reply.delay = turn.delay
        return reply

    # ------------------------------------------------------------------ chat completions

    def _chat(
        self,
        model: str,
        text: str,
        calls: list[tuple[str, str, Any]],
        tokens: tuple[int, int],
        stream: bool,
        include_usage: bool,
    ) -> Reply:
        usage = {"prompt_tokens": tokens[0], "completion_tokens": tokens[1], "total_tokens": sum(tokens)}
        finish = "tool_calls" if calls else "stop"
        head = {"id": self.next_id("chatcmpl"), "created": int(time.time()), "model": model}
        if not stream:
            message: dict[str, Any] = {"role": "assistant", "content": text or (None if calls else "")}
            if calls:
                message["tool_calls"] = [
                    {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                    for i, n, a in calls
                ]
            choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
            return Reply(body={**head, "object": "chat.completion", "choices": [choice], "usage": usage})
        chunk = {**head, "object": "chat.completion.chunk"}

        def event(delta: dict[str, Any], finish_reason: str | None = None) -> tuple[str | None, str]:
            choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
            return None, json.dumps({**chunk, "choices": [choice]})

        events = [event({"role": "assistant", "content": ""})]
        events += [event({"content": piece}) for piece in split_text(text)]
        for index, (call_id, name, args) in enumerate(calls):
            first = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
            events.append(event({"tool_calls": [first]}))
            events.append(event({"tool_calls": [{"index": index, "function": {"arguments": json.dumps(args)}}]}))
        events.append(event({}, finish))
        if include_usage:
            events.append((None, json.dumps({**chunk, "choices": [], "usage": usage})))
        events.append((None, "[DONE]"))
        return Reply(events=events)

    # ------------------------------------------------------------------ responses API

    def _responses(
        self, model: str, text: str, calls: list[tuple[str, str, Any]], tokens: tuple[int, int], stream: bool
    ) -> Reply:
        output: list[dict[str, Any]] = []
        message_id = self.next_id("msg")
        if text:
            content = [{"type": "output_text", "text": text, "annotations": []}]
            output.append(
                {"type": "message", "id": message_id, "role": "assistant", "status": "completed", "content": content}
            )
        for call_id, name, args in calls:
            output.append(
                {
                    "type": "function_call",
                    "id": self.next_id("fc"),
                    "call_id": call_id,
                    "name": name,
                    "arguments": json.dumps(args),
                    "status": "completed",
                }
            )
        response = {
            "id": self.next_id("resp"),
            "object": "response",
            "created_at": int(time.time()),
            "model": model,
            "status": "completed",
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": {
                "input_tokens": tokens[0],
                "output_tokens": tokens[1],
                "total_tokens": sum(tokens),
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0},
            },
        }
        if not stream:
            return Reply(body=response)
        return Reply(events=_response_events(response, message_id, text))


def _response_events(response: dict[str, Any], message_id: str, text: str) -> list[tuple[str | None, str]]:
    events: list[tuple[str | None, str]] = []

    def add(kind: str, **data: Any) -> None:
        events.append((kind, json.dumps({"type": kind, "sequence_number": len(events), **data})))

    add("response.created", response={**response, "status": "in_progress", "output": []})
    for piece in split_text(text):
        add(
            "response.output_text.delta",
            item_id=message_id,
            output_index=0,
            content_index=0,
            delta=piece,
            logprobs=[],
        )
    add("response.completed", response=response)
    return events


__all__ = ["FakeOpenAIServer", "error_body"]
