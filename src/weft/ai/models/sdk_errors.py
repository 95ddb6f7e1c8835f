"""HTTP failures worded as the providers' JavaScript SDKs word them, which n8n shows as they are: the Mistral
SDK's ``SDKError`` (chat and embeddings; recorded: cases s914, s915, s933) and Google's ``@google/generative-ai``
fetch error (Gemini embeddings; case s932), the ``ollama`` library's ``ResponseError`` (Ollama embeddings; cases
s953-s955). Each keeps its typed :class:`ChatModelError` class by status."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from weft.ai.errors import (
    ChatModelAuthError,
    ChatModelBadRequestError,
    ChatModelError,
    ChatModelRateLimitError,
    ChatModelServerError,
)


def _class(status: int) -> type[ChatModelError]:
    if status in (401, 403):
        return ChatModelAuthError
    if status == 429:
        return ChatModelRateLimitError
    return ChatModelServerError if status >= 500 else ChatModelBadRequestError


def mistral_status_error(status: int, content_type: str | None, body: str) -> ChatModelError:
    """The Mistral SDK's message: ``API error occurred: Status 401. Body: {…}`` (the content type named when it is
    not exactly ``application/json``; a body over 100 characters on its own line)."""
    message = f"API error occurred: Status {status}"
    kind = content_type or '""'
    if kind != "application/json":
        message += f' Content-Type "{kind}"' if " " in kind else f" Content-Type {kind}"
    text = body or '""'
    message += "\n" if len(text) > 100 else ". "
    message = (message + f"Body: {text[:10000]}").strip()
    return _class(status)(message, provider="Mistral", http_code=status)


def google_fetch_error(url: str, status: int, body: Any) -> ChatModelError:
    """``@google/generative-ai``'s message: ``[GoogleGenerativeAI Error]: Error fetching from <url>: [400 Bad
    Request] <Google's message> <its details as JSON>``."""
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else {}
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    message = f"[GoogleGenerativeAI Error]: Error fetching from {url}: [{status} {reason}] {error.get('message', '')}"
    details = error.get("details")
    if isinstance(details, list) and details:
        message += " " + json.dumps(details, separators=(",", ":"))
    return _class(status)(message, provider="Google Gemini", http_code=status)


def ollama_response_error(status: int, content_type: str | None, body: str, data: Any) -> ChatModelError:
    """The ``ollama`` library's message: a JSON answer's ``error`` (``model "x" not found, try pulling it
    first``), else the body's text, else ``Error 404: Not Found``. The fix goes to the description."""
    error = data.get("error") if isinstance(data, dict) and "json" in (content_type or "") else None
    if error:
        message = str(error)
    elif "json" not in (content_type or "") and body:
        message = body
    else:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = ""
        message = f"Error {status}: {reason}"
    fix = (
        "Check the model name (pull it on the server with 'ollama pull') and the Base URL and API key of the "
        "'ollamaApi' credential."
    )
    return _class(status)(
        message, provider="Ollama", http_code=status, description=f"Ollama answered HTTP {status}. {fix}"
    )


__all__ = ["google_fetch_error", "mistral_status_error", "ollama_response_error"]
