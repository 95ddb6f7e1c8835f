"""A fake Groq API at ``https://api.groq.com`` (served by host through the fake's HTTPS proxy):
``POST /openai/v1/chat/completions`` with the scripted answers of :mod:`._chat_script`, ``Authorization: Bearer``
key, Groq's ``x_groq`` field on the answer. Errors as Groq sends them (OpenAI's error shape): a wrong key is 401
``invalid_api_key``, model ``groq-missing`` 404 ``model_not_found``, model ``groq-busy`` 429
``rate_limit_exceeded`` (with ``Retry-After``).
"""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error
from weft.testing.saas._chat_script import USAGE
from weft.testing.saas._openai_chat import completion

HOST = "api.groq.com"
KEY = "gsk-groq-test-key"


def _error(status: int, message: str, kind: str, code: str, **headers: str) -> ApiReply:
    return json_error(status, {"error": {"message": message, "type": kind, "code": code}}, **headers)


def _x_groq(reply: dict[str, Any]) -> None:
    usage = {"prompt_tokens": USAGE["prompt"], "completion_tokens": USAGE["completion"],
             "total_tokens": USAGE["prompt"] + USAGE["completion"]}  # fmt: skip
    reply["x_groq"] = {"id": "req_" + str(reply["id"]).removeprefix("chatcmpl-"), "usage": usage}
    reply["system_fingerprint"] = "fp_fake"


def chat(request: ApiRequest) -> ApiReply:
    if request.headers.get("authorization") != f"Bearer {KEY}":
        return _error(401, "Invalid API Key", "invalid_request_error", "invalid_api_key")
    body = request.body if isinstance(request.body, dict) else {}
    model = str(body.get("model") or "")
    if model == "groq-missing":
        message = f"The model `{model}` does not exist or you do not have access to it."
        return _error(404, message, "invalid_request_error", "model_not_found")
    if model == "groq-busy":
        message = f"Rate limit reached for model `{model}` in organization `org_fake` on requests per minute (RPM)."
        return _error(429, message, "requests", "rate_limit_exceeded", **{"retry-after": "1"})
    return completion(body, prefix="chatcmpl-", call_id=lambda key: f"call_{key}", extra=_x_groq)


def install(server: FakeApiServer) -> None:
    server.route("POST", r"/openai/v1/chat/completions", chat, host=HOST)


__all__ = ["HOST", "KEY", "install"]
