"""Fake SaaS APIs on 127.0.0.1, one module each (every module of this package with an ``install(server)``). The
declarative nodes' services (:mod:`weft.nodes.routing`) each live under their own path: ``/okta`` (Okta users),
``/metabase``, ``/gong``, ``/npm`` (a registry), ``/openai`` (the endpoints of the legacy OpenAI node). Services
with a fixed host name (``sheets.googleapis.com``) are routed by host: the server is the code under test's HTTPS
proxy (:meth:`FakeSaasServer.proxy_env`). They check method, path, query, body and credentials and answer as the
services do, error bodies, 429 with ``Retry-After`` and pages included. Recorded cases
(``tests/recorded/cases/d*``) call them on :data:`RECORDED_PORT`; ``python -m weft.testing.saas`` serves them
there while recording with real n8n.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from weft.testing.fake_api import FakeApiServer
from weft.testing.tls import CertAuthority

#: The port the recorded declarative-node cases call.
RECORDED_PORT = 18298


class FakeSaasServer(FakeApiServer):
    """Every fake service of this package on one server, which is also the HTTPS proxy for the services with a
    fixed host name (:meth:`proxy_env`)."""

    def __init__(
        self, port: int = 0, authority: CertAuthority | None = None, only: Iterable[str] | None = None
    ) -> None:
        super().__init__(port, authority or CertAuthority())
        for service in services(only):
            service.install(self)

    def proxy_env(self) -> dict[str, str]:
        """The environment that sends n8n's and Weft's API calls here: the proxy, and this server's CA trusted."""
        assert self.authority is not None
        ca = str(self.authority.ca_file)
        return {"HTTPS_PROXY": self.url, "HTTP_PROXY": self.url, "NO_PROXY": "127.0.0.1,localhost",
                "WEFT_EXTRA_CA_CERTS": ca, "NODE_EXTRA_CA_CERTS": ca}  # fmt: skip


def services(only: Iterable[str] | None = None) -> list[Any]:
    """Every service module of this package (each has ``install(server)``), by name; ``only`` those named."""
    wanted = set(only) if only is not None else None
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if info.name.startswith("_") or (wanted is not None and info.name not in wanted):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "install"):
            found.append(module)
    return found


def main() -> None:
    """Serve until interrupted (for recording cases with real n8n), printing the environment to record with."""
    parser = argparse.ArgumentParser(prog="python -m weft.testing.saas", description=main.__doc__)
    parser.add_argument("--port", type=int, default=RECORDED_PORT)
    parser.add_argument("--ca", default=os.path.join(tempfile.gettempdir(), "weft-saas-ca"), help="the CA's folder")
    parser.add_argument("--only", help="comma-separated service modules (default: all)")
    args = parser.parse_args()
    only = args.only.split(",") if args.only else None
    server = FakeSaasServer(args.port, CertAuthority(Path(args.ca)), only=only).start()
    print(f"fake SaaS APIs on {server.url}; record with:", flush=True)
    print(" ".join(f"{name}={value}" for name, value in server.proxy_env().items()), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()


__all__ = ["RECORDED_PORT", "FakeSaasServer", "main"]
