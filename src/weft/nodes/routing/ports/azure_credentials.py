"""Ports of the Azure shared-key credential types' ``authenticate`` (``MicrosoftAzureCosmosDbSharedKeyApi``,
``AzureStorageSharedKeyApi``): each request signed with HMAC-SHA256 of the account key over the string-to-sign
n8n builds, for the request's own ``x-ms-date``."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from collections.abc import Mapping
from email.utils import formatdate
from functools import cmp_to_key
from typing import Any
from urllib.parse import quote, unquote, urljoin, urlsplit

from weft.errors import NodeOperationError
from weft.nodes.routing.functions import port
from weft.nodes.routing.jsvalues import text
from weft.nodes.routing.paths import UNDEFINED
from weft.nodes.routing.ports.azure_common import compare_header
from weft.nodes.routing.scope import RoutingScope

COSMOS_VERSION = "2018-12-31"
STORAGE_VERSION = "2021-12-02"
COSMOS_RESOURCE_TYPES = ("dbs", "colls", "sprocs", "udfs", "triggers", "users", "permissions", "docs")
AZURE_CLOUDS = ("blob.core.windows.net", "blob.core.usgovcloudapi.net", "blob.core.chinacloudapi.cn")
#: The headers of the Storage string-to-sign, looked up by these exact names, as n8n does (``content-Type``).
_SIGNED_HEADERS = ("content-language", "content-encoding", "content-length", "content-md5", "content-Type", "date",
                   "if-Modified-since", "if-match", "if-none-match", "if-unmodified-since", "range")  # fmt: skip
#: What WHATWG's URL leaves as it is in a path (it percent-encodes the rest).
_PATH_SAFE = "/!$&'()*+,;=:@-._~%[]\\^|"


def utc_now() -> str:
    """``new Date().toUTCString()``."""
    return formatdate(usegmt=True)


def account_key(key: Any) -> bytes:
    """``Buffer.from(key, 'base64')``: lenient (URL-safe letters accepted, others and padding ignored, a last
    lone letter dropped)."""
    letters = re.sub(r"[^A-Za-z0-9+/]", "", text(key).split("=")[0].replace("-", "+").replace("_", "/"))
    if len(letters) % 4 == 1:
        letters = letters[:-1]
    return base64.b64decode(letters + "=" * (-len(letters) % 4))


def sign(key: Any, payload: str) -> str:
    return base64.b64encode(hmac.new(account_key(key), payload.encode(), hashlib.sha256).digest()).decode()


# ---------------------------------------------------------------------------------------------------- Cosmos DB


@port("authenticate", "authenticate", "31fa7da1e033a506")
async def cosmos_db_shared_key(
    scope: RoutingScope, credentials: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    """``MicrosoftAzureCosmosDbSharedKeyApi.authenticate``: a fresh ``x-ms-date``, and ``type=master`` over the
    method, the URL's last resource type and its resource id."""
    date = utc_now()
    options["headers"] = {**(options.get("headers") or {}), "x-ms-date": date, "x-ms-version": COSMOS_VERSION,
                          "Cache-Control": "no-cache"}  # fmt: skip
    kind, resource_id = cosmos_resource(scope.node_name, _cosmos_url(options))
    method = text(options.get("method") or "GET").lower()
    payload = f"{method}\n{kind.lower()}\n{resource_id}\n{date.lower()}\n\n"
    signature = sign(credentials.get("key"), payload)
    options["headers"]["authorization"] = quote(f"type=master&ver=1.0&sig={signature}", safe="!'()*-._~")
    return options


def _cosmos_url(options: Mapping[str, Any]) -> str:
    """``requestOptions.uri ?? requestOptions.baseURL + requestOptions.url`` (a request with a whole ``url``
    and no ``baseURL`` reads as ``undefined<url>``: its path is the URL's)."""
    if options.get("uri"):
        return text(options["uri"])
    base, url = options.get("baseURL"), options.get("url")
    joined = ("" if base in (None, UNDEFINED) else text(base)) + ("" if url in (None, UNDEFINED) else text(url))
    return joined


def cosmos_resource(node_name: str, url: str) -> tuple[str, str]:
    """The resource type the URL's path names last, and the resource id signed for it (``dbs/d/colls/c`` for
    ``…/dbs/d/colls/c`` and for ``…/dbs/d/colls/c/docs``)."""
    segments = [s for s in urlsplit(url).path.split("/") if s]
    found = [(max(i for i, s in enumerate(segments) if s == kind), kind) for kind in COSMOS_RESOURCE_TYPES
             if kind in segments]  # fmt: skip
    if not found:
        raise NodeOperationError(
            node_name,
            "Unable to determine the resource type from the URL",
            description=f"The URL {url!r} names no Cosmos DB resource (dbs, colls, docs, …).",
        )
    index, kind = max(found)
    if index + 1 < len(segments):
        return kind, f"{'/'.join(segments[:index])}/{kind}/{segments[index + 1]}"
    return kind, "/".join(segments[:index])


# ---------------------------------------------------------------------------------------------------- Storage


@port("authenticate", "authenticate", "1c8d63f57e60c0a2")
async def storage_shared_key(
    scope: RoutingScope, credentials: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    """``AzureStorageSharedKeyApi.authenticate``: ``SharedKey <account>:<signature>`` over n8n's string-to-sign
    (the standard headers, the ``x-ms-`` headers, the account, path and query)."""
    check_storage_endpoint(scope.node_name, credentials)
    for where in ("qs", "headers"):
        if isinstance(options.get(where), dict):
            options[where] = {k: v for k, v in options[where].items() if v is not UNDEFINED and v is not None}
    if options.get("method") in (None, UNDEFINED):
        options["method"] = "GET"
    headers = options.setdefault("headers", {})
    if headers.get("x-ms-version") is None:
        headers["x-ms-version"] = STORAGE_VERSION
    if headers.get("x-ms-date") is None:
        headers["x-ms-date"] = utc_now()
    payload = storage_string_to_sign(options, text(credentials.get("account")))
    headers["authorization"] = f"SharedKey {text(credentials.get('account'))}:{sign(credentials.get('key'), payload)}"
    return options


def storage_string_to_sign(options: Mapping[str, Any], account: str) -> str:
    headers = options.get("headers") or {}
    fields = [text(options.get("method") or "GET").upper()]
    fields += ["" if headers.get(name) is None else text(headers[name]) for name in _SIGNED_HEADERS]
    fields.append(_canonical_headers(headers) + _canonical_resource(options, account))
    return "\n".join(fields)


def _canonical_headers(headers: Mapping[str, Any]) -> str:
    def order(a: tuple[str, Any], b: tuple[str, Any]) -> int:
        return compare_header(a[0].lower(), b[0].lower())

    listed = [(str(k), v) for k, v in headers.items() if str(k).lower().startswith("x-ms-")]
    named = sorted(listed, key=cmp_to_key(order))
    kept = [h for i, h in enumerate(named) if i == 0 or h[0].lower() != named[i - 1][0].lower()]
    return "".join(f"{name.lower().rstrip()}:{text(value).lstrip()}\n" for name, value in kept)


def _canonical_resource(options: Mapping[str, Any], account: str) -> str:
    resource = f"/{account}{url_path(options)}"
    qs = options.get("qs")
    if isinstance(qs, Mapping) and qs:
        resource += "\n" + "\n".join(f"{key.lower()}:{unquote(text(qs[key]))}" for key in sorted(qs))
    return resource


def url_path(options: Mapping[str, Any]) -> str:
    """``new URL(url, baseURL).pathname`` (n8n's ``getUrl``), percent-encoded as WHATWG's URL does."""
    url = options.get("url")
    base = options.get("baseURL")
    if url not in (None, UNDEFINED, ""):
        joined = urljoin(text(base), text(url)) if base not in (None, UNDEFINED) else text(url)
    else:
        joined = text(options.get("uri") or "")
    return quote(urlsplit(joined).path, safe=_PATH_SAFE) or "/"


def check_storage_endpoint(node_name: str, credentials: Mapping[str, Any]) -> None:
    """n8n 2.41's ``assertEndpointAllowed``: a plain account name, a listed Azure cloud, or a custom https endpoint
    (only where ``N8N_AZURE_STORAGE_CUSTOM_ENDPOINTS_ENABLED=true``)."""
    account = credentials.get("account")
    if not re.fullmatch(r"[a-z0-9]+", "" if account is None else text(account), re.IGNORECASE):
        _refuse(node_name, "The account name can contain only letters and numbers.")
    environment = credentials.get("environment") or AZURE_CLOUDS[0]
    if environment != "custom":
        if environment not in AZURE_CLOUDS:
            _refuse(node_name, "Select an Azure cloud from the list.")
        return
    if os.environ.get("N8N_AZURE_STORAGE_CUSTOM_ENDPOINTS_ENABLED", "").lower() != "true":
        _refuse(node_name, "Custom Azure Storage endpoints are disabled on this instance, contact your administrator.")
    endpoint = text(credentials.get("customEndpoint") or "")
    if not endpoint:
        _refuse(node_name, "Endpoint is required when Azure Cloud is set to Custom.")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname or parts.path not in ("", "/") or parts.query or parts.fragment:
        _refuse(node_name, "Endpoint must be an https:// URL with only a hostname and an optional port, for example "
                "https://myaccount.privatelink.blob.core.windows.net")  # fmt: skip


def _refuse(node_name: str, message: str) -> None:
    raise NodeOperationError(node_name, message, description="Fix the Azure Storage Shared Key credential.")


__all__ = ["account_key", "cosmos_resource", "sign", "storage_string_to_sign", "url_path", "utc_now"]
