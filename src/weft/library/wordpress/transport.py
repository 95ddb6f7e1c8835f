"""n8n's WordPress ``GenericFunctions``: one request on the site's REST API (``wordpressApiRequest``) and every page
of a list (``wordpressApiRequestAllItems``: ``per_page=10``, ``page`` 1, 2, … until ``X-WP-TotalPages``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from weft.nodes.api import ApiRequests

#: n8n's ``authType`` values and the credential types they use.
CREDENTIALS = {"basicAuth": "wordpressApi", "oAuth2": "wordpressOAuth2Api"}
_PAGE_SIZE = 10


async def _base(api: ApiRequests) -> tuple[str, str, dict[str, Any]]:
    """The credential type, the REST base URL and the TLS option of the node's ``authType``."""
    auth = str(api.ctx.get_node_parameter("authType", 0, "basicAuth"))
    if auth == "oAuth2":
        credential = await api.credential("wordpressOAuth2Api")
        site = str(credential.data.get("wordpressSite") or "")
        host = urlsplit(site).hostname if "://" in site else None
        return "wordpressOAuth2Api", f"https://public-api.wordpress.com/wp/v2/sites/{host or site.split('/')[0]}", {}
    credential = await api.credential("wordpressApi")
    extra = {"skipSslCertificateValidation": bool(credential.data.get("allowUnauthorizedCerts"))}
    return "wordpressApi", f"{credential.data.get('url')}/wp-json/wp/v2", extra


async def wordpress_request(
    api: ApiRequests,
    method: str,
    resource: str,
    item_index: int,
    body: dict[str, Any] | None = None,
    qs: dict[str, Any] | None = None,
    **extra: Any,
) -> Any:
    """``wordpressApiRequest``: ``resource`` (``/posts``) on the site's REST API; ``extra``: more request options."""
    kind, base, tls = await _base(api)
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if method not in ("GET", "HEAD"):
        headers["Cache-Control"] = "no-cache"
    options: dict[str, Any] = {"headers": headers, "method": method, "qs": dict(qs or {}), "json": True}
    options["url"] = f"{base}{resource}"
    options.update(tls)
    if body:
        options["body"] = body
    options.update(extra)
    return await api.request(kind, options, item_index)


async def wordpress_request_all(api: ApiRequests, resource: str, item_index: int, qs: dict[str, Any]) -> list[Any]:
    """``wordpressApiRequestAllItems``: pages of 10 until the page number reaches ``X-WP-TotalPages``."""
    found: list[Any] = []
    qs["per_page"] = _PAGE_SIZE
    qs["page"] = 0
    while True:
        qs["page"] += 1
        response = await wordpress_request(api, "GET", resource, item_index, None, qs, returnFullResponse=True)
        page = response["body"]
        found.extend(page if isinstance(page, list) else [page])
        total = next((str(v) for k, v in response["headers"].items() if k.lower() == "x-wp-totalpages"), None)
        if total is None or total == "0" or _int(total) == qs["page"]:
            return found


def _int(text: str) -> int | None:
    """JavaScript's ``parseInt`` of a header value (``None`` for NaN)."""
    digits = ""
    for char in text.strip():
        if not char.isdigit():
            break
        digits += char
    return int(digits) if digits else None


__all__ = ["CREDENTIALS", "wordpress_request", "wordpress_request_all"]
