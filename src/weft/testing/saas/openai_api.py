"""A fake of OpenAI's Responses API (``POST https://api.openai.com/v1/responses``), which the OpenAI node
(``@n8n/n8n-nodes-langchain.openAi`` v2.x) calls, served by host through the fake's HTTPS proxy.

Answers are a function of the request, so items sent concurrently get the same answers in any order:
- text: ``Echo: <the last user text>``, with `` | instructions: <instructions>`` when given and
  `` | images: <n>`` for ``input_image`` parts; as JSON (``{"echo": …, "words": n}``) when ``text.format`` asks for
  a JSON object or schema;
- a user text ``tool: <argument>`` with function tools offered calls the first one with ``{"input": <argument>}``
  (the ``call_id`` derived from the request); a ``function_call_output`` in the input is answered
  ``Tool said: <output>``;
- model ``gpt-missing``: OpenAI's 404 ``model_not_found`` body; ``gpt-busy``: 429 with ``Retry-After``;
- a key other than :data:`API_KEY`: OpenAI's 401 ``invalid_api_key`` body.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "api.openai.com"
API_KEY = "sk-saas-openai-key"


def _error(status: int, message: str, kind: str, code: str | None, **headers: str) -> ApiReply:
    return json_error(status, {"error": {"message": message, "type": kind, "param": None, "code": code}}, **headers)


def _parts(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "input_text", "text": content}]
    return [part for part in content or [] if isinstance(part, dict)]


def _user_view(body: dict[str, Any]) -> tuple[str, int, str | None]:
    """The last user text, the number of images, and the last function call output (None when none)."""
    items = body.get("input")
    items = [{"role": "user", "content": items}] if isinstance(items, str) else list(items or [])
    text, images, output = "", 0, None
    for item in items:
        if item.get("type") == "function_call_output":
            output = str(item.get("output"))
        elif item.get("role") == "user":
            parts = _parts(item.get("content"))
            texts = [str(p.get("text")) for p in parts if p.get("type") in ("input_text", "text")]
            text = " ".join(texts) if texts else text
            images += sum(1 for p in parts if p.get("type") == "input_image")
    return text, images, output


def _digest(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body.get("input"), sort_keys=True).encode()).hexdigest()[:16]


def _message_item(key: str, text: str) -> dict[str, Any]:
    content = [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}]
    return {"id": f"msg_{key}", "type": "message", "status": "completed", "role": "assistant", "content": content}


def _output(body: dict[str, Any], key: str) -> list[dict[str, Any]]:
    text, images, output = _user_view(body)
    tools = [t for t in body.get("tools") or [] if t.get("type") == "function"]
    if output is not None:
        return [_message_item(key, f"Tool said: {output}")]
    if tools and text.startswith("tool:"):
        arguments = json.dumps({"input": text.removeprefix("tool:").strip()})
        call = {"id": f"fc_{key}", "type": "function_call", "status": "completed", "call_id": f"call_{key}"}
        return [{**call, "name": tools[0].get("name"), "arguments": arguments}]
    answer = f"Echo: {text}"
    if body.get("instructions"):
        answer += f" | instructions: {body['instructions']}"
    if images:
        answer += f" | images: {images}"
    kind = ((body.get("text") or {}).get("format") or {}).get("type")
    if kind in ("json_object", "json_schema"):
        answer = json.dumps({"echo": text, "words": len(text.split())})
    return [_message_item(key, answer)]


def responses(request: ApiRequest) -> ApiReply:
    if request.headers.get("authorization") != f"Bearer {API_KEY}":
        message = "Incorrect API key provided: the key is not valid."
        return _error(401, message, "invalid_request_error", "invalid_api_key")
    body = request.body if isinstance(request.body, dict) else {}
    model = str(body.get("model") or "")
    if model == "gpt-missing":
        message = f"The model `{model}` does not exist or you do not have access to it."
        return _error(404, message, "invalid_request_error", "model_not_found")
    if model == "gpt-busy":
        message = "Rate limit reached for requests. Please try again in 20s."
        return _error(429, message, "requests", "rate_limit_exceeded", **{"retry-after": "20"})
    key = _digest(body)
    usage = {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 6,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 18}  # fmt: skip
    reply = {
        "id": f"resp_{key}",
        "object": "response",
        "created_at": 1764806400,
        "status": "completed",
        "model": model,
        "output": _output(body, key),
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": list(body.get("tools") or []),
        "usage": usage,
    }
    return ApiReply(body=reply)


def install(server: FakeApiServer) -> None:
    server.route("POST", "/v1/responses", responses, host=HOST)


__all__ = ["API_KEY", "HOST", "install"]
