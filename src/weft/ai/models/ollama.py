"""Ollama through its OpenAI-compatible ``/v1`` endpoint, on the OpenAI adapter."""

from __future__ import annotations

from typing import Any

from weft.ai.models.base import RetryPolicy
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings

OLLAMA_BASE_URL = "http://127.0.0.1:11434/v1"


def ollama_v1_url(base_url: str | None) -> str:
    """The ``/v1`` URL for an Ollama server URL as n8n's ``ollamaApi`` credential stores it (without ``/v1``)."""
    url = (base_url or OLLAMA_BASE_URL).rstrip("/")
    return url if url.endswith("/v1") else url + "/v1"


def ollama_settings(
    model: str,
    *,
    base_url: str | None = None,
    api_key: str = "",
    retry: RetryPolicy | None = None,
    timeout: float = 300.0,
    **sampling: Any,
) -> OpenAISettings:
    """OpenAI settings for an Ollama server; ``sampling`` takes ``temperature``, ``top_p``, ``max_tokens`` …"""
    return OpenAISettings(
        model=model,
        api_key=api_key or "ollama",
        base_url=ollama_v1_url(base_url),
        api="chat_completions",
        timeout=timeout,
        retry=retry or RetryPolicy(),
        provider="Ollama",
        credential_type="ollamaApi",
        **sampling,
    )


class OllamaChatModel(OpenAIChatModel):
    """An :class:`OpenAIChatModel` with Ollama's defaults (local URL, no key, generous timeout)."""

    def __init__(self, model: str, *, base_url: str | None = None, **kwargs: Any) -> None:
        super().__init__(ollama_settings(model, base_url=base_url, **kwargs))


__all__ = ["OLLAMA_BASE_URL", "OllamaChatModel", "ollama_settings", "ollama_v1_url"]
