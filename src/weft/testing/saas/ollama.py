"""A fake Ollama server at ``https://ollama.weft.example`` (the ``ollamaApi`` credential's base URL, served by host
through the fake's HTTPS proxy; also under ``/ollama`` on the plain port, which n8n 2.8.4 needs: its Ollama
client ignores the proxy):

- ``POST /api/embed`` (``{"model", "input": text or texts}``, what LangChain's ``OllamaEmbeddings`` sends): one
  vector a text, the recordings' deterministic :func:`~weft.testing.oracle_openai.embed`;
- ``POST /api/embeddings`` (the older ``{"model", "prompt"}``): one vector;
- ``POST /v1/chat/completions``: the OpenAI-compatible chat of :mod:`._chat_script`;
- ``GET /api/tags``: the installed models.

Models are :data:`MODELS`; any other is Ollama's 404 ``{"error": "model \"x\" not found, try pulling it first"}``.
Ollama has no keys of its own and ignores ``Authorization``; :data:`GUARDED_HOST` is the same server behind a
reverse proxy with a key (Open WebUI's, what the credential's API key is for; ``/ollama-webui`` on the plain
port): a request without ``Bearer`` :data:`KEY` there is a 401 ``{"error": "unauthorized"}``. A missing model or
input is Ollama's 400.
"""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.oracle_openai import embed
from weft.testing.saas._openai_chat import completion

HOST = "ollama.weft.example"
GUARDED_HOST = "ollama-webui.weft.example"
KEY = "ollama-test-key"
MODELS = ("nomic-embed-text:latest", "llama3.2:latest")
#: What Ollama reports of the time an answer took, fixed.
_DURATIONS = {"total_duration": 14143917, "load_duration": 1019500}


def _model(request: ApiRequest) -> tuple[dict[str, Any], str]:
    """The request's body and its model (``:latest`` added as Ollama does), or the error Ollama answers."""
    if request.host == GUARDED_HOST or request.path.startswith("/ollama-webui/"):
        require(request.headers.get("authorization") == f"Bearer {KEY}", json_error(401, {"error": "unauthorized"}))
    body = request.body if isinstance(request.body, dict) else {}
    require(isinstance(request.body, dict), json_error(400, {"error": "invalid request body"}))
    name = str(body.get("model") or "")
    require(bool(name), json_error(400, {"error": "model is required"}))
    model = name if ":" in name else name + ":latest"
    require(model in MODELS, json_error(404, {"error": f'model "{name}" not found, try pulling it first'}))
    return body, model


def embed_route(request: ApiRequest) -> ApiReply:
    body, model = _model(request)
    texts = body.get("input")
    texts = [texts] if isinstance(texts, str) else texts
    require(
        isinstance(texts, list) and all(isinstance(t, str) for t in texts),
        json_error(400, {"error": "invalid input type"}),
    )
    assert isinstance(texts, list)
    count = sum(len(str(t).split()) for t in texts)
    reply = {"model": model, "embeddings": [embed(t) for t in texts], **_DURATIONS, "prompt_eval_count": count}
    return ApiReply(body=reply)


def embeddings_route(request: ApiRequest) -> ApiReply:
    body, _model_name = _model(request)
    return ApiReply(body={"embedding": embed(str(body.get("prompt") or ""))})


def chat_route(request: ApiRequest) -> ApiReply:
    body, _model_name = _model(request)
    require(bool(body.get("messages")), json_error(400, {"error": "messages are required"}))
    return completion(body, prefix="chatcmpl-", call_id=lambda key: f"call_{key}")


def tags_route(request: ApiRequest) -> ApiReply:
    models = [{"name": m, "model": m, "modified_at": "2026-01-01T00:00:00Z", "size": 274302450} for m in MODELS]
    return ApiReply(body={"models": models})


def install(server: FakeApiServer) -> None:
    for prefix, host in (("", HOST), ("", GUARDED_HOST), ("/ollama", None), ("/ollama-webui", None)):
        server.route("POST", prefix + r"/api/embed", embed_route, host=host)
        server.route("POST", prefix + r"/api/embeddings", embeddings_route, host=host)
        server.route("POST", prefix + r"/v1/chat/completions", chat_route, host=host)
        server.route("GET", prefix + r"/api/tags", tags_route, host=host)


__all__ = ["GUARDED_HOST", "HOST", "KEY", "MODELS", "install"]
