"""Ports of credential types' ``authenticate`` and ``preAuthentication`` functions."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.functions import port
from weft.nodes.routing.scope import RoutingScope


@port("authenticate", "authenticate", "a7b5a9b3702909fe")
async def open_ai_api(scope: RoutingScope, credentials: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``OpenAiApi.authenticate``: the key as a bearer token, the organization, an optional custom header."""
    headers = options.setdefault("headers", {})
    headers["Authorization"] = f"Bearer {credentials.get('apiKey')}"
    headers["OpenAI-Organization"] = credentials.get("organizationId")
    name, value = credentials.get("headerName"), credentials.get("headerValue")
    if credentials.get("header") and isinstance(name, str) and name and isinstance(value, str):
        headers[name] = value
    return options


@port("preAuthentication", "preAuthentication", "21e70aa1f7696973")
async def metabase_api(scope: RoutingScope, credentials: dict[str, Any]) -> dict[str, Any]:
    """``MetabaseApi.preAuthentication``: a session token from ``POST <url>/api/session``."""
    from weft.nodes.routing import transport

    url = str(credentials.get("url") or "")
    options = {
        "method": "POST",
        "url": f"{url[:-1] if url.endswith('/') else url}/api/session",
        "body": {"username": credentials.get("username"), "password": credentials.get("password")},
    }
    clients = transport.Clients()
    try:
        answer = await transport.send(scope.ctx, 0, options, clients)
    finally:
        await clients.aclose()
    body = answer.get("body")
    return {"sessionToken": body.get("id") if isinstance(body, dict) else None}
