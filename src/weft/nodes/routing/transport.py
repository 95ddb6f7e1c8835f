"""Sending a routing request (n8n's ``httpRequest`` helper: its axios conversion) through the node kit's HTTP layer
(:mod:`weft.nodes.http`, which the HTTP Request node sends through too), so redirects, the credential's allowed
domains at every hop, proxies and time limits are the same.

The options are n8n's ``IHttpRequestOptions``: ``baseURL`` + ``url`` (joined as axios joins them), ``method``,
``qs`` (serialized as the ``qs`` package does, ``arrayFormat`` ``indices`` unless given), ``headers``, ``body``
(JSON for an object, the text for a string, a form for ``application/x-www-form-urlencoded``; none when empty
or for a ``GET``), ``auth`` (Basic), ``json`` (``Accept: application/json``), ``encoding: arraybuffer`` (the body
as bytes), ``ignoreHttpStatusErrors`` (``true``, or ``{except: [codes]}``), ``timeout``, ``proxy``,
``skipSslCertificateValidation``. The answer is always the full response: ``{body, headers, statusCode,
statusMessage}``; a body that parses as JSON is parsed, whatever its content type (axios's default).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import httpx

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.nodes.credential_domains import assert_url_allowed
from weft.nodes.http import transfer as http
from weft.nodes.http.clients import Clients
from weft.nodes.http.errors import api_error
from weft.nodes.routing.paths import UNDEFINED

DEFAULT_TIMEOUT_MS = 300_000
_ABSOLUTE = re.compile(r"^([a-z][a-z\d+\-.]*:)?//", re.IGNORECASE)
_NO_BODY = ("GET", "HEAD", "OPTIONS")
_FORM = "application/x-www-form-urlencoded"

Response = dict[str, Any]


def full_url(options: Mapping[str, Any]) -> str:
    """axios's ``buildFullPath``: ``url`` on ``baseURL`` unless ``url`` is absolute."""
    base, url = options.get("baseURL"), options.get("url")
    url_text = "" if url is None or url is UNDEFINED else str(url)
    if base is None or base is UNDEFINED or _ABSOLUTE.match(url_text):
        return url_text
    base_text = str(base)
    return re.sub(r"/?/$", "", base_text) + "/" + re.sub(r"^/+", "", url_text) if url_text else base_text


def query_pairs(qs: Any, array_format: str = "indices") -> list[tuple[str, str]]:
    """The ``qs`` package's ``stringify`` as pairs: nested objects as ``a[b]``, arrays by ``arrayFormat``;
    ``undefined`` and ``null`` values left out (Weft cannot tell them apart; n8n sends ``null`` as ``a=``)."""
    pairs: list[tuple[str, str]] = []

    def add(prefix: str, value: Any) -> None:
        if value is None or value is UNDEFINED:
            return
        if isinstance(value, Mapping):
            for key, inner in value.items():
                add(f"{prefix}[{key}]" if prefix else str(key), inner)
        elif isinstance(value, list):
            if array_format == "comma":
                pairs.append((prefix, ",".join(_scalar(v) for v in value)))
                return
            for index, inner in enumerate(value):
                name = {"brackets": f"{prefix}[]", "repeat": prefix}.get(array_format, f"{prefix}[{index}]")
                add(name, inner)
        else:
            pairs.append((prefix, _scalar(value)))

    if isinstance(qs, Mapping):
        add("", qs)
    return pairs


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _header(headers: Mapping[str, Any], name: str) -> str | None:
    return next((k for k in headers if k.lower() == name), None)


def _body(method: str, options: Mapping[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    """httpx's body arguments for n8n's ``body`` (see the module docstring)."""
    body = options.get("body")
    if method in _NO_BODY or body is None or body is UNDEFINED:
        return {}
    content_type = _header(headers, "content-type")
    if content_type is not None and headers[content_type] == _FORM and isinstance(body, Mapping):
        return {"content": "&".join(f"{quote(str(k), safe='')}={quote(_form(v), safe='')}" for k, v in body.items())}
    if isinstance(body, bytes):
        return {"content": body}
    if isinstance(body, str):  # sent as it is, typed only by the headers given (axios sets none for text)
        return {"content": body} if body else {}
    if isinstance(body, Mapping | list) and body:
        if content_type is None:
            headers["Content-Type"] = "application/json"
        return {"content": json.dumps(_json_safe(body), separators=(",", ":"), ensure_ascii=False).encode()}
    return {}


def _json_safe(value: Any) -> Any:
    """What ``JSON.stringify`` writes: ``undefined`` left out of objects, ``null`` in arrays."""
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items() if v is not UNDEFINED}
    if isinstance(value, list | tuple):
        return [None if v is UNDEFINED else _json_safe(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def _form(value: Any) -> str:
    if isinstance(value, Mapping):
        return "[object Object]"
    if isinstance(value, list):
        return ",".join(_form(v) for v in value)
    return "" if value is None else _scalar(value)


def _headers(options: Mapping[str, Any]) -> dict[str, str]:
    given = options.get("headers")
    headers = {str(k): _scalar(v) for k, v in (given or {}).items() if v is not None and v is not UNDEFINED}
    if options.get("json") and _header(headers, "accept") is None:
        headers["Accept"] = "application/json"
    if _header(headers, "accept") is None:
        headers["Accept"] = "application/json, text/plain, */*"  # axios's default
    if _header(headers, "user-agent") is None:
        headers["User-Agent"] = "n8n"
    return headers


def _proxy(value: Any) -> str | None:
    if not isinstance(value, Mapping) or not value.get("host"):
        return None
    auth = value.get("auth") or {}
    login = f"{auth.get('username', '')}:{auth.get('password', '')}@" if auth else ""
    return f"{value.get('protocol') or 'http'}://{login}{value['host']}:{value.get('port')}"


def _auth(value: Any) -> httpx.Auth | None:
    if not isinstance(value, Mapping):
        return None
    return httpx.BasicAuth(_scalar(value.get("username") or ""), _scalar(value.get("password") or ""))


def _ignores(option: Any, status: int) -> bool:
    if isinstance(option, Mapping) and isinstance(option.get("except"), list):
        return status not in option["except"]
    return bool(option)


async def send(ctx: ExecuteContext, item_index: int, options: Mapping[str, Any], clients: Clients) -> Response:
    """Send ``options`` and answer n8n's full response; a non-2xx answer raises n8n's ``NodeApiError`` unless
    ``ignoreHttpStatusErrors``."""
    method = str(options.get("method") or "GET").upper()
    url = full_url(options)
    if not url.startswith(("http://", "https://")):
        raise NodeOperationError(
            ctx.node.name,
            f'Invalid URL: {url or "(empty)"}. URL must start with "http" or "https".',
            item_index=item_index,
            description="Check the credential's URL (the node's requests are sent to it).",
        )
    allowed = options.get("allowedDomains")
    assert_url_allowed(ctx.node.name, url, allowed if isinstance(allowed, str) else None, item_index)
    headers = _headers(options)
    request = http.Request(method=method, url=url, headers=headers)
    request.params = query_pairs(options.get("qs"), str(options.get("arrayFormat") or "indices"))
    request.body = _body(method, options, headers)
    request.auth = _auth(options.get("auth"))
    request.timeout_ms = float(options.get("timeout") or DEFAULT_TIMEOUT_MS)
    request.response = {"neverError": True, "responseFormat": "text"}
    request.allowed_domains = allowed if isinstance(allowed, str) else None
    if options.get("disableFollowRedirect"):
        request.follow_redirects = False
    client = clients.get(not options.get("skipSslCertificateValidation"), _proxy(options.get("proxy")))
    _, response = await http.send(ctx, item_index, client, request)
    if not 200 <= response.status_code < 300 and not _ignores(
        options.get("ignoreHttpStatusErrors"), response.status_code
    ):
        raise api_error(ctx, item_index, response, "json")
    return {
        "body": _parsed(response, options.get("encoding")),
        "headers": dict(response.headers),
        "statusCode": response.status_code,
        "statusMessage": response.reason_phrase,
    }


def _parsed(response: httpx.Response, encoding: Any) -> Any:
    if encoding in ("arraybuffer", "stream"):
        return response.content
    text = response.text
    if not text:
        return ""
    try:
        return json.loads(text)
    except ValueError:
        return text


__all__ = ["Clients", "Response", "full_url", "query_pairs", "send"]
