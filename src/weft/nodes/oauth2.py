"""Renewing an OAuth2 credential's token (n8n's ``requestOAuth2`` with ``@n8n/client-oauth2``).

When the service answers the token-expired status (401, or the credential's ``tokenExpiredStatusCode``), n8n asks
the credential's ``accessTokenUrl`` for a new token: ``grant_type=refresh_token`` with the stored refresh token
(the ``authorizationCode`` grant), or ``grant_type=client_credentials`` (the ``clientCredentials`` grant, which
also fetches a token when none is stored). The client id and secret go in a Basic header, or in the body when
the credential's ``authentication`` is ``body`` (only the id when there is no secret). The answer is merged into
``oauthTokenData``, stored back into the credential (encrypted, through the host's
``update_credential_oauth_token``) so the next execution uses it, and the request is sent once more.

A token endpoint that refuses answers as client-oauth2 words it: the standard text of its ``error`` code (RFC
6749), else its ``error_description``; a revoked or expired refresh token (``invalid_grant``) asks to reconnect
the credential, as n8n 2.41 does.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.nodes.http.clients import Clients
from weft.nodes.routing import transport

#: client-oauth2's texts for the RFC 6749 error codes.
ERROR_RESPONSES = {
    "invalid_request": "The request is missing a required parameter, includes an invalid parameter value, includes "
    "a parameter more than once, or is otherwise malformed.",
    "invalid_client": "Client authentication failed (e.g., unknown client, no client authentication included, or "
    "unsupported authentication method).",
    "invalid_grant": "The provided authorization grant (e.g., authorization code, resource owner credentials) or "
    "refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization "
    "request, or was issued to another client.",
    "unauthorized_client": "The client is not authorized to request an authorization code using this method.",
    "unsupported_grant_type": "The authorization grant type is not supported by the authorization server.",
    "access_denied": "The resource owner or authorization server denied the request.",
    "unsupported_response_type": "The authorization server does not support obtaining an authorization code using "
    "this method.",
    "invalid_scope": "The requested scope is invalid, unknown, or malformed.",
    "server_error": "The authorization server encountered an unexpected condition that prevented it from fulfilling "
    "the request. (This error code is needed because a 500 Internal Server Error HTTP status code cannot be "
    "returned to the client via an HTTP redirect.)",
    "temporarily_unavailable": "The authorization server is currently unable to handle the request due to a "
    "temporary overloading or maintenance of the server.",
}
_RECONNECT = (
    "Access could not be refreshed because the connected account has revoked access, the refresh token expired, "
    "or the account password or permissions changed. Open the credential and reconnect it to continue."
)


def token_expired(data: Mapping[str, Any], status: int | None, default: int | list[int] = 401) -> bool:
    """Whether ``status`` says the token expired (n8n's ``resolveTokenExpiredStatusCode``: the credential's
    ``tokenExpiredStatusCode``, a number or a list, else the node's, else 401)."""
    configured = data.get("tokenExpiredStatusCode", default)
    if isinstance(configured, list):
        return status in {int(code) for code in configured}
    try:
        return status == int(configured)
    except (TypeError, ValueError):
        return status == 401


def needs_client_credentials_token(data: Mapping[str, Any]) -> bool:
    """The ``clientCredentials`` grant without a stored access token: n8n fetches one before the first request."""
    token = data.get("oauthTokenData")
    return data.get("grantType") == "clientCredentials" and (
        not isinstance(token, Mapping) or not token or token.get("access_token") == ""
    )


async def renew(
    ctx: ExecuteContext, clients: Clients, type_name: str, data: dict[str, Any], item_index: int = 0
) -> dict[str, Any]:
    """Fetch a new token for the OAuth2 credential ``data`` (of ``type_name``), store it in the credential and in
    ``data["oauthTokenData"]``; the new token data."""
    stored = data.get("oauthTokenData") if isinstance(data.get("oauthTokenData"), Mapping) else {}
    assert isinstance(stored, Mapping)
    if data.get("grantType") == "clientCredentials":
        body: dict[str, Any] = {"grant_type": "client_credentials"}
        scopes = [s.strip() for s in str(data.get("scope") or "").split(" ") if s.strip()]
        if scopes:
            body["scope"] = " ".join(scopes)
    else:
        refresh_token = stored.get("refresh_token")
        if not refresh_token:
            raise NodeOperationError(
                ctx.node.name,
                "OAuth access token expired and no refresh token is available. Please reconnect the credentials.",
                item_index=item_index,
                description=f"Reconnect the {type_name} credential (sign in again), then run the node again.",
            )
        body = {"refresh_token": refresh_token, "grant_type": "refresh_token"}
    answer = await _token_request(ctx, clients, type_name, data, body, item_index)
    token = {**stored, **answer}
    expires_in = _number(answer.get("expires_in"))
    if expires_in is not None and expires_in > 0:
        token["n8n_expires_at"] = str(int(time.time() * 1000 + expires_in * 1000))
    data["oauthTokenData"] = token
    update = getattr(ctx.services, "update_credential_oauth_token", None)
    if update is not None:
        await update(ctx, type_name, token)
    return token


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _client_auth(data: Mapping[str, Any], body: dict[str, Any], headers: dict[str, str]) -> None:
    client_id, secret = str(data.get("clientId") or ""), data.get("clientSecret")
    if not secret:
        body["client_id"] = client_id
    elif data.get("authentication") == "body":
        body["client_id"], body["client_secret"] = client_id, secret
    else:
        pair = f"{client_id}:{secret}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()


async def _token_request(
    ctx: ExecuteContext,
    clients: Clients,
    type_name: str,
    data: Mapping[str, Any],
    body: dict[str, Any],
    item_index: int,
) -> dict[str, Any]:
    headers = {
        "Accept": "application/json, application/x-www-form-urlencoded",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    _client_auth(data, body, headers)
    form = "&".join(f"{quote(str(k), safe='')}={quote(str(v), safe='')}" for k, v in body.items())
    options = {
        "method": "POST",
        "url": str(data.get("accessTokenUrl") or ""),
        "headers": headers,
        "body": form,
        "ignoreHttpStatusErrors": True,
        "skipSslCertificateValidation": bool(data.get("ignoreSSLIssues")),
    }
    response = await transport.send(ctx, item_index, options, clients)
    status, answer = int(response["statusCode"]), response["body"]
    if status >= 400 and isinstance(answer, Mapping) and answer.get("error"):
        _refused(ctx, type_name, answer, item_index)
    if status >= 300 or not isinstance(answer, Mapping):
        raise NodeApiError(
            ctx.node.name,
            f"Could not renew the OAuth2 token of the {type_name} credential: the token endpoint answered {status}",
            http_code=status,
            item_index=item_index,
            description=str(answer)[:200],
        )
    return dict(answer)


def _refused(ctx: ExecuteContext, type_name: str, answer: Mapping[str, Any], item_index: int) -> None:
    code = str(answer.get("error"))
    if code == "invalid_grant":
        reference = (ctx.node.credentials or {}).get(type_name)
        name = reference.get("name") if isinstance(reference, Mapping) else None
        label = f'"{name}"' if name else f'of type "{type_name}"'
        raise NodeOperationError(
            ctx.node.name, f"The credential {label} needs to be reconnected.", item_index=item_index,
            description=_RECONNECT,
        )  # fmt: skip
    message = ERROR_RESPONSES.get(code) or str(answer.get("error_description") or code)
    raise NodeApiError(ctx.node.name, message, item_index=item_index, description=f"Token endpoint: {code}")


__all__ = ["ERROR_RESPONSES", "needs_client_credentials_token", "renew", "token_expired"]
