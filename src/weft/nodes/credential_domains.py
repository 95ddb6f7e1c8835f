"""A credential's domain restriction (n8n 2's ``allowedHttpRequestDomains`` / ``allowedDomains``, from
``n8n-workflow``'s ``credential-domain-restrictions``): where a node that sends a user-chosen URL (HTTP Request,
GraphQL, MCP Client) may take the credential's secret. Every redirect hop is checked too.

``all`` (or nothing set) allows every host; ``none`` refuses the credential in such a node; ``domains`` allows the
comma-separated hosts, where ``*.example.com`` matches subdomains only, never ``example.com`` itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from weft.errors import NodeOperationError

DEFAULT_SURFACE = "HTTP Request"


def _hostname(url: str) -> str | None:
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host.lower().rstrip(".") if host else None


def _display_host(url: str) -> str:
    """``new URL(url).host``: the host and a port that is given; never the path, query or user info."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        return f"{host}:{parts.port}" if parts.port else host
    except ValueError:
        return url.split("?")[0].split("#")[0]


def is_domain_allowed(url: str, allowed_domains: str | None) -> bool:
    """n8n's ``isDomainAllowed``: whether ``url``'s host is in the list (an empty list allows everything)."""
    if not allowed_domains or not allowed_domains.strip():
        return True
    host = _hostname(url)
    if not host:
        return False
    for domain in (d.strip().lower().rstrip(".") for d in allowed_domains.split(",")):
        if domain.startswith("*."):
            if domain[2:] and host.endswith("." + domain[2:]):
                return True
        elif domain and host == domain:
            return True
    return False


def assert_url_allowed(node_name: str, url: str, allowed_domains: str | None, item_index: int | None = None) -> None:
    """Raise n8n's "Domain not allowed" unless ``url`` is in ``allowed_domains`` (``None``: no restriction)."""
    if allowed_domains is None or is_domain_allowed(url, allowed_domains):
        return
    raise NodeOperationError(
        node_name,
        f"Domain not allowed: This credential is restricted from accessing {_display_host(url)}. "
        f"Only the following domains are allowed: {allowed_domains}",
        item_index=item_index,
        description="Use a URL on an allowed domain, or change the credential's Allowed HTTP Request Domains.",
    )


def assert_credential_allows_url(
    node_name: str,
    credential: Mapping[str, Any],
    url: str,
    *,
    surface: str = DEFAULT_SURFACE,
    item_index: int | None = None,
) -> str | None:
    """n8n's ``assertCredentialAllowsUrl``: raise where the credential may not go; the allowlist to check each
    redirect hop against (``None``: unrestricted)."""
    mode = credential.get("allowedHttpRequestDomains")
    if mode == "none":
        raise NodeOperationError(
            node_name,
            f"This credential is configured to prevent use within an {surface} node",
            item_index=item_index,
            description="Set the credential's Allowed HTTP Request Domains to All or to the domains it may reach.",
        )
    if mode != "domains":
        return None
    field = credential.get("allowedDomains")
    allowed = field.strip() if isinstance(field, str) else ""
    if not allowed:
        raise NodeOperationError(
            node_name,
            "No allowed domains specified. Configure allowed domains or change restriction setting.",
            item_index=item_index,
        )
    assert_url_allowed(node_name, url, allowed, item_index)
    return allowed


__all__ = ["assert_credential_allows_url", "assert_url_allowed", "is_domain_allowed"]
