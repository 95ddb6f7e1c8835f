"""A Google service account's access token for declarative nodes (n8n's ``getGoogleAccessToken``), and the port
of the ``googleApi`` credential's ``authenticate`` (used by nodes that send with the credential itself, as the
HTTP Request node does when the credential's ``httpNode`` is on)."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.nodes.google_service_account import JWT_GRANT, TOKEN_URL, format_pem_block
from weft.nodes.routing.functions import port
from weft.nodes.routing.scope import RoutingScope

_FORM = "application/x-www-form-urlencoded"


def _assertion(credentials: Mapping[str, Any], scopes: str, private_key: str) -> str:
    import jwt

    email = str(credentials.get("email") or "").strip()
    now = int(time.time())
    claims = {
        "iss": email,
        "sub": str(credentials.get("delegatedEmail") or "") or email,
        "scope": scopes,
        "aud": TOKEN_URL,
        "iat": now,
        "exp": now + 3600,
    }
    return jwt.encode(claims, private_key, algorithm="RS256", headers={"typ": "JWT", "alg": "RS256"})


async def service_account_token(
    ctx: ExecuteContext, item_index: int, credentials: Mapping[str, Any], scopes: str, *, raw_key: bool = False
) -> str:
    """The access token Google's token URL answers for the JWT the account signs with ``scopes`` (the key as n8n's
    ``formatPemBlock`` reads it, or, ``raw_key``, with only its ``\\n`` unescaped as the credential's own
    ``authenticate`` does)."""
    import jwt

    from weft.nodes.routing import transport

    key = str(credentials.get("privateKey") or "")
    key = key.replace("\\n", "\n").strip() if raw_key else format_pem_block(key)
    try:
        assertion = _assertion(credentials, scopes, key)
    except (ValueError, TypeError, jwt.PyJWTError) as error:
        raise NodeApiError(
            ctx.node.name,
            "Authorization failed - please check your credentials",
            http_code=401,
            item_index=item_index,
            description=f"The service account's private key cannot sign: {error or type(error).__name__}. Paste the "
            "whole key (-----BEGIN PRIVATE KEY----- …) into the Google Service Account credential.",
        ) from error
    options = {
        "method": "POST",
        "url": TOKEN_URL,
        "headers": {"Content-Type": _FORM},
        "body": {"grant_type": JWT_GRANT, "assertion": assertion},
        "json": True,
    }
    clients = transport.Clients()
    try:
        answer = (await transport.send(ctx, item_index, options, clients)).get("body")
    finally:
        await clients.aclose()
    found = answer.get("access_token") if isinstance(answer, Mapping) else None
    if not found:
        raise NodeOperationError(
            ctx.node.name, "Google's token endpoint answered no access token", item_index=item_index
        )
    return str(found)


@port("authenticate", "authenticate", "661362641ad695d9")
async def google_api(scope: RoutingScope, credentials: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``GoogleApi.authenticate``: nothing unless the credential is set for the HTTP node (``httpNode``); then a
    token for the credential's own scopes as a bearer header."""
    if not credentials.get("httpNode"):
        return options
    scopes = " ".join(s for s in re.split(r"[,\s\n]+", str(credentials.get("scopes") or "").replace("\\n", "\n")) if s)
    token = await service_account_token(scope.ctx, 0, credentials, scopes, raw_key=True)
    options["headers"] = {**(options.get("headers") or {}), "Authorization": f"Bearer {token}"}
    return options


__all__ = ["service_account_token"]
