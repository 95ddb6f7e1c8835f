"""Embedding models: the :class:`Embeddings` protocol and its OpenAI-compatible and Ollama adapters.

:class:`OpenAIEmbeddings` speaks ``POST …/embeddings`` with the official ``openai`` SDK (any OpenAI-compatible
server through the base URL), batching like LangChain's ``OpenAIEmbeddings`` (``batch_size`` texts a request, two
requests at a time, new lines replaced by spaces unless told not to). :class:`OllamaEmbeddings` speaks Ollama's
``POST /api/embed``. Both check the answer: one vector per text, all of one length, numbers only; provider
failures are the chat models' typed errors (:mod:`weft.ai.models._http_errors`). Both send through the kit's HTTP
settings (:func:`~weft.ai.models.http_client.ai_http_client`: environment proxies, ``WEFT_EXTRA_CA_CERTS``).
"""

from __future__ import annotations

import asyncio
import functools
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import httpx

from weft.ai.errors import ChatModelError
from weft.ai.models._http_errors import Endpoint, connection_error, status_error, timeout_error
from weft.ai.models.base import RetryPolicy, with_retries
from weft.ai.models.http_client import ai_http_client
from weft.ai.models.sdk_errors import ollama_response_error
from weft.ai.retrieval.errors import EmbeddingResponseError

Vector = list[float]

#: LangChain's AsyncCaller: six retries of a failure worth retrying.
EMBEDDING_RETRIES = RetryPolicy(max_retries=6)


@runtime_checkable
class Embeddings(Protocol):
    """Texts in, one vector per text out."""

    async def embed_documents(self, texts: list[str]) -> list[Vector]: ...

    async def embed_query(self, text: str) -> Vector: ...


def checked_vectors(raw: Sequence[Any], count: int, provider: str) -> list[Vector]:
    """``raw`` as ``count`` vectors of one length, or :class:`EmbeddingResponseError` saying what is wrong."""
    if len(raw) != count:
        raise EmbeddingResponseError(
            f"The embedding service answered {len(raw)} vectors for {count} texts",
            description=f"{provider} must return one embedding per text; check the model and the Base URL.",
        )
    vectors: list[Vector] = []
    for index, vector in enumerate(raw):
        if not isinstance(vector, list | tuple) or not vector or not all(_is_number(x) for x in vector):
            raise EmbeddingResponseError(
                f"The embedding service answered something that is not a vector for text {index}",
                description=f"{provider} must return a non-empty list of numbers per text; check the model.",
            )
        vectors.append([float(x) for x in vector])
    return same_length(vectors, provider)


def same_length(vectors: list[Vector], provider: str) -> list[Vector]:
    """``vectors``, or :class:`EmbeddingResponseError` when they are not all of one length."""
    lengths = sorted({len(v) for v in vectors})
    if len(lengths) > 1:
        raise EmbeddingResponseError(
            f"The embedding service answered vectors of different lengths ({', '.join(map(str, lengths))})",
            description=f"{provider} must embed every text with the same number of dimensions; check the model.",
        )
    return vectors


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


async def _gathered(calls: Sequence[Callable[[], Awaitable[list[Vector]]]], concurrency: int) -> list[Vector]:
    """Run the batch calls ``concurrency`` at a time; their vectors in batch order."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def run(call: Callable[[], Awaitable[list[Vector]]]) -> list[Vector]:
        async with gate:
            return await call()

    results = await asyncio.gather(*(run(c) for c in calls))
    return [vector for batch in results for vector in batch]


@dataclass(frozen=True, kw_only=True)
class OpenAIEmbeddingSettings:
    """What an :class:`OpenAIEmbeddings` needs; built by the node from its parameters and credential."""

    model: str = "text-embedding-3-small"
    api_key: str = ""
    base_url: str = "https://api.openai.com/v1"
    batch_size: int = 512
    strip_new_lines: bool = True
    dimensions: int | None = None
    encoding_format: str | None = None
    """``float`` or ``base64``; unset, the SDK asks for base64 and decodes it (as n8n's does)."""
    timeout: float | None = None
    """Seconds per request; ``None``: the SDK's default."""
    organization: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    max_concurrency: int = 2
    retry: RetryPolicy = EMBEDDING_RETRIES


class OpenAIEmbeddings:
    """OpenAI's (or an OpenAI-compatible server's) ``/embeddings``."""

    def __init__(self, settings: OpenAIEmbeddingSettings) -> None:
        self.settings = settings
        self._endpoint = Endpoint(provider="OpenAI", credential_type="openAiApi", base_url=settings.base_url)

    def _texts(self, texts: Sequence[str]) -> list[str]:
        return [t.replace("\n", " ") for t in texts] if self.settings.strip_new_lines else list(texts)

    async def embed_documents(self, texts: list[str]) -> list[Vector]:
        prepared = self._texts(texts)
        size = max(1, int(self.settings.batch_size))
        batches = [prepared[i : i + size] for i in range(0, len(prepared), size)]
        calls = [functools.partial(self._call, batch) for batch in batches]
        return same_length(await _gathered(calls, self.settings.max_concurrency), "OpenAI")

    async def embed_query(self, text: str) -> Vector:
        return (await self._call(self._texts([text])[0]))[0]

    def request(self, texts: list[str] | str) -> dict[str, Any]:
        """The request's parameters (``input`` a list, or one text for a query, as LangChain sends them)."""
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "input": texts}
        if s.dimensions:
            body["dimensions"] = s.dimensions
        if s.encoding_format:
            body["encoding_format"] = s.encoding_format
        return body

    async def _call(self, texts: list[str] | str) -> list[Vector]:
        count = len(texts) if isinstance(texts, list) else 1
        return await with_retries(lambda: self._send(texts, count), self.settings.retry)

    async def _send(self, texts: list[str] | str, count: int) -> list[Vector]:
        import openai

        s = self.settings
        try:
            async with openai.AsyncOpenAI(
                api_key=s.api_key or "none",
                base_url=s.base_url,
                organization=s.organization or None,
                timeout=s.timeout if s.timeout else openai.NOT_GIVEN,
                max_retries=0,
                default_headers=s.headers or None,
                # The SDK types ``http_client`` as ``httpx2.AsyncClient`` but takes an ``httpx.AsyncClient`` too.
                http_client=ai_http_client(s.timeout),  # type: ignore[arg-type]
            ) as client:
                answer = await client.embeddings.create(**self.request(texts))
        except openai.APITimeoutError as exc:
            raise timeout_error(self._endpoint, s.timeout) from exc
        except openai.APIConnectionError as exc:
            raise connection_error(self._endpoint, str(exc.__cause__ or exc)) from exc
        except openai.APIStatusError as exc:
            body = exc.body if isinstance(exc.body, dict) else {}
            code = body.get("code") or exc.code
            raise status_error(
                self._endpoint, exc.status_code, str(body.get("message") or exc.message), str(code) if code else None
            ) from exc
        return checked_vectors([item.embedding for item in answer.data or []], count, "OpenAI")


@dataclass(frozen=True, kw_only=True)
class OllamaEmbeddingSettings:
    model: str
    base_url: str = "http://127.0.0.1:11434"
    api_key: str = ""
    timeout: float = 300.0
    retry: RetryPolicy = EMBEDDING_RETRIES


class OllamaEmbeddings:
    """Ollama's ``/api/embed`` (every text in one request, as LangChain's ``OllamaEmbeddings``)."""

    def __init__(self, settings: OllamaEmbeddingSettings) -> None:
        self.settings = settings
        base = settings.base_url.rstrip("/")
        self._url = base + "/api/embed"
        self._endpoint = Endpoint(provider="Ollama", credential_type="ollamaApi", base_url=base)

    async def embed_documents(self, texts: list[str]) -> list[Vector]:
        return await with_retries(lambda: self._send(texts), self.settings.retry)

    async def embed_query(self, text: str) -> Vector:
        return (await with_retries(lambda: self._send([text]), self.settings.retry))[0]

    async def _send(self, texts: list[str]) -> list[Vector]:
        s = self.settings
        headers = {"Authorization": f"Bearer {s.api_key}"} if s.api_key else {}
        body = {"model": s.model, "input": texts, "truncate": False}
        try:
            async with ai_http_client(s.timeout) as client:
                answer = await client.post(self._url, json=body, headers=headers)
        except httpx.TimeoutException as exc:
            raise timeout_error(self._endpoint, s.timeout) from exc
        except httpx.HTTPError as exc:
            raise connection_error(self._endpoint, str(exc) or type(exc).__name__) from exc
        data = _json_body(answer)
        if answer.status_code >= 400:
            content_type = answer.headers.get("content-type")
            raise ollama_response_error(answer.status_code, content_type, answer.text, data)
        raw = data.get("embeddings")
        return checked_vectors(raw if isinstance(raw, list) else [], len(texts), "Ollama")


def _json_body(answer: httpx.Response) -> dict[str, Any]:
    try:
        data = answer.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


__all__ = [
    "EMBEDDING_RETRIES",
    "ChatModelError",
    "Embeddings",
    "OllamaEmbeddingSettings",
    "OllamaEmbeddings",
    "OpenAIEmbeddingSettings",
    "OpenAIEmbeddings",
    "Vector",
    "checked_vectors",
]
