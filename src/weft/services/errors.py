"""Errors of the use cases, each mapped by the server to one HTTP status (n8n's messages)."""

from __future__ import annotations

from weft.errors import ConfigurationError, WeftError


class ExecutionNotFoundError(WeftError):
    """404: no execution with that id."""

    n8n_name = "NotFoundError"

    def __init__(self, execution_id: str) -> None:
        super().__init__(f'The execution "{execution_id}" does not exist.', execution_id=execution_id)
        self.execution_id = execution_id


class ExecutionConflictError(WeftError):
    """409: the execution is not in a state that allows the request (not waiting, still running …)."""

    n8n_name = "ConflictError"


class InvalidSignatureError(WeftError):
    """401: the resume URL's ``signature`` is missing or wrong."""

    n8n_name = "UnauthorizedError"

    def __init__(self) -> None:
        super().__init__("Invalid token")


class WebhookNotFoundError(WeftError):
    """404: no active workflow listens on that path (for that method: 405 with ``allowed``)."""

    n8n_name = "NotFoundError"

    def __init__(self, message: str, *, hint: str, allowed: list[str] | None = None) -> None:
        super().__init__(message, description=hint)
        self.hint = hint
        self.allowed = allowed or []


class ActivationError(ConfigurationError):
    """A workflow cannot be activated (no trigger, a path used by another workflow …)."""


__all__ = [
    "ActivationError",
    "ExecutionConflictError",
    "ExecutionNotFoundError",
    "InvalidSignatureError",
    "WebhookNotFoundError",
]
