"""A fake Google Gemini embeddings API at ``https://generativelanguage.googleapis.com``: ``POST
/v1beta/models/{model}:batchEmbedContents`` and ``…:embedContent``, the key in ``x-goog-api-key``. Vectors are the
oracle's fake embeddings; a wrong key is Google's 400 ``API_KEY_INVALID``, a batch request naming another model 400.
"""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.oracle_openai import embed

HOST = "generativelanguage.googleapis.com"
KEY = "gemini-test-key"


def _error(status: int, reason: str, message: str) -> ApiReply:
    state = "INVALID_ARGUMENT" if status == 400 else "UNAUTHENTICATED"
    details = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason}]
    return json_error(status, {"error": {"code": status, "message": message, "status": state, "details": details}})


def _text(content: Any) -> str:
    parts = content.get("parts") if isinstance(content, dict) else None
    require(isinstance(parts, list) and bool(parts), _error(400, "BAD_CONTENT", "content.parts is required"))
    assert isinstance(parts, list)
    return " ".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))


def install(server: FakeApiServer) -> None:
    def authorized(request: ApiRequest) -> None:
        require(
            request.headers.get("x-goog-api-key") == KEY,
            _error(400, "API_KEY_INVALID", "API key not valid. Please pass a valid API key."),
        )

    def batch(request: ApiRequest) -> ApiReply:
        authorized(request)
        model = f"models/{request.params['model']}"
        requests = request.body.get("requests") if isinstance(request.body, dict) else None
        require(isinstance(requests, list), _error(400, "BAD_REQUEST", "requests is required"))
        assert isinstance(requests, list)
        for one in requests:
            require(
                isinstance(one, dict) and one.get("model") == model,
                _error(400, "BAD_MODEL", f"Model of batch request does not match the model {model}."),
            )
        return ApiReply(body={"embeddings": [{"values": embed(_text(one.get("content")))} for one in requests]})

    def single(request: ApiRequest) -> ApiReply:
        authorized(request)
        content = request.body.get("content") if isinstance(request.body, dict) else None
        return ApiReply(body={"embedding": {"values": embed(_text(content))}})

    server.route("POST", r"/v1beta/models/(?P<model>[^/:]+):batchEmbedContents", batch, host=HOST)
    server.route("POST", r"/v1beta/models/(?P<model>[^/:]+):embedContent", single, host=HOST)


__all__ = ["HOST", "KEY", "install"]
