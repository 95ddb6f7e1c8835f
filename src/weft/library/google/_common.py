"""What the Google nodes share (n8n's ``nodes/Google/GenericFunctions.ts``).

:func:`google_request` sends one API request with the credential the node's ``authentication`` parameter picks:
a service account (``googleApi``: :mod:`weft.nodes.google_service_account`, a JWT exchanged for a token) or an
OAuth2 credential (through :class:`weft.nodes.api.ApiRequests`, which renews an expired token and stores it back).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from weft.nodes.api import ApiRequests
from weft.nodes.google_service_account import JWT_GRANT, TOKEN_URL, service_account_token, signed_assertion


async def test_service_account(data: Mapping[str, Any]) -> dict[str, str]:
    """n8n's ``googleApiCredentialTest`` (the credential test of a ``googleApi`` credential): a token fetched with
    the signed JWT, or why not."""
    from weft.nodes.http.clients import new_client

    try:
        assertion = signed_assertion(data, "sheetV2")
        async with new_client(timeout=30) as client:
            response = await client.post(TOKEN_URL, data={"grant_type": JWT_GRANT, "assertion": assertion})
        answer = response.json() if response.content else {}
    except (ValueError, httpx.HTTPError) as error:
        return {"status": "Error", "message": f"Private key validation failed: {error}"}
    if response.status_code >= 400 or not isinstance(answer, dict):
        reason = answer.get("error_description") if isinstance(answer, dict) else None
        return {"status": "Error", "message": f"Private key validation failed: {reason or response.status_code}"}
    if not answer.get("access_token"):
        return {"status": "Error", "message": "Could not generate a token from your private key."}
    return {"status": "OK", "message": "Connection successful!"}


async def google_request(
    api: ApiRequests,
    options: dict[str, Any],
    *,
    oauth2_type: str,
    service: str,
    item_index: int = 0,
    authentication: str | None = None,
) -> Any:
    """Send ``options`` with the node's Google credential: a service account when ``authentication`` (else the
    node's ``authentication`` parameter, default ``oAuth2``) is ``serviceAccount``, else ``oauth2_type``."""
    method = authentication or api.ctx.get_node_parameter("authentication", 0, "oAuth2")
    if method != "serviceAccount":
        return await api.request(oauth2_type, options, item_index)
    cache = api.__dict__.setdefault("_google_tokens", {})
    if service not in cache:
        credentials = await api.ctx.get_credentials("googleApi")
        cache[service] = await service_account_token(api, credentials, service, item_index)
    headers = {**(options.get("headers") or {}), "Authorization": f"Bearer {cache[service]}"}
    return await api.request(None, {**options, "headers": headers}, item_index)


__all__ = ["google_request", "test_service_account"]
