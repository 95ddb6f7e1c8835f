"""The HTTP clients the AI providers' SDKs and adapters send through, on the kit's settings (:mod:`weft.nodes.http`).

Every model, embeddings and MCP client of :mod:`weft.ai` takes its client from here, so each request follows the
environment's proxies as n8n reads them (``HTTPS_PROXY``, ``NO_PROXY``, … read when the request is sent), trusts
the extra CAs of ``WEFT_EXTRA_CA_CERTS`` (n8n: ``NODE_EXTRA_CA_CERTS``) and never reads ``.netrc``.

Two flavours, one set of rules: :func:`ai_http_client` is an ``httpx`` client (the ``openai`` SDK, which takes one
on its legacy-httpx path, and the adapters that speak HTTP themselves, e.g. Ollama's); :func:`ai_httpx2_client` is
an ``httpx2`` client for the SDKs that refuse ``httpx`` objects (``anthropic``, the MCP SDK). The SDKs close the
client with themselves.
"""

from __future__ import annotations

import ssl
from typing import Any

import httpx
import httpx2

from weft.nodes.http.clients import new_client, proxy_for, verify_setting

#: The ``openai`` SDK's own default: ten minutes a request, five seconds to connect.
SDK_DEFAULT_TIMEOUT_S = 600.0
_CONNECT_TIMEOUT_S = 5.0


def ai_http_client(timeout: float | None = None, **options: Any) -> httpx.AsyncClient:
    """An ``httpx`` client with the kit's proxy and CA settings, following redirects as the SDKs' clients do.

    ``timeout`` in seconds (``None``: the SDK's default); ``options`` are more ``httpx.AsyncClient`` arguments.
    """
    options.setdefault("follow_redirects", True)
    return new_client(timeout=_timeout(httpx.Timeout, timeout), **options)


def ai_httpx2_client(timeout: float | httpx2.Timeout | None = None, **options: Any) -> httpx2.AsyncClient:
    """An ``httpx2`` client with the same settings as :func:`ai_http_client` (``options``: ``headers``, ``auth``,
    ``event_hooks`` … of ``httpx2.AsyncClient``)."""
    options.setdefault("follow_redirects", True)
    limit = timeout if isinstance(timeout, httpx2.Timeout) else _timeout(httpx2.Timeout, timeout)
    transport = _EnvProxyTransport(verify_setting(True))
    return httpx2.AsyncClient(trust_env=False, transport=transport, timeout=limit, **options)


def _timeout(kind: Any, seconds: float | None) -> Any:
    return kind(seconds) if seconds else kind(SDK_DEFAULT_TIMEOUT_S, connect=_CONNECT_TIMEOUT_S)


class _EnvProxyTransport(httpx2.AsyncBaseTransport):
    """The kit's environment-proxy transport for ``httpx2``: each request directly or through the proxy
    :func:`~weft.nodes.http.clients.proxy_for` names for its URL at that moment."""

    def __init__(self, verify: ssl.SSLContext | bool) -> None:
        self._verify = verify
        self._transports: dict[str | None, httpx2.AsyncHTTPTransport] = {}

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        proxy = proxy_for(str(request.url))
        transport = self._transports.get(proxy)
        if transport is None:
            transport = httpx2.AsyncHTTPTransport(verify=self._verify, proxy=proxy, trust_env=False)
            self._transports[proxy] = transport
        return await transport.handle_async_request(request)

    async def aclose(self) -> None:
        for transport in self._transports.values():
            await transport.aclose()
        self._transports.clear()


__all__ = ["SDK_DEFAULT_TIMEOUT_S", "ai_http_client", "ai_httpx2_client"]
