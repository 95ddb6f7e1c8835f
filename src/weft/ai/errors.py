"""Errors of the AI layer.

Provider failures become a :class:`ChatModelError`, a :class:`~weft.errors.NodeApiError`, so the model node's
run and the workflow error read like n8n's (``Authorization failed - please check your credentials``), and each
message says what to change::

    NodeApiError
    └── ChatModelError                 a chat model call failed (``retryable`` says whether to try again)
        ├── ChatModelAuthError         401/403: the credential's key (or Base URL) is wrong
        ├── ChatModelRateLimitError    429: too many requests (retryable)
        │   └── ChatModelQuotaError    429 ``insufficient_quota``: the account has no credit (not retryable)
        ├── ChatModelBadRequestError   400/404/422: the model name or the request is wrong
        ├── ChatModelTimeoutError      no answer within the node's Timeout (retryable)
        ├── ChatModelConnectionError   the server cannot be reached (retryable)
        ├── ChatModelServerError       5xx from the provider (retryable)
        ├── ChatModelResponseError     the answer could not be read (e.g. tool arguments are not JSON)
        └── ScriptExhaustedError       a scripted test model has no turn left
    WeftError
    └── MessageFormatError             stored message JSON is not in the expected shape

Adapters raise these without knowing the node; the traced wrapper (``weft.ai.models.traced``) stamps the
node's name on them before they leave the model.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeApiError, WeftError


class ChatModelError(NodeApiError):
    """A chat model call failed."""

    retryable: ClassVar[bool] = False
    """Whether the same request may succeed when sent again (the node's Max Retries applies)."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        http_code: int | None = None,
        description: str | None = None,
        node_name: str = "",
        **context: Any,
    ) -> None:
        super().__init__(node_name, message, http_code=http_code, description=description, **context)
        self.provider = provider

    def for_node(self, node_name: str) -> ChatModelError:
        """Name the model node this error belongs to (kept if already set); returns ``self``."""
        if not self.node_name:
            self.node_name = node_name
        return self


class ChatModelAuthError(ChatModelError):
    """The provider rejected the credentials."""


class ChatModelRateLimitError(ChatModelError):
    """Too many requests; worth retrying after a pause."""

    retryable = True


class ChatModelQuotaError(ChatModelRateLimitError):
    """The account's quota or credit is used up; retrying will not help."""

    retryable = False


class ChatModelBadRequestError(ChatModelError):
    """The provider refused the request itself (unknown model, bad parameter, context too long)."""


class ChatModelTimeoutError(ChatModelError):
    """The provider did not answer in time."""

    retryable = True


class ChatModelConnectionError(ChatModelError):
    """The provider's server could not be reached."""

    retryable = True


class ChatModelServerError(ChatModelError):
    """The provider failed on its side (HTTP 5xx)."""

    retryable = True


class ChatModelResponseError(ChatModelError):
    """The provider answered, but the answer cannot be used."""


class ScriptExhaustedError(ChatModelError):
    """A scripted model was called more often than its script has turns."""


class MessageFormatError(WeftError):
    """Stored message JSON is not in the shape ``to_json`` writes."""


__all__ = [
    "ChatModelAuthError",
    "ChatModelBadRequestError",
    "ChatModelConnectionError",
    "ChatModelError",
    "ChatModelQuotaError",
    "ChatModelRateLimitError",
    "ChatModelResponseError",
    "ChatModelServerError",
    "ChatModelTimeoutError",
    "MessageFormatError",
    "ScriptExhaustedError",
]
