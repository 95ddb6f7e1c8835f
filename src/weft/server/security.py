"""The checks every request passes before a route sees it (a plain ASGI middleware, cheap on the webhook path).

1. ``Host`` must name this server (the public URL's host, a loopback name, or ``WEFT_ALLOWED_HOSTS``): a page of
   another site cannot reach the server through a DNS name it rebinds to 127.0.0.1.
2. The body may not exceed ``WEFT_PAYLOAD_SIZE_MAX`` MiB (16, as n8n): 413, whether it says its length or not.
3. State-changing calls to ``/rest`` and ``/api/v1`` (``POST``, ``PUT``, ``PATCH``, ``DELETE``) that a browser
   sends from another origin are refused (403), form posts without a body included.
4. ``/rest`` (and the OpenAPI pages) need a login session (the ``n8n-auth`` cookie, ``SameSite=Lax``), except
   logging in and setting up the owner; ``/api/v1`` needs an ``X-N8N-API-KEY``. Answers are n8n's.
   Webhooks, waiting webhooks, the chat page and MCP triggers keep their own authentication.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from weft.services.auth import COOKIE_NAME
from weft.settings import Settings

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: ``/rest`` routes that answer without a session (``(method, path)``).
PUBLIC_REST = frozenset({("POST", "/rest/login"), ("POST", "/rest/owner/setup")})
DOCS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


class PayloadTooLargeError(HTTPException):
    """413: the body is larger than ``WEFT_PAYLOAD_SIZE_MAX``; an HTTP exception so FastAPI's body parsing keeps it."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than {limit / 1024 / 1024:g} MiB (WEFT_PAYLOAD_SIZE_MAX).")


def allowed_hosts(settings: Settings) -> frozenset[str] | None:
    """The host names accepted in ``Host``; ``None`` accepts any (``WEFT_ALLOWED_HOSTS=*``)."""
    if "*" in settings.allowed_hosts:
        return None
    names = set(LOOPBACK) | {h.strip("[]") for h in settings.allowed_hosts}
    public = urlsplit(settings.base_url).hostname
    if public:
        names.add(public.lower())
    if settings.host not in ("0.0.0.0", "::", ""):
        names.add(settings.host.lower().strip("[]"))
    return frozenset(names)


def host_name(value: str) -> str:
    """The host of a ``Host`` header value, without port or IPv6 brackets, lower-case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class SecurityMiddleware:
    """See the module docstring. ``app.state.instance`` (set by the lifespan) answers the session and key look-ups."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.hosts = allowed_hosts(settings)
        self.limit = settings.payload_size_max_bytes
        public = urlsplit(settings.base_url)
        self.public_origin = f"{public.scheme}://{public.netloc}".lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _send_json(send, *refusal)
            return
        path: str = scope["path"]
        if path.startswith("/rest") or path in DOCS:
            refusal = await self._session(scope, headers)
        elif path.startswith("/api/v1"):
            refusal = await self._api_key(scope, headers)
        if refusal is not None:
            await _send_json(send, *refusal)
            return
        await self.app(scope, self._limited(receive), send)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, dict[str, Any]] | None:
        if self.hosts is not None and host_name(headers.get("host", "")) not in self.hosts:
            return 400, {"code": 400, "message": "The Host header does not name this server (WEFT_ALLOWED_HOSTS)."}
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.limit:
            return 413, {"code": 413, "message": PayloadTooLargeError(self.limit).detail}
        path: str = scope["path"]
        api = path.startswith(("/rest", "/api/v1"))
        if api and scope["method"] in UNSAFE_METHODS and not self._same_origin(headers):
            return 403, {"code": 403, "message": "Cross-origin requests to the API are refused."}
        return None

    def _same_origin(self, headers: dict[str, str]) -> bool:
        if headers.get("sec-fetch-site") == "cross-site":
            return False
        origin = headers.get("origin")
        if origin is None:  # not a browser's cross-origin call (curl, the CLI, server-to-server)
            return True
        origin = origin.lower().rstrip("/")
        if origin == self.public_origin:
            return True
        parts = urlsplit(origin)
        return bool(parts.netloc) and parts.netloc == headers.get("host", "").lower()

    async def _session(self, scope: Scope, headers: dict[str, str]) -> tuple[int, dict[str, Any]] | None:
        if (scope["method"], scope["path"].rstrip("/")) in PUBLIC_REST:
            return None
        token = _cookie(headers.get("cookie", ""), COOKIE_NAME)
        instance = scope["app"].state.instance
        user = await instance.runner.db(instance.auth.session_user, token) if token else None
        if user is None:
            return 401, {"status": "error", "message": "Unauthorized"}
        scope.setdefault("state", {})["user"] = user
        scope["state"]["session_token"] = token
        return None

    async def _api_key(self, scope: Scope, headers: dict[str, str]) -> tuple[int, dict[str, Any]] | None:
        key = headers.get("x-n8n-api-key")
        if not key:
            return 401, {"message": "'X-N8N-API-KEY' header required"}
        instance = scope["app"].state.instance
        found = await instance.runner.db(instance.auth.api_key_user, key)
        if found is None:
            return 401, {"message": "unauthorized"}
        scope.setdefault("state", {})["user"], scope["state"]["api_key"] = found
        return None

    def _limited(self, receive: Receive) -> Receive:
        limit = self.limit
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise PayloadTooLargeError(limit)
            return message

        return limited


_WANTED = {
    name.encode(): name for name in ("host", "content-length", "origin", "sec-fetch-site", "cookie", "x-n8n-api-key")
}


def _headers(scope: Scope) -> dict[str, str]:
    """The few headers the checks read (ASGI servers give names in lower case)."""
    found: dict[str, str] = {}
    for key, value in scope["headers"]:
        name = _WANTED.get(key) or _WANTED.get(key.lower())
        if name is not None:
            found[name] = value.decode("latin-1")
    return found


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value or None
    return None


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    payload = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json; charset=utf-8"), (b"content-length", str(len(payload)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


__all__ = ["PayloadTooLargeError", "SecurityMiddleware", "allowed_hosts", "host_name"]
