"""A scripted embedding endpoint for the error tests: each request answered by the next reply of a list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from weft.testing._fake_http import FakeServerBase, Reply

Answer = Callable[[dict[str, Any]], Reply]


class EmbeddingEndpoint(FakeServerBase):
    """``POST …/embeddings`` and ``POST /api/embed``: answered by ``answers`` in turn (the last repeats)."""

    name = "EmbeddingEndpoint"

    def __init__(self, answers: list[Answer]) -> None:
        super().__init__()
        self.answers = answers
        self._answered = 0

    @property
    def base_url(self) -> str:
        return self.root_url + "/v1"

    def route(self, method: str, path: str, body: dict[str, Any]) -> Reply:
        with self._lock:
            self._answered += 1
            answer = self.answers[min(self._answered, len(self.answers)) - 1]
        return answer(body)


def vectors(dims: int) -> Answer:
    """OpenAI's answer: one vector of ``dims`` per input text."""

    def answer(body: dict[str, Any]) -> Reply:
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": i, "embedding": [1.0 + i] + [0.5] * (dims - 1)} for i in range(len(texts))
        ]
        return Reply(body={"object": "list", "data": data, "model": body.get("model")})

    return answer


def ollama_vectors(dims: int) -> Answer:
    def answer(body: dict[str, Any]) -> Reply:
        return Reply(
            body={"model": body["model"], "embeddings": [[float(i + 1)] * dims for i in range(len(body["input"]))]}
        )

    return answer


def failing(status: int, message: str) -> Answer:
    def answer(body: dict[str, Any]) -> Reply:
        return Reply(status=status, body={"error": {"message": message, "type": "invalid_request_error", "code": None}})

    return answer


__all__ = ["EmbeddingEndpoint", "failing", "ollama_vectors", "vectors"]
