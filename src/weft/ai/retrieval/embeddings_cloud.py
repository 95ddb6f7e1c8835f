"""Google Gemini's and Mistral Cloud's embeddings, through the kit's HTTP layer (proxy and extra CAs honoured).

:class:`GeminiEmbeddings` speaks LangChain's ``GoogleGenerativeAIEmbeddings``: documents by
``POST {host}/v1beta/{model}:batchEmbedContents`` (100 texts a request), a query by ``…:embedContent``, the key in
``x-goog-api-key``. :class:`MistralEmbeddings` speaks ``POST https://api.mistral.ai/v1/embeddings`` (OpenAI's
shape, ``batch_size`` texts a request). Both replace new lines by spaces unless told not to and check the answer
with :func:`checked_vectors`; failures are the chat models' typed errors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from weft.ai.errors import ChatModelError
from weft.ai.models._http_errors import Endpoint, connection_error, status_error, timeout_error
from weft.ai.models.base import RetryPolicy, with_retries
from weft.ai.models.http_client import ai_http_client
from weft.ai.models.sdk_errors import google_fetch_error, mistral_status_error
from weft.ai.retrieval.embeddings import EMBEDDING_RETRIES, Vector, _gathered, checked_vectors, same_length

GEMINI_HOST = "https://generativelanguage.googleapis.com"
MISTRAL_BASE_URL = "https://api.mistral.ai/v1"


#: The error for a failure answer, worded as the provider's SDK words it (status, content type, body text, JSON).
SdkError = Callable[[int, str | None, str, Any], ChatModelError]


async def _post(
    endpoint: Endpoint, url: str, body: Any, headers: dict[str, str], seconds: float, sdk_error: SdkError | None = None
) -> dict[str, Any]:
    """``body`` posted to ``url``: the JSON answer, or the typed error for a failure (``sdk_error``'s when given)."""
    try:
        async with ai_http_client(seconds, follow_redirects=False) as client:
            answer = await client.post(url, json=body, headers=headers)
    except httpx.TimeoutException as exc:
        raise timeout_error(endpoint, seconds) from exc
    except httpx.HTTPError as exc:
        raise connection_error(endpoint, str(exc) or type(exc).__name__) from exc
    try:
        data = answer.json()
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    if answer.status_code >= 400 and sdk_error is not None:
        raise sdk_error(answer.status_code, answer.headers.get("content-type"), answer.text, data)
    if answer.status_code >= 400:
        error = data.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        detail = str(message or data.get("message") or data.get("detail") or answer.text[:200])
        raise status_error(endpoint, answer.status_code, detail)
    return data


def _mistral_error(status: int, content_type: str | None, text: str, data: Any) -> ChatModelError:
    return mistral_status_error(status, content_type, text)


def _google_error(url: str) -> SdkError:
    return lambda status, _type, _text, data: google_fetch_error(url, status, data)


def _batches(texts: list[str], size: int) -> list[list[str]]:
    size = max(1, size)
    return [texts[i : i + size] for i in range(0, len(texts), size)]


@dataclass(frozen=True, kw_only=True)
class GeminiEmbeddingSettings:
    model: str = "models/text-embedding-004"
    api_key: str = ""
    host: str = GEMINI_HOST
    batch_size: int = 100
    strip_new_lines: bool = True
    timeout: float = 300.0
    max_concurrency: int = 2
    retry: RetryPolicy = EMBEDDING_RETRIES


class GeminiEmbeddings:
    """Google Gemini's ``batchEmbedContents`` and ``embedContent`` (API version ``v1beta``)."""

    def __init__(self, settings: GeminiEmbeddingSettings) -> None:
        self.settings = settings
        name = settings.model.removeprefix("models/")
        self.model = name if "/" in name else f"models/{name}"
        self._base = f"{(settings.host or GEMINI_HOST).rstrip('/')}/v1beta/{self.model}"
        self._endpoint = Endpoint(provider="Google Gemini", credential_type="googlePalmApi", base_url=settings.host)

    def content(self, text: str) -> dict[str, Any]:
        """One text as Gemini's ``content``."""
        text = text.replace("\n", " ") if self.settings.strip_new_lines else text
        return {"role": "user", "parts": [{"text": text}]}

    async def embed_documents(self, texts: list[str]) -> list[Vector]:
        calls = [functools.partial(self._batch, b) for b in _batches(texts, self.settings.batch_size)]
        return same_length(await _gathered(calls, self.settings.max_concurrency), "Google Gemini")

    async def embed_query(self, text: str) -> Vector:
        body = {"content": self.content(text)}
        data = await with_retries(lambda: self._send("embedContent", body), self.settings.retry)
        embedding = data.get("embedding")
        values = embedding.get("values") if isinstance(embedding, dict) else None
        return checked_vectors([values], 1, "Google Gemini")[0]

    async def _batch(self, texts: list[str]) -> list[Vector]:
        body = {"requests": [{"content": self.content(t), "model": self.model} for t in texts]}
        data = await with_retries(lambda: self._send("batchEmbedContents", body), self.settings.retry)
        raw = data.get("embeddings")
        items = raw if isinstance(raw, list) else []
        return checked_vectors([e.get("values") if isinstance(e, dict) else None for e in items], len(texts),
                               "Google Gemini")  # fmt: skip

    async def _send(self, task: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"x-goog-api-key": self.settings.api_key}
        url = f"{self._base}:{task}"
        return await _post(self._endpoint, url, body, headers, self.settings.timeout, _google_error(url))


@dataclass(frozen=True, kw_only=True)
class MistralEmbeddingSettings:
    model: str = "mistral-embed"
    api_key: str = ""
    base_url: str = MISTRAL_BASE_URL
    batch_size: int = 512
    strip_new_lines: bool = True
    timeout: float = 300.0
    max_concurrency: int = 2
    retry: RetryPolicy = EMBEDDING_RETRIES


class MistralEmbeddings:
    """Mistral Cloud's ``/v1/embeddings``."""

    def __init__(self, settings: MistralEmbeddingSettings) -> None:
        self.settings = settings
        self._url = settings.base_url.rstrip("/") + "/embeddings"
        self._endpoint = Endpoint(
            provider="Mistral Cloud", credential_type="mistralCloudApi", base_url=settings.base_url
        )

    def _texts(self, texts: list[str]) -> list[str]:
        return [t.replace("\n", " ") for t in texts] if self.settings.strip_new_lines else list(texts)

    async def embed_documents(self, texts: list[str]) -> list[Vector]:
        batches = _batches(self._texts(texts), self.settings.batch_size)
        calls = [functools.partial(self._call, b) for b in batches]
        return same_length(await _gathered(calls, self.settings.max_concurrency), "Mistral Cloud")

    async def embed_query(self, text: str) -> Vector:
        return (await self._call(self._texts([text])))[0]

    async def _call(self, texts: list[str]) -> list[Vector]:
        s = self.settings
        body = {"model": s.model, "input": texts}
        headers = {"Authorization": f"Bearer {s.api_key}"}
        data = await with_retries(
            lambda: _post(self._endpoint, self._url, body, headers, s.timeout, _mistral_error), s.retry
        )
        raw = data.get("data")
        items = (
            sorted(raw, key=lambda e: e.get("index", 0) if isinstance(e, dict) else 0) if isinstance(raw, list) else []
        )
        return checked_vectors([e.get("embedding") if isinstance(e, dict) else None for e in items], len(texts),
                               "Mistral Cloud")  # fmt: skip


__all__ = [
    "GEMINI_HOST",
    "MISTRAL_BASE_URL",
    "GeminiEmbeddingSettings",
    "GeminiEmbeddings",
    "MistralEmbeddingSettings",
    "MistralEmbeddings",
]
