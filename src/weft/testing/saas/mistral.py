"""A fake Mistral API at ``https://api.mistral.ai`` (served by host through the fake's HTTPS proxy),
``Authorization: Bearer`` key:

- ``POST /v1/chat/completions``: the scripted answers of :mod:`._chat_script` (tool-call ids of nine letters and
  digits, as Mistral's); model ``mistral-missing`` is Mistral's 400 ``invalid_model``, model ``mistral-busy`` its
  429 ``rate_limited`` (with ``Retry-After``);
- ``POST /v1/embeddings``: OpenAI's shape, the oracle's fake vectors; a missing input is a 400.

A wrong key is Mistral's 401 ``{"message": "Unauthorized", "request_id": …}``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.oracle_openai import embed
from weft.testing.saas._openai_chat import completion

HOST = "api.mistral.ai"
KEY = "mistral-test-key"


def _error(status: int, message: str, kind: str, code: str, **headers: str) -> ApiReply:
    body = {"object": "error", "message": message, "type": kind, "param": None, "code": code}
    return _json(json_error(status, body, **headers))


def _json(reply: ApiReply) -> ApiReply:
    """``reply`` with Mistral's content type, ``application/json`` without a charset."""
    return replace(reply, content_type="application/json")


def _authorized(request: ApiRequest) -> None:
    require(
        request.headers.get("authorization") == f"Bearer {KEY}",
        _json(json_error(401, {"message": "Unauthorized", "request_id": "0a1b2c3d4e5f60718293a4b5c6d7e8f9"})),
    )


def chat(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    model = str(body.get("model") or "")
    if model == "mistral-missing":
        return _error(400, f"Invalid model: {model}", "invalid_model", "1500")
    if model == "mistral-busy":
        return _error(429, "Requests rate limit exceeded", "rate_limited", "1300", **{"retry-after": "1"})
    require(bool(body.get("messages")), _error(422, "messages: Field required", "invalid_request_error", "3051"))
    return completion(body, prefix="cmpl-", call_id=lambda key: "".join(c for c in key if c.isalnum())[:9])


def embeddings(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    texts = body.get("input")
    texts = [texts] if isinstance(texts, str) else texts
    require(
        isinstance(texts, list) and bool(texts) and bool(body.get("model")),
        _error(400, "model and input are required", "invalid_request_error", "3000"),
    )
    assert isinstance(texts, list)
    data = [{"object": "embedding", "embedding": embed(str(t)), "index": i} for i, t in enumerate(texts)]
    usage: dict[str, Any] = {"prompt_tokens": len(texts), "total_tokens": len(texts), "completion_tokens": 0}
    return ApiReply(body={"id": "embd-fake", "object": "list", "data": data, "model": body["model"], "usage": usage})


def install(server: FakeApiServer) -> None:
    server.route("POST", r"/v1/chat/completions", chat, host=HOST)
    server.route("POST", r"/v1/embeddings", embeddings, host=HOST)


__all__ = ["HOST", "KEY", "install"]
