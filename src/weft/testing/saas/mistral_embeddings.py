"""A fake Mistral Cloud embeddings API at ``https://api.mistral.ai``: ``POST /v1/embeddings`` (OpenAI's shape),
``Authorization: Bearer`` key. Vectors are the oracle's fake embeddings; a wrong key is Mistral's 401, a missing
input 400.
"""

from __future__ import annotations

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.oracle_openai import embed

HOST = "api.mistral.ai"
KEY = "mistral-test-key"


def install(server: FakeApiServer) -> None:
    def embeddings(request: ApiRequest) -> ApiReply:
        require(
            request.headers.get("authorization") == f"Bearer {KEY}",
            json_error(401, {"message": "Unauthorized", "request_id": "fake"}),
        )
        body = request.body if isinstance(request.body, dict) else {}
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else texts
        require(
            isinstance(texts, list) and bool(texts) and bool(body.get("model")),
            json_error(
                400, {"object": "error", "message": "model and input are required", "type": "invalid_request_error"}
            ),
        )
        assert isinstance(texts, list)
        data = [{"object": "embedding", "embedding": embed(str(t)), "index": i} for i, t in enumerate(texts)]
        usage = {"prompt_tokens": len(texts), "total_tokens": len(texts), "completion_tokens": 0}
        return ApiReply(
            body={"id": "embd-fake", "object": "list", "data": data, "model": body["model"], "usage": usage}
        )

    server.route("POST", r"/v1/embeddings", embeddings, host=HOST)


__all__ = ["HOST", "KEY", "install"]
