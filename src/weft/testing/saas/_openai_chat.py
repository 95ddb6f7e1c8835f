"""OpenAI-style chat completions answers (Mistral, Groq, Gemini's OpenAI-compatible API) of the scripted
:mod:`._chat_script` answers: a ``chat.completion`` object, or with ``"stream": true`` its server-sent chunks ending
in ``data: [DONE]`` (the usage on the last chunk)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from weft.testing.fake_api import ApiReply
from weft.testing.saas._chat_script import USAGE, Answer, answer, openai_view

CREATED = 1764806400


def _message(found: Answer, call_id: str) -> dict[str, Any]:
    if found.tool_name is None:
        return {"role": "assistant", "content": found.text}
    function = {"name": found.tool_name, "arguments": json.dumps(found.tool_arguments)}
    call = {"id": call_id, "type": "function", "function": function}
    return {"role": "assistant", "content": "", "tool_calls": [call]}


def _usage() -> dict[str, int]:
    return {"prompt_tokens": USAGE["prompt"], "completion_tokens": USAGE["completion"],
            "total_tokens": USAGE["prompt"] + USAGE["completion"]}  # fmt: skip


def completion(
    body: dict[str, Any],
    *,
    prefix: str,
    call_id: Callable[[str], str],
    extra: Callable[[dict[str, Any]], None] | None = None,
) -> ApiReply:
    """The answer to a chat completions request ``body``; ``extra`` adds service fields to the final object."""
    found = answer(openai_view(body))
    message = _message(found, call_id(found.key))
    finish = "stop" if found.tool_name is None else "tool_calls"
    head = {"id": f"{prefix}{found.key}", "created": CREATED, "model": str(body.get("model") or "")}
    if not body.get("stream"):
        choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
        reply = {**head, "object": "chat.completion", "choices": [choice], "usage": _usage()}
        if extra:
            extra(reply)
        return ApiReply(body=reply)
    delta: dict[str, Any] = dict(message)
    if "tool_calls" in delta:
        delta["tool_calls"] = [{"index": 0, **call} for call in delta["tool_calls"]]
    chunks: list[dict[str, Any]] = [
        {**head, "object": "chat.completion.chunk",
         "choices": [{"index": 0, "delta": delta, "finish_reason": None, "logprobs": None}]},
        {**head, "object": "chat.completion.chunk",
         "choices": [{"index": 0, "delta": {}, "finish_reason": finish, "logprobs": None}], "usage": _usage()},
    ]  # fmt: skip
    if extra:
        extra(chunks[-1])
    text = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"
    return ApiReply(text=text, content_type="text/event-stream")


__all__ = ["CREATED", "completion"]
