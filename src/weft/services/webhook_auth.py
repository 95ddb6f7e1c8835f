"""The Webhook node's ``authentication``: ``basicAuth``, ``bearerAuth``, ``headerAuth``, ``jwtAuth``, as n8n checks it.

n8n's ``validateWebhookAuthentication`` (``nodes/Webhook/utils.ts``), answer for answer: a missing credential is
500 ``No authentication data defined on node!``; missing credentials in the request 401 ``Authorization is
required!`` (JWT: ``No token provided``); wrong ones 403 ``Authorization data is wrong!`` (JWT: the
``jsonwebtoken`` message, e.g. ``invalid signature``, ``jwt expired``). Every refusal is plain text with
``WWW-Authenticate: Basic realm="Webhook"``, and no execution starts. Secrets are compared in constant time.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import ipaddress
import re
from collections.abc import Mapping, Sequence
from typing import Any

from weft.db.credentials import CredentialsRepository
from weft.errors import ConfigurationError, WeftError
from weft.nodes.webhooks import WebhookResponse
from weft.workflow import NodeModel

NO_DATA = "No authentication data defined on node!"
REQUIRED = "Authorization is required!"
WRONG = "Authorization data is wrong!"
CHALLENGE = {"www-authenticate": 'Basic realm="Webhook"'}
CREDENTIAL_TYPES = {
    "basicAuth": "httpBasicAuth",
    "bearerAuth": "httpBearerAuth",
    "headerAuth": "httpHeaderAuth",
    "jwtAuth": "jwtAuth",
}
#: The ``basic-auth`` package's pattern for the ``Authorization`` header.
_BASIC = re.compile(r"^ *[Bb][Aa][Ss][Ii][Cc] +([A-Za-z0-9._~+/-]+=*) *$")


class WebhookAuthorizationError(WeftError):
    """A refused webhook call: n8n's status and plain-text message."""

    def __init__(self, *, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status

    def response(self) -> WebhookResponse:
        return WebhookResponse(status_code=self.status, headers=dict(CHALLENGE), body=self.message.encode())


#: The parameter holding the authentication: the Webhook node's, and the Wait node's for its resume webhook.
AUTH_PARAMETER = "authentication"
WAIT_AUTH_PARAMETER = "incomingAuthentication"


IP_REFUSED = "IP is not allowed to access the webhook!"


def ip_allowed(node: NodeModel, client: str, proxies: Sequence[str] = ()) -> bool:
    """The Webhook node's ``options.ipWhitelist`` (addresses and CIDR ranges, comma-separated; empty: any).

    As n8n's ``isIpAllowed(allowlist, req.ips, req.ip)``: the caller's address or one of the trusted proxies' must be
    listed. Both come from the connection unless ``WEFT_PROXY_HOPS`` trusts ``X-Forwarded-For``
    (:func:`weft.server.http.caller`).
    """
    allowlist = (node.parameters.get("options") or {}).get("ipWhitelist")
    if not allowlist:
        return True
    entries = allowlist if isinstance(allowlist, list) else str(allowlist).split(",")
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(str(entry).strip(), strict=False))
        except ValueError:
            continue
    return any(_listed(address, networks) for address in (client, *proxies))


def _listed(text: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # "::ffff:10.0.0.1" from a dual-stack socket is 10.0.0.1
    return any(address in network for network in networks)


def refused_ip() -> WebhookResponse:
    return WebhookResponse(status_code=403, body=IP_REFUSED.encode())


def needs_auth(node: NodeModel, parameter: str = AUTH_PARAMETER) -> bool:
    return str(node.parameters.get(parameter) or "none") in CREDENTIAL_TYPES


def check_webhook_auth(
    credentials: CredentialsRepository,
    node: NodeModel,
    headers: Mapping[str, str],
    parameter: str = AUTH_PARAMETER,
) -> dict[str, Any] | None:
    """Raise :class:`WebhookAuthorizationError` unless the request's ``headers`` pass the node's authentication.

    Returns the JWT payload for ``jwtAuth`` (the node puts it in the item's ``jwtPayload``), else ``None``.
    Synchronous (it reads the credential from the database): call it in a worker thread.
    """
    method = str(node.parameters.get(parameter) or "none")
    kind = CREDENTIAL_TYPES.get(method)
    if kind is None:
        return None
    expected = _credential(credentials, node, kind)
    if method == "basicAuth":
        check_basic(expected, headers, node)
    elif method == "bearerAuth":
        token = str((expected or {}).get("token") or "")
        if not token:
            raise WebhookAuthorizationError(status=500, message=NO_DATA)
        if not same_secret(headers.get("authorization", ""), f"Bearer {token}"):
            raise WebhookAuthorizationError(status=403, message=WRONG)
    elif method == "headerAuth":
        name, value = str((expected or {}).get("name") or ""), str((expected or {}).get("value") or "")
        if not name or not value:
            raise WebhookAuthorizationError(status=500, message=NO_DATA)
        if name.lower() not in headers or not same_secret(headers[name.lower()], value):
            raise WebhookAuthorizationError(status=403, message=WRONG)
    else:
        return _jwt(expected, headers)
    return None


def _credential(credentials: CredentialsRepository, node: NodeModel, kind: str) -> dict[str, Any] | None:
    reference = (node.credentials or {}).get(kind)
    try:
        return credentials.resolve_credentials(node.name, kind, reference if isinstance(reference, Mapping) else None)
    except ConfigurationError:
        return None


def check_basic(expected: Mapping[str, Any] | None, headers: Mapping[str, str], node: NodeModel | None = None) -> None:
    """``basicAuth`` against the ``httpBasicAuth`` credential's data ``expected`` (``None``: none attached); raise
    :class:`WebhookAuthorizationError` unless it passes. With ``node``, a Form's ``X-Auth-Token`` passes too."""
    user, password = str((expected or {}).get("user") or ""), str((expected or {}).get("password") or "")
    if not user or not password:
        raise WebhookAuthorizationError(status=500, message=NO_DATA)
    provided = basic_credentials(headers.get("authorization", ""))
    if provided is None:
        token = headers.get("x-auth-token")
        if node is None or not token:
            raise WebhookAuthorizationError(status=401, message=REQUIRED)
        if not same_secret(token, basic_auth_token(node, user, password)):
            raise WebhookAuthorizationError(status=403, message=WRONG)
        return
    # both compared, whatever the first gives: no timing difference between a wrong user and a wrong password
    user_ok = same_secret(provided[0], user)
    if not (same_secret(provided[1], password) and user_ok):
        raise WebhookAuthorizationError(status=403, message=WRONG)


def basic_auth_token(node: NodeModel, user: str, password: str) -> str:
    """n8n's ``generateBasicAuthToken``: the ``X-Auth-Token`` a Form posts instead of basic credentials."""
    message = f"{node.id}-{node.webhookId}".encode()
    return hmac.new(f"{user}:{password}".encode(), message, hashlib.sha256).hexdigest()


def basic_credentials(value: str) -> tuple[str, str] | None:
    """``(user, password)`` of an ``Authorization: Basic …`` header, or ``None``."""
    match = _BASIC.match(value)
    if match is None:
        return None
    try:
        decoded = base64.b64decode(match.group(1), validate=False).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return None
    user, colon, password = decoded.partition(":")
    return (user, password) if colon else None


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of a secret a request gave with the expected one."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode("utf-8", "surrogateescape"))


def _jwt(expected: dict[str, Any] | None, headers: Mapping[str, str]) -> dict[str, Any]:
    if expected is None:
        raise WebhookAuthorizationError(status=500, message=NO_DATA)
    parts = headers.get("authorization", "").split(" ")
    token = parts[1] if len(parts) > 1 else ""
    if not token:
        raise WebhookAuthorizationError(status=401, message="No token provided")
    if expected.get("keyType") == "pemKey":
        key = format_public_key(str(expected.get("publicKey") or ""))
    else:
        key = str(expected.get("secret") or "")
    return verify_jwt(token, key, str(expected.get("algorithm") or "HS256"))


def verify_jwt(token: str, key: str, algorithm: str) -> dict[str, Any]:
    """``jsonwebtoken.verify(token, key, {algorithms: [algorithm]})``: the payload, or a 403 with its message."""
    import warnings

    import jwt

    if token.count(".") != 2:
        raise WebhookAuthorizationError(status=403, message="jwt malformed")
    options = {"verify_aud": False, "verify_iat": False, "verify_iss": False}
    try:
        with warnings.catch_warnings():  # short HMAC secrets are the user's choice, as in n8n
            warnings.simplefilter("ignore")
            payload: dict[str, Any] = jwt.decode(token, key, algorithms=[algorithm], options=options)  # type: ignore[arg-type]
    except jwt.ExpiredSignatureError:
        raise WebhookAuthorizationError(status=403, message="jwt expired") from None
    except jwt.ImmatureSignatureError:
        raise WebhookAuthorizationError(status=403, message="jwt not active") from None
    except jwt.InvalidAlgorithmError:
        raise WebhookAuthorizationError(status=403, message="invalid algorithm") from None
    except jwt.InvalidSignatureError:
        raise WebhookAuthorizationError(status=403, message="invalid signature") from None
    except jwt.DecodeError:
        raise WebhookAuthorizationError(status=403, message="invalid token") from None
    except (jwt.InvalidTokenError, ValueError, TypeError) as error:
        raise WebhookAuthorizationError(status=403, message=str(error) or "invalid token") from None
    return payload


def format_public_key(key: str) -> str:
    """n8n's ``formatPrivateKey(key, true)``: a PEM pasted on one line gets its line breaks back."""
    if not key or "\n" in key:
        return key
    out = ""
    for part in (p for p in key.split("-----") if p):
        if "PUBLIC KEY" in part:
            out += f"-----{part}-----"
        else:
            out += "\n" + "\n".join(part.strip().split(" ")) + "\n"
    return out


__all__ = [
    "AUTH_PARAMETER",
    "WAIT_AUTH_PARAMETER",
    "WebhookAuthorizationError",
    "basic_auth_token",
    "basic_credentials",
    "check_basic",
    "check_webhook_auth",
    "needs_auth",
    "same_secret",
    "verify_jwt",
]
