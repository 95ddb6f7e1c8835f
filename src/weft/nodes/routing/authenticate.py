"""The credential of a declarative node's requests (n8n's ``prepareCredentials`` and
``httpRequestWithAuthentication``): which credential the node uses, its data with the type's defaults, and how each
request carries it.

A type's ``authenticate`` is a generic recipe (``headers``, ``qs``, ``body``, ``auth`` whose values are
expressions over ``$credentials``) or a function (its port). A type with ``preAuthentication`` (a session token
fetched with the credential's login) gets its token when the expirable field is empty, and again once when the
service answers 401 (Weft keeps that token for the node run only; n8n stores it in the credential). An OAuth2
type sends its stored access token as ``Authorization: Bearer``; when the service answers the token-expired status
(401, or the credential's ``tokenExpiredStatusCode``) the token is renewed (:mod:`weft.nodes.oauth2`: a refresh,
or a new client-credentials token), stored back into the credential, and the request is sent once more.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from weft.errors import NodeOperationError, WeftError
from weft.nodes.credential_domains import assert_credential_allows_url, is_domain_allowed
from weft.nodes.credential_types import credential_type, type_properties
from weft.nodes.http.clients import Clients
from weft.nodes.oauth2 import needs_client_credentials_token, renew, token_expired
from weft.nodes.routing.functions import ported
from weft.nodes.routing.scope import RoutingScope

OAUTH2 = "oAuth2Api"


@dataclass
class Credential:
    """The credential of one node run."""

    type_name: str
    data: dict[str, Any]
    required: bool = False
    described: dict[str, Any] | None = None
    """The type's description, when not one of ``credential_types.json`` (a type defined in code, tests)."""
    renewing: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    """Held while an OAuth2 token is renewed: items failing together renew it once."""

    @property
    def access_token(self) -> str | None:
        """The stored OAuth2 access token, if any."""
        token = self.data.get("oauthTokenData")
        value = token.get("access_token") if isinstance(token, Mapping) else None
        return str(value) if value else None

    @property
    def description(self) -> dict[str, Any]:
        return self.described if self.described is not None else credential_type(self.type_name) or {}

    def extends(self, parent: str) -> bool:
        """Whether the type is, or extends, ``parent`` (n8n's ``getParentTypes``)."""
        pending, seen = [self.type_name], set()
        while pending:
            name = pending.pop()
            if name == parent:
                return True
            if name not in seen:
                seen.add(name)
                pending.extend((credential_type(name) or {}).get("extends") or [])
        return False

    @property
    def expirable_field(self) -> str | None:
        properties = self.description.get("properties") if self.described is not None else None
        for prop in properties or type_properties(self.type_name) or []:
            if prop.get("type") == "hidden" and (prop.get("typeOptions") or {}).get("expirable") is True:
                return str(prop.get("name"))
        return None


def chosen_credential(scope: RoutingScope) -> tuple[str, bool] | None:
    """n8n's ``prepareCredentials``: the credential type the node uses (and whether it is required)."""
    described = [c for c in scope.description.get("credentials") or [] if isinstance(c, Mapping)]
    if not described:
        return None
    if len(described) == 1:
        return str(described[0]["name"]), bool(described[0].get("required"))
    method = scope.parameter("authentication", 0, None)
    for entry in described:
        shown = ((entry.get("displayOptions") or {}).get("show") or {}).get("authentication") or []
        if method in shown:
            return str(entry["name"]), bool(entry.get("required"))
    raise NodeOperationError(
        scope.node_name,
        f'Node type "{scope.type_name}" does not have any credentials of type "{method}" defined',
        description="Set the node's 'Authentication' parameter to one of the methods it offers.",
    )


async def load_credential(scope: RoutingScope) -> Credential | None:
    """The node's credential with the defaults of its type's fields (n8n's decrypted data), if it has one."""
    chosen = chosen_credential(scope)
    if chosen is None:
        return None
    type_name, required = chosen
    try:
        data = await scope.ctx.get_credentials(type_name)
    except WeftError:
        if required:
            raise
        return None
    return Credential(type_name=type_name, data=with_defaults(scope, type_name, data), required=required)


def with_defaults(scope: RoutingScope, type_name: str, data: Mapping[str, Any]) -> dict[str, Any]:
    filled: dict[str, Any] = {}
    expressions: dict[str, str] = {}
    for prop in type_properties(type_name) or []:
        default = prop.get("default")
        if isinstance(default, str) and default.startswith("="):
            expressions[str(prop["name"])] = default
        elif "default" in prop:
            filled[str(prop["name"])] = copy.deepcopy(default)
    filled.update(data)
    for name, expression in expressions.items():  # `$self` is the credential (n8n's applyDefaultsAndOverwrites)
        if name not in data:
            filled[name] = scope.value(expression.replace("$self", "$credentials"), 0, {"$credentials": filled})
    return filled


async def authenticated(
    scope: RoutingScope, credential: Credential, options: dict[str, Any], item_index: int
) -> dict[str, Any]:
    """``options`` as the credential sends them (n8n's ``credentialsHelper.authenticate``, or OAuth2's bearer)."""
    if credential.extends(OAUTH2):
        return _oauth2(scope, credential, options, item_index)
    recipe = credential.description.get("authenticate")
    if isinstance(recipe, Mapping) and "$function" in recipe:
        fn = ported(recipe, "authenticate", scope.node_name, credential.type_name, item_index)
        result: dict[str, Any] = await fn(scope, credential.data, options)
        return result
    if not (isinstance(recipe, Mapping) and recipe.get("type") == "generic"):
        return options
    options.setdefault("headers", {})
    keys = {"$credentials": credential.data}
    for where, entries in (recipe.get("properties") or {}).items():
        target = options.get(where)
        if not isinstance(target, dict):
            target = options[where] = {}
        for key, value in (entries or {}).items():
            target[str(scope.value(key, 0, keys))] = _as_text(scope.value(value, 0, keys))
    return options


def _as_text(value: Any) -> Any:
    """n8n resolves a recipe's values with ``returnObjectAsString``."""
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def _oauth2(scope: RoutingScope, credential: Credential, options: dict[str, Any], item_index: int) -> dict[str, Any]:
    token = credential.data.get("oauthTokenData")
    access = token.get("access_token") if isinstance(token, Mapping) else None
    if not access:
        raise NodeOperationError(
            scope.node_name,
            "OAuth credentials not connected",
            item_index=item_index,
            description=f"Connect the {credential.type_name} credential (sign in), then run the node again.",
        )
    headers = options.setdefault("headers", {})
    headers["Authorization"] = f"Bearer {access}"
    return options


async def pre_authenticate(scope: RoutingScope, credential: Credential, *, expired: bool, item_index: int) -> bool:
    """n8n's ``preAuthentication``: fetch the expirable field (a session token) when it is empty or ``expired``;
    whether it was fetched."""
    marker = credential.description.get("preAuthentication")
    name = credential.expirable_field
    if not isinstance(marker, Mapping) or name is None:
        return False
    if credential.data.get(name) not in ("", None) and not expired:
        return False
    fn = ported(marker, "preAuthentication", scope.node_name, credential.type_name, item_index)
    output = await fn(scope, credential.data)
    if not isinstance(output, Mapping) or name not in output:
        raise NodeOperationError(
            scope.node_name,
            f"The property returned by pre authentication does not match the property {name!r} of the credential",
            item_index=item_index,
        )
    credential.data.update(output)
    return True


async def before_request(scope: RoutingScope, credential: Credential, clients: Clients, item_index: int) -> None:
    """What n8n does before a request: a ``clientCredentials`` OAuth2 credential without a token fetches one; a
    ``preAuthentication`` type fetches its empty session token."""
    if credential.extends(OAUTH2) and needs_client_credentials_token(credential.data):
        async with credential.renewing:
            if needs_client_credentials_token(credential.data):
                await renew(scope.ctx, clients, credential.type_name, credential.data, item_index)
    await pre_authenticate(scope, credential, expired=False, item_index=item_index)


async def renew_after(
    scope: RoutingScope,
    credential: Credential,
    status: int | None,
    sent_token: str | None,
    clients: Clients,
    item_index: int,
) -> bool:
    """After an error answer of ``status`` to a request sent with ``sent_token``: renew what expired (an OAuth2
    token on its token-expired status, once for all items; a session token on a 401); whether to retry."""
    if credential.extends(OAUTH2):
        if not token_expired(credential.data, status):
            return False
        async with credential.renewing:
            if credential.access_token == sent_token:  # not renewed yet by another item
                await renew(scope.ctx, clients, credential.type_name, credential.data, item_index)
        return True
    if status != 401:
        return False
    return await pre_authenticate(scope, credential, expired=True, item_index=item_index)


def allowed_domains(
    node_name: str, data: Mapping[str, Any], owned: bool, endpoint: str | None, item_index: int
) -> str | None:
    """n8n 2.41's ``getCredentialAllowedDomains``: the allowlist every hop is checked against (``None``: any).
    ``none`` refuses the credential unless the node owns the URL; on a node-owned surface its endpoint's host
    joins a ``domains`` list."""
    mode = data.get("allowedHttpRequestDomains")
    host = _hostname(endpoint) if owned else None
    host = None if host is not None and "," in host else host
    if mode == "none":
        if not owned:
            assert_credential_allows_url(node_name, data, endpoint or "", item_index=item_index)
        return None
    if mode != "domains":
        return None
    listed = data.get("allowedDomains")
    listed = listed.strip() if isinstance(listed, str) else ""
    if not listed:
        if host:
            return host
        return assert_credential_allows_url(node_name, data, endpoint or "", item_index=item_index)
    if not host or is_domain_allowed(f"https://{host}", listed):
        return listed
    return f"{host}, {listed}"


def _hostname(url: str | None) -> str | None:
    try:
        host = urlsplit(url).hostname if url else None
    except ValueError:
        return None
    return host.lower().rstrip(".") if host else None


__all__ = [
    "Credential",
    "allowed_domains",
    "authenticated",
    "before_request",
    "chosen_credential",
    "load_credential",
    "pre_authenticate",
    "renew_after",
]
