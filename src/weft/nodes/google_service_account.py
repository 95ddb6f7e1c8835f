"""Google service accounts (the ``googleApi`` credential), as n8n's ``getGoogleAccessToken``: a JWT signed RS256
with the account's private key is exchanged for an access token at Google's token URL, with the scopes n8n asks for
the service. Kit: the Google nodes of the library and the ports of Google's declarative nodes use it."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.api import ApiRequests

TOKEN_URL = "https://oauth2.googleapis.com/token"
JWT_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"

#: n8n's ``googleServiceAccountScopes``: the scopes a service account's token asks for, by service.
SCOPES: dict[str, tuple[str, ...]] = {
    "books": ("https://www.googleapis.com/auth/books",),
    "chat": ("https://www.googleapis.com/auth/chat.bot",),
    "docs": (
        "https://www.googleapis.com/auth/documents",
        "https://www.googleapis.com/auth/drive",
        "https://www.googleapis.com/auth/drive.file",
    ),
    "drive": (
        "https://www.googleapis.com/auth/drive",
        "https://www.googleapis.com/auth/drive.appdata",
        "https://www.googleapis.com/auth/drive.photos.readonly",
    ),
    "gmail": (
        "https://www.googleapis.com/auth/gmail.labels",
        "https://www.googleapis.com/auth/gmail.addons.current.action.compose",
        "https://www.googleapis.com/auth/gmail.addons.current.message.action",
        "https://mail.google.com/",
        "https://www.googleapis.com/auth/gmail.modify",
        "https://www.googleapis.com/auth/gmail.compose",
    ),
    "sheetV1": ("https://www.googleapis.com/auth/spreadsheets",),
    "sheetV2": (
        "https://www.googleapis.com/auth/drive.file",
        "https://www.googleapis.com/auth/spreadsheets",
        "https://www.googleapis.com/auth/drive.metadata",
    ),
    "slides": ("https://www.googleapis.com/auth/drive", "https://www.googleapis.com/auth/presentations"),
    "translate": (
        "https://www.googleapis.com/auth/cloud-translation",
        "https://www.googleapis.com/auth/cloud-platform",
    ),
}


def format_pem_block(key: str) -> str:
    """n8n's ``formatPemBlock``: a private key pasted with literal ``\\n`` or on one line, as a PEM block."""
    text = key.replace("\\n", "\n").strip()
    match = re.match(r"^(-----BEGIN [A-Z ]+-----)\s*(.*?)\s*(-----END [A-Z ]+-----)$", text, re.DOTALL)
    if not match:
        return text
    body = re.sub(r"\s+", "", match.group(2))
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([match.group(1), *lines, match.group(3)]) + "\n"


def signed_assertion(credentials: Mapping[str, Any], service: str, now: int | None = None) -> str:
    """The RS256 JWT a service account exchanges for a token (n8n's ``getGoogleAccessToken``); raises
    ``ValueError`` (its message says why) when the private key cannot sign."""
    import jwt

    email = str(credentials.get("email") or "").strip()
    issued = int(time.time()) if now is None else now
    claims = {
        "iss": email,
        "sub": str(credentials.get("delegatedEmail") or "") or email,
        "scope": " ".join(SCOPES.get(service, ())),
        "aud": TOKEN_URL,
        "iat": issued,
        "exp": issued + 3600,
    }
    try:
        return jwt.encode(claims, format_pem_block(str(credentials.get("privateKey") or "")), algorithm="RS256")
    except (ValueError, TypeError, jwt.PyJWTError) as error:
        raise ValueError(str(error) or type(error).__name__) from error


async def service_account_token(
    api: ApiRequests, credentials: Mapping[str, Any], service: str, item_index: int = 0
) -> str:
    """n8n's ``getGoogleAccessToken``: the access token of a ``googleApi`` credential for ``service``."""
    try:
        assertion = signed_assertion(credentials, service)
    except ValueError as error:
        raise NodeApiError(
            api.ctx.node.name,
            "Authorization failed - please check your credentials",
            http_code=401,
            item_index=item_index,
            description=f"The service account's private key cannot sign: {error}. Paste the whole key "
            "(-----BEGIN PRIVATE KEY----- …) into the Google Service Account credential.",
        ) from error
    options = {
        "method": "POST",
        "url": TOKEN_URL,
        "headers": {"Content-Type": "application/x-www-form-urlencoded"},
        "body": {"grant_type": JWT_GRANT, "assertion": assertion},
        "json": True,
    }
    answer = await api.request(None, options, item_index)
    token = answer.get("access_token") if isinstance(answer, Mapping) else None
    if not token:
        raise NodeOperationError(
            api.ctx.node.name, "Google's token endpoint answered no access token", item_index=item_index
        )
    return str(token)


__all__ = ["JWT_GRANT", "SCOPES", "TOKEN_URL", "format_pem_block", "service_account_token", "signed_assertion"]
