"""A provider's HTTP failure as n8n shows it for the chat models whose SDK errors reach n8n's ``NodeApiError``
with a status (Google Gemini, Groq): n8n's message for the status, the provider's own words as the description
(recorded: cases s904, s905, s924, s925)."""

from __future__ import annotations

from weft.ai.errors import (
    ChatModelAuthError,
    ChatModelBadRequestError,
    ChatModelError,
    ChatModelRateLimitError,
    ChatModelServerError,
)
from weft.nodes.http.errors import STATUS_MESSAGES

_CLASSES: dict[int, type[ChatModelError]] = {
    401: ChatModelAuthError,
    403: ChatModelAuthError,
    429: ChatModelRateLimitError,
}


def status_node_error(status: int, provider: str, description: str) -> ChatModelError:
    """The typed error for HTTP ``status``: n8n's message for it, ``description`` saying what the provider said."""
    message = STATUS_MESSAGES.get(status) or STATUS_MESSAGES[5 if status >= 500 else 4]
    cls = _CLASSES.get(status) or (ChatModelServerError if status >= 500 else ChatModelBadRequestError)
    return cls(message, provider=provider, http_code=status, description=description)


__all__ = ["status_node_error"]
