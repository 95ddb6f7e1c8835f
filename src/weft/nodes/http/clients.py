"""The HTTP clients nodes send through, one per TLS and proxy setting of a node run, closed when the run ends.

A node's own proxy option wins; otherwise each request follows the environment's proxies as n8n's
``proxy-from-env`` reads them (``http_proxy``/``HTTP_PROXY``, ``https_proxy``/``HTTPS_PROXY``, ``all_proxy``,
``no_proxy`` with ``*``, ports and ``.domain`` suffixes), read when the request is sent. Certificates are checked
against the default bundle plus the PEM file of ``WEFT_EXTRA_CA_CERTS`` (n8n: ``NODE_EXTRA_CA_CERTS``): a company's
TLS-inspecting proxy works without turning checks off. ``.netrc`` is never read (httpx's ``trust_env`` would).
"""

from __future__ import annotations

import functools
import os
import re
import ssl
from urllib.parse import urlsplit

import certifi
import httpx

ClientKey = tuple[bool, str | None]
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}


def _env(name: str) -> str:
    return os.environ.get(name.lower()) or os.environ.get(name.upper()) or ""


def proxy_for(url: str) -> str | None:
    """The proxy the environment names for ``url`` (``proxy-from-env``'s ``getProxyForUrl``), or None."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if not scheme or not host:
        return None
    port = parts.port or _DEFAULT_PORTS.get(scheme, 0)
    if not _should_proxy(host, port):
        return None
    proxy = (
        _env(f"npm_config_{scheme}_proxy") or _env(f"{scheme}_proxy") or _env("npm_config_proxy") or _env("all_proxy")
    )
    if proxy and "://" not in proxy:
        proxy = f"{scheme}://{proxy}"
    return proxy or None


def _should_proxy(host: str, port: int) -> bool:
    no_proxy = (_env("npm_config_no_proxy") or _env("no_proxy")).lower()
    if not no_proxy:
        return True
    if no_proxy == "*":
        return False
    for entry in re.split(r"[,\s]", no_proxy):
        if not entry:
            continue
        match = re.match(r"^(.+):(\d+)$", entry)
        entry_host, entry_port = (match.group(1), int(match.group(2))) if match else (entry, 0)
        if entry_port and entry_port != port:
            continue
        if not entry_host.startswith((".", "*")):
            if host == entry_host:
                return False
            continue
        if host.endswith(entry_host.lstrip("*")):
            return False
    return True


@functools.lru_cache(maxsize=4)
def _context(extra: str) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=certifi.where())
    if extra:
        context.load_verify_locations(cafile=extra)
    return context


def verify_setting(verify: bool) -> ssl.SSLContext | bool:
    """What httpx takes for ``verify``: False, or the default bundle with ``WEFT_EXTRA_CA_CERTS`` added."""
    return _context(os.environ.get("WEFT_EXTRA_CA_CERTS", "")) if verify else False


class _EnvProxyTransport(httpx.AsyncBaseTransport):
    """Sends each request directly or through the proxy the environment names for its URL at that moment."""

    def __init__(self, verify: ssl.SSLContext | bool) -> None:
        self._verify = verify
        self._transports: dict[str | None, httpx.AsyncHTTPTransport] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        proxy = proxy_for(str(request.url))
        transport = self._transports.get(proxy)
        if transport is None:
            transport = self._transports[proxy] = httpx.AsyncHTTPTransport(verify=self._verify, proxy=proxy)
        return await transport.handle_async_request(request)

    async def aclose(self) -> None:
        for transport in self._transports.values():
            await transport.aclose()
        self._transports.clear()


def new_client(verify: bool = True, proxy: str | None = None, **options: object) -> httpx.AsyncClient:
    """One client: through ``proxy`` when given, else through the environment's proxies."""
    checked = verify_setting(verify)
    if proxy:
        return httpx.AsyncClient(trust_env=False, verify=checked, proxy=proxy, **options)  # type: ignore[arg-type]
    transport = _EnvProxyTransport(checked)
    return httpx.AsyncClient(trust_env=False, transport=transport, **options)  # type: ignore[arg-type]


class Clients:
    """The HTTP clients of one node run, one per TLS and proxy setting; closed when the run ends."""

    def __init__(self) -> None:
        self._clients: dict[ClientKey, httpx.AsyncClient] = {}

    def get(self, verify: bool = True, proxy: str | None = None) -> httpx.AsyncClient:
        key = (verify, proxy or None)
        if key not in self._clients:
            self._clients[key] = new_client(verify, proxy)
        return self._clients[key]

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()
        self._clients.clear()

    async def __aenter__(self) -> Clients:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


__all__ = ["ClientKey", "Clients", "new_client", "proxy_for", "verify_setting"]
