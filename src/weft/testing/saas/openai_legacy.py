"""A fake of the OpenAI endpoints the legacy OpenAI node (``n8n-nodes-base.openAi``) calls: chat and text
completions, moderations, image generations (URLs or base64), models, and ``/v1/edits`` answering 404 as
OpenAI does since it retired the endpoint. Answers are made from the request, so every run is the same."""

from __future__ import annotations

import base64
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

KEY = "sk-fake-legacy-node"
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake image").decode()


def _error(status: int, message: str, kind: str, code: str | None = None) -> ApiReply:
    return json_error(status, {"error": {"message": message, "type": kind, "param": None, "code": code}})


def _authorized(request: ApiRequest) -> dict[str, Any]:
    require(
        request.headers.get("authorization") == f"Bearer {KEY}",
        _error(401, "Incorrect API key provided: sk-wr***key.", "invalid_request_error", "invalid_api_key"),
    )
    body = request.body if isinstance(request.body, dict) else {}
    model = str(body.get("model") or "")
    require(
        model != "gpt-missing",
        _error(404, f"The model `{model}` does not exist", "invalid_request_error", "model_not_found"),
    )
    return body


def chat(request: ApiRequest) -> ApiReply:
    body = _authorized(request)
    last = next((m.get("content") for m in reversed(body.get("messages") or []) if m.get("role") == "user"), "")
    choices = [
        {"index": i, "message": {"role": "assistant", "content": f"echo {i}: {last}"}, "finish_reason": "stop"}
        for i in range(int(body.get("n") or 1))
    ]
    usage = {"prompt_tokens": 9, "completion_tokens": 4, "total_tokens": 13}
    return ApiReply(body={"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000,
                          "model": body.get("model"), "choices": choices, "usage": usage})  # fmt: skip


def completion(request: ApiRequest) -> ApiReply:
    body = _authorized(request)
    choices = [
        {"text": f"\n\n  answer to {body.get('prompt')}  ", "index": 0, "logprobs": None, "finish_reason": "length"}
    ]
    return ApiReply(body={"id": "cmpl-fake", "object": "text_completion", "created": 1700000000,
                          "model": body.get("model"), "choices": choices})  # fmt: skip


def moderation(request: ApiRequest) -> ApiReply:
    body = _authorized(request)
    flagged = "hate" in str(body.get("input"))
    result = {"flagged": flagged, "categories": {"hate": flagged, "violence": False},
              "category_scores": {"hate": 0.9 if flagged else 0.01, "violence": 0.0}}  # fmt: skip
    return ApiReply(body={"id": "modr-fake", "model": "text-moderation-007", "results": [result]})


def edits(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return _error(404, "Invalid URL (POST /v1/edits)", "invalid_request_error")


def images(request: ApiRequest) -> ApiReply:
    body = _authorized(request)
    count = int(body.get("n") or 1)
    if body.get("response_format") == "url":
        data = [{"url": f"https://images.example/{i}.png", "revised_prompt": body.get("prompt")} for i in range(count)]
    else:
        data = [{"b64_json": PNG} for _ in range(count)]
    return ApiReply(body={"created": 1700000000, "data": data})


def models(request: ApiRequest) -> ApiReply:
    _authorized(request)
    names = ["gpt-4o-mini", "gpt-3.5-turbo", "dall-e-2", "text-moderation-latest", "whisper-1"]
    return ApiReply(
        body={"object": "list", "data": [{"id": n, "object": "model", "owned_by": "openai"} for n in names]}
    )


def install(server: FakeApiServer, prefix: str = "/openai") -> None:
    server.route("POST", rf"{prefix}/v1/chat/completions", chat)
    server.route("POST", rf"{prefix}/v1/completions", completion)
    server.route("POST", rf"{prefix}/v1/moderations", moderation)
    server.route("POST", rf"{prefix}/v1/edits", edits)
    server.route("POST", rf"{prefix}/v1/images/generations", images)
    server.route("GET", rf"{prefix}/v1/models", models)


__all__ = ["KEY", "install"]
