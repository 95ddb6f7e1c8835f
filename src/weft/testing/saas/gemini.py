"""A fake Google Gemini API at ``https://generativelanguage.googleapis.com`` (served by host through the fake's
HTTPS proxy), answering with the scripted answers of :mod:`._chat_script`:

- ``POST /v1beta/models/{model}:generateContent`` and ``…:streamGenerateContent?alt=sse``: Gemini's native API, as
  n8n's Google Gemini Chat Model (LangChain's ``ChatGoogleGenerativeAI``) calls it, the key in ``x-goog-api-key``;
- ``POST /v1beta/openai/chat/completions``: Gemini's OpenAI-compatible API (Weft's client), ``Authorization:
  Bearer``; the same answers, so n8n and Weft agree;
- ``POST /v1beta/models/{model}:batchEmbedContents`` and ``…:embedContent``: embeddings (the oracle's fake vectors).

Errors as Google sends them: a wrong key is 400 ``API_KEY_INVALID`` (the OpenAI-compatible API wraps Google's
error object in a list), model ``gemini-missing`` 404 ``NOT_FOUND``, model ``gemini-busy`` 429
``RESOURCE_EXHAUSTED``.
"""

from __future__ import annotations

import json
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.oracle_openai import embed
from weft.testing.saas._chat_script import USAGE, Answer, ChatView, answer, tool_output_text
from weft.testing.saas._openai_chat import completion

HOST = "generativelanguage.googleapis.com"
KEY = "gemini-test-key"
_MODEL = r"/v1beta/models/(?P<model>[^/:]+)"


def _google_error(status: int, model: str = "") -> dict[str, Any]:
    if status == 404:
        message = (
            f"models/{model} is not found for API version v1beta, or is not supported for generateContent. "
            "Call ListModels to see the list of available models and their supported methods."
        )
        return {"error": {"code": 404, "message": message, "status": "NOT_FOUND"}}
    if status == 429:
        message = "Resource has been exhausted (e.g. check quota)."
        return {"error": {"code": 429, "message": message, "status": "RESOURCE_EXHAUSTED"}}
    details = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                "domain": "googleapis.com", "metadata": {"service": "generativelanguage.googleapis.com"}}]  # fmt: skip
    message = "API key not valid. Please pass a valid API key."
    return {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT", "details": details}}


def _refusal(key_ok: bool, model: str) -> int | None:
    """The error status a request gets (None: none)."""
    if not key_ok:
        return 400
    return {"gemini-missing": 404, "gemini-busy": 429}.get(model.removeprefix("models/"))


# ---------------------------------------------------------------------------------------------- native API


def _native_view(body: dict[str, Any]) -> ChatView:
    view = ChatView()
    system = body.get("systemInstruction") or body.get("system_instruction")
    if isinstance(system, dict):
        view.system = "".join(str(p.get("text") or "") for p in system.get("parts") or [])
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            if "functionResponse" in part:
                view.tool_result = tool_output_text((part["functionResponse"] or {}).get("response"))
            elif "text" in part and content.get("role") == "user":
                view.user, view.tool_result = str(part["text"]), None
    for tool in body.get("tools") or []:
        view.tools += [str(f.get("name")) for f in tool.get("functionDeclarations") or []]
    config = body.get("generationConfig") or {}
    view.options = {"temperature": config.get("temperature"), "max_tokens": config.get("maxOutputTokens"),
                    "top_p": config.get("topP"), "top_k": config.get("topK")}  # fmt: skip
    return view


def _candidate(found: Answer) -> dict[str, Any]:
    if found.tool_name is None:
        parts: list[dict[str, Any]] = [{"text": found.text}]
    else:
        parts = [{"functionCall": {"name": found.tool_name, "args": found.tool_arguments}}]
    return {"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}


def _native(request: ApiRequest, *, stream: bool) -> ApiReply:
    model = request.params["model"]
    refused = _refusal(request.headers.get("x-goog-api-key") == KEY, model)
    if refused is not None:
        return json_error(refused, _google_error(refused, model))
    body = request.body if isinstance(request.body, dict) else {}
    require(bool(body.get("contents")), json_error(400, _bad("contents is not specified")))
    found = answer(_native_view(body))
    usage = {"promptTokenCount": USAGE["prompt"], "candidatesTokenCount": USAGE["completion"],
             "totalTokenCount": USAGE["prompt"] + USAGE["completion"]}  # fmt: skip
    reply = {"candidates": [_candidate(found)], "usageMetadata": usage, "modelVersion": model, "responseId": found.key}
    if stream:
        return ApiReply(text=f"data: {json.dumps(reply)}\r\n\r\n", content_type="text/event-stream")
    return ApiReply(body=reply)


def _bad(message: str) -> dict[str, Any]:
    return {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}


# ---------------------------------------------------------------------------------------------- OpenAI-compatible


def _openai(request: ApiRequest) -> ApiReply:
    body = request.body if isinstance(request.body, dict) else {}
    model = str(body.get("model") or "")
    refused = _refusal(request.headers.get("authorization") == f"Bearer {KEY}", model)
    if refused is not None:
        return json_error(refused, [_google_error(refused, model)])
    return completion(body, prefix="gemini-", call_id=lambda key: f"function-call-{key}")


# ---------------------------------------------------------------------------------------------- embeddings


def _embedding_error(status: int, reason: str, message: str) -> ApiReply:
    state = "INVALID_ARGUMENT" if status == 400 else "UNAUTHENTICATED"
    details = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason}]
    return json_error(status, {"error": {"code": status, "message": message, "status": state, "details": details}})


def _text(content: Any) -> str:
    parts = content.get("parts") if isinstance(content, dict) else None
    require(isinstance(parts, list) and bool(parts), _embedding_error(400, "BAD_CONTENT", "content.parts is required"))
    assert isinstance(parts, list)
    return " ".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))


def _authorized(request: ApiRequest) -> None:
    require(request.headers.get("x-goog-api-key") == KEY, json_error(400, _google_error(400)))


def _batch(request: ApiRequest) -> ApiReply:
    _authorized(request)
    model = f"models/{request.params['model']}"
    requests = request.body.get("requests") if isinstance(request.body, dict) else None
    require(isinstance(requests, list), _embedding_error(400, "BAD_REQUEST", "requests is required"))
    assert isinstance(requests, list)
    for one in requests:
        require(
            isinstance(one, dict) and one.get("model") == model,
            _embedding_error(400, "BAD_MODEL", f"Model of batch request does not match the model {model}."),
        )
    return ApiReply(body={"embeddings": [{"values": embed(_text(one.get("content")))} for one in requests]})


def _single(request: ApiRequest) -> ApiReply:
    _authorized(request)
    content = request.body.get("content") if isinstance(request.body, dict) else None
    return ApiReply(body={"embedding": {"values": embed(_text(content))}})


def install(server: FakeApiServer) -> None:
    server.route("POST", _MODEL + ":generateContent", lambda r: _native(r, stream=False), host=HOST)
    server.route("POST", _MODEL + ":streamGenerateContent", lambda r: _native(r, stream=True), host=HOST)
    server.route("POST", r"/v1beta/openai/chat/completions", _openai, host=HOST)
    server.route("POST", _MODEL + ":batchEmbedContents", _batch, host=HOST)
    server.route("POST", _MODEL + ":embedContent", _single, host=HOST)


__all__ = ["HOST", "KEY", "install"]
