"""Calling a service's API from a node written in code (n8n's ``this.helpers.httpRequestWithAuthentication``,
``requestWithAuthentication`` and ``requestOAuth2``, which every integration's ``GenericFunctions.ts`` wraps).

:class:`ApiRequests` holds one node run's HTTP clients and credentials. :meth:`ApiRequests.request` takes n8n's
request options (``method``, ``url`` or ``baseURL`` + ``url``, ``qs``, ``body``, ``headers``, ``json``,
``encoding``, ``returnFullResponse`` …, see :func:`weft.nodes.routing.transport.send`), adds the credential as its
type says (a generic ``authenticate`` recipe, a ported function, ``preAuthentication``, OAuth2's bearer token,
renewed and stored back into the credential when the service says it expired, :mod:`weft.nodes.oauth2`), and
answers the parsed body, or n8n's full response (``body``, ``headers``, ``statusCode``, ``statusMessage``) when
``returnFullResponse`` is set. A non-2xx answer raises n8n's :class:`weft.errors.NodeApiError`; the requests go
through the kit's HTTP layer (the environment's proxies, ``WEFT_EXTRA_CA_CERTS``, the credential's allowed domains
on every redirect hop).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from weft.errors import NodeApiError
from weft.nodes.contract import ExecuteContext
from weft.nodes.http.clients import Clients
from weft.nodes.routing import transport
from weft.nodes.routing.authenticate import Credential, authenticated, before_request, renew_after, with_defaults
from weft.nodes.routing.scope import RoutingScope


class ApiRequests:
    """One node run's authenticated API requests; use as ``async with ApiRequests(ctx) as api``."""

    def __init__(self, ctx: ExecuteContext) -> None:
        self.ctx = ctx
        self.clients = Clients()
        self._scope = RoutingScope(ctx, {"properties": []})
        self._credentials: dict[str, Credential] = {}

    async def __aenter__(self) -> ApiRequests:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.clients.aclose()

    async def credential(self, type_name: str) -> Credential:
        """The node's credential of ``type_name``, with its type's defaults (n8n's decrypted data)."""
        if type_name not in self._credentials:
            data = await self.ctx.get_credentials(type_name)
            filled = with_defaults(self._scope, type_name, data)
            self._credentials[type_name] = Credential(type_name=type_name, data=filled, required=True)
        return self._credentials[type_name]

    async def request(self, credential_type: str | None, options: Mapping[str, Any], item_index: int = 0) -> Any:
        """Send ``options`` with the credential of ``credential_type`` (none when None); the parsed body, or the
        full response when ``options["returnFullResponse"]``."""
        full = bool(options.get("returnFullResponse"))
        response = await self._send(credential_type, dict(options), item_index)
        return response if full else response["body"]

    async def _send(self, credential_type: str | None, options: dict[str, Any], item_index: int) -> dict[str, Any]:
        if credential_type is None:
            return await transport.send(self.ctx, item_index, options, self.clients)
        credential = await self.credential(credential_type)
        await before_request(self._scope, credential, self.clients, item_index)
        sent_token = credential.access_token
        try:
            sent = await authenticated(self._scope, credential, copy.deepcopy(options), item_index)
            return await transport.send(self.ctx, item_index, sent, self.clients)
        except NodeApiError as error:
            if not await self._renew(credential, error.http_code, sent_token, item_index):
                raise
            sent = await authenticated(self._scope, credential, copy.deepcopy(options), item_index)
            return await transport.send(self.ctx, item_index, sent, self.clients)

    async def _renew(self, credential: Credential, status: int | None, sent_token: str | None, index: int) -> bool:
        """After an error answer: renew an expired OAuth2 token (refresh, stored back into the credential) or a
        ``preAuthentication`` session token (on a 401); whether the request may be sent once more."""
        return await renew_after(self._scope, credential, status, sent_token, self.clients, index)


__all__ = ["ApiRequests"]
