"""Typed errors → HTTP answers in n8n's shape: ``{"code", "message", "hint"?}``."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.responses import Response

from weft.db.base import NotFoundError
from weft.db.tags import TagConflictError
from weft.errors import ConfigurationError, WeftError, WorkflowDefinitionError
from weft.server.routes.public_api import PublicApiError
from weft.server.security import PayloadTooLargeError
from weft.server.validation import public_message, rest_message
from weft.services.auth import AuthError
from weft.services.errors import (
    ExecutionConflictError,
    ExecutionNotFoundError,
    InvalidSignatureError,
    WebhookNotFoundError,
)
from weft.services.webhook_requests import BadRequestError

log = logging.getLogger("weft.server")
PUBLIC_API = "/api/v1"


def _public(request: Request) -> bool:
    return request.url.path.startswith(PUBLIC_API)


def _plain(request: Request, code: int, message: str) -> JSONResponse:
    """An error answer: ``{"message"}`` on the public API, ``{"code", "message"}`` elsewhere."""
    return JSONResponse({"message": message} if _public(request) else {"code": code, "message": message}, code)


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
    if isinstance(error, ExecutionConflictError | TagConflictError):
        return 409
    if isinstance(error, WorkflowDefinitionError | ConfigurationError | BadRequestError):
        return 400
    return 500


async def _weft_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, WeftError)
    code = _status_of(error)
    if code == 500:
        log.error("%s %s failed", request.method, request.url.path, exc_info=error)
    if _public(request):
        return JSONResponse({"message": "Not Found" if code == 404 else error.message}, code)
    return JSONResponse(_body(code, error, error.description), code)


async def _auth_error(_: Request, error: Exception) -> Response:
    assert isinstance(error, AuthError)
    if error.status == 429:
        return JSONResponse({"message": error.message}, 429)
    return JSONResponse({"code": error.status, "message": error.message}, error.status)


async def _public_api_error(_: Request, error: Exception) -> Response:
    assert isinstance(error, PublicApiError)
    return JSONResponse({"message": error.message}, error.status)


async def _validation_error(request: Request, error: Exception) -> Response:
    """400 with one message (:mod:`weft.server.validation`), never FastAPI's 422 ``{"detail": [...]}``."""
    assert isinstance(error, RequestValidationError)
    errors = error.errors()
    if not _public(request):
        return JSONResponse({"code": 400, "message": rest_message(errors)}, 400)
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media and media != "application/json" and errors and tuple(errors[0].get("loc", ())) == ("body",):
        return JSONResponse({"message": f"unsupported media type {media}"}, 415)  # n8n's OpenAPI validator
    return JSONResponse({"message": public_message(errors)}, 400)


async def _too_large(request: Request, error: Exception) -> Response:
    assert isinstance(error, PayloadTooLargeError)
    return _plain(request, 413, error.detail)


async def _unexpected(request: Request, error: Exception) -> Response:
    """A bug: the traceback goes to the log, the client gets no server details."""
    log.error("%s %s failed", request.method, request.url.path, exc_info=error)
    if isinstance(error, RecursionError):
        return _plain(request, 400, "The request is nested too deeply.")
    return _plain(request, 500, "Internal server error")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(WebhookNotFoundError, _webhook_not_found)
    app.add_exception_handler(InvalidSignatureError, _invalid_signature)
    app.add_exception_handler(WeftError, _weft_error)
    app.add_exception_handler(AuthError, _auth_error)
    app.add_exception_handler(PublicApiError, _public_api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(PayloadTooLargeError, _too_large)
    app.add_exception_handler(Exception, _unexpected)


__all__ = ["install_error_handlers"]
