"""The Chat Trigger's ``authentication`` and ``options.allowedOrigins``, answered as n8n 2.8.4 answers them.

Recorded in ``tests/security/n8n_chat_answers.json`` (``tests/security/_record_n8n_chat.py``).

Authentication (n8n's ``validateAuth``, ``ChatTrigger/GenericFunctions.ts``), checked after ``public`` (a chat
that is not public is an empty 404 first) and before the page or the message:

* ``none``: anyone.
* ``basicAuth``: the ``httpBasicAuth`` credential; without one (or without user or password) 500 ``No
  authentication data defined on node!``; no basic credentials in the request 401 ``Authorization is required!``;
  wrong ones 403 ``Authorization data is wrong!``. The page (``GET``) is refused the same way.
* ``n8nUserAuth``: the ``n8n-auth`` session cookie of a logged-in user. The page is served to anyone (it asks
  ``/rest/login`` itself, as n8n's does); a message without the cookie is 500 ``User not authenticated!``.
  Deliberately stricter than n8n, which only checks that the cookie is there: Weft also checks the session
  (a forged, logged-out or expired one gets the same 500), since the cookie is all that stands for the user.

Every refusal is plain text with ``WWW-Authenticate: Basic realm="Webhook"``, n8n's header for all of them, and
starts no execution.

CORS (n8n's ``WebhookRequestHandler.setupCorsHeaders``), for any request with an ``Origin``: the allowed methods
are ``OPTIONS, GET, POST``; the allowed origin is the caller's when ``allowedOrigins`` is ``*`` (the default) or
lists it, else the first one listed. n8n refuses no origin (the browser does); ``OPTIONS`` is a 204 with
``Access-Control-Max-Age: 300`` and the requested headers allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import cookie_parser

from weft.nodes.webhooks import WebhookResponse
from weft.services import webhook_auth
from weft.services.auth import COOKIE_NAME, AuthService
from weft.services.webhook_auth import WebhookAuthorizationError

NOT_AUTHENTICATED = "User not authenticated!"
ALLOWED_METHODS = "OPTIONS, GET, POST"


def refusal(status: int, message: str) -> WebhookResponse:
    return WebhookAuthorizationError(status=status, message=message).response()


def check_basic(expected: Mapping[str, Any] | None, headers: Mapping[str, str]) -> WebhookResponse | None:
    """``basicAuth`` against the ``httpBasicAuth`` credential's data ``expected`` (``None``: none attached)."""
    try:
        webhook_auth.check_basic(expected, headers)
    except WebhookAuthorizationError as error:
        return error.response()
    return None


def check_user(auth: AuthService, headers: Mapping[str, str], *, page: bool) -> WebhookResponse | None:
    """``n8nUserAuth``: the session cookie must name a live session (synchronous: it reads the database)."""
    if page:
        return None
    token = cookie_parser(headers.get("cookie", "")).get(COOKIE_NAME)
    if not token or auth.session_user(token) is None:
        return refusal(500, NOT_AUTHENTICATED)
    return None


def cors_headers(allowed_origins: str, headers: Mapping[str, str], method: str) -> dict[str, str]:
    """n8n's CORS headers for a chat call (none without ``Origin``); see the module docstring."""
    origin = headers.get("origin")
    if origin is None:
        return {}
    out = {"access-control-allow-methods": ALLOWED_METHODS}
    requested = headers.get("access-control-request-method") if method == "OPTIONS" else method
    if not requested:
        return out
    if allowed_origins and allowed_origins != "*" and allowed_origins != origin:
        listed = allowed_origins.split(",")  # n8n does not trim the entries
        out["access-control-allow-origin"] = origin if origin in listed else listed[0]
    else:
        out["access-control-allow-origin"] = origin
    if method == "OPTIONS":
        out["access-control-max-age"] = "300"
        if headers.get("access-control-request-headers"):
            out["access-control-allow-headers"] = headers["access-control-request-headers"]
    return out


__all__ = ["ALLOWED_METHODS", "NOT_AUTHENTICATED", "check_basic", "check_user", "cors_headers", "refusal"]
