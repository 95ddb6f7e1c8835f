"""Typed errors → HTTP answers in n8n's shape: ``{"code", "message", "hint"?}``."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.responses import Response

from weft.db.base import NotFoundError
from weft.errors import ConfigurationError, WeftError, WorkflowDefinitionError
from weft.services.errors import (
    ExecutionConflictError,
    ExecutionNotFoundError,
    InvalidSignatureError,
    WebhookNotFoundError,
)
from weft.services.webhook_requests import BadRequestError


def _body(code: int, error: WeftError, hint: str | None = None) -> dict[str, object]:
    body: dict[str, object] = {"code": code, "message": error.message}
    if hint:
        body["hint"] = hint
    return body


async def _webhook_not_found(_: Request, error: Exception) -> Response:
    assert isinstance(error, WebhookNotFoundError)
    if error.allowed:
        return JSONResponse(_body(405, error, error.hint), 405, headers={"allow": ", ".join(error.allowed)})
    return JSONResponse(_body(404, error, error.hint), 404)


async def _invalid_signature(_: Request, error: Exception) -> Response:
    return JSONResponse({"error": "Invalid token"}, 401)


def _status_of(error: Exception) -> int:
    if isinstance(error, NotFoundError | ExecutionNotFoundError):
        return 404
    if isinstance(error, ExecutionConflictError):
        return 409
    if isinstance(error, WorkflowDefinitionError | ConfigurationError | BadRequestError):
        return 400
    return 500


async def _weft_error(_: Request, error: Exception) -> Response:
    assert isinstance(error, WeftError)
    code = _status_of(error)
    return JSONResponse(_body(code, error, error.description), code)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(WebhookNotFoundError, _webhook_not_found)
    app.add_exception_handler(InvalidSignatureError, _invalid_signature)
    app.add_exception_handler(WeftError, _weft_error)


__all__ = ["install_error_handlers"]
