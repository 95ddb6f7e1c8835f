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

#: n8n's ``NodeApiError`` messages by status (``STATUS_CODE_MESSAGES``).
STATUS_MESSAGES = {
    400: "Bad request - please check your parameters",
    401: "Authorization failed - please check your credentials",
    402: "Payment required - perhaps check your payment details?",
    403: "Forbidden - perhaps check your credentials?",
    404: "The resource you are requesting could not be found",
    405: "Method not allowed - please check you are using the right HTTP method",
    429: "The service is receiving too many requests from you",
    500: "The service was not able to process your request",
    502: "Bad gateway - the service failed to handle your request",
    503: "Service unavailable - try again later or consider setting this node to retry automatically (in the node "
    "settings)",
    504: "Gateway timed out - perhaps try again later?",
}
_CLASSES: dict[int, type[ChatModelError]] = {
    401: ChatModelAuthError,
    403: ChatModelAuthError,
    429: ChatModelRateLimitError,
}


def status_node_error(status: int, provider: str, description: str) -> ChatModelError:
    """The typed error for HTTP ``status``: n8n's message for it, ``description`` saying what the provider said."""
    fallback = (
        "The service failed to process your request"
        if status >= 500
        else ("Your request is invalid or could not be processed by the service")
    )
    cls = _CLASSES.get(status) or (ChatModelServerError if status >= 500 else ChatModelBadRequestError)
    return cls(STATUS_MESSAGES.get(status, fallback), provider=provider, http_code=status, description=description)


__all__ = ["STATUS_MESSAGES", "status_node_error"]
