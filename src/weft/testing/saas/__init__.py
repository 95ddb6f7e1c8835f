"""Fake SaaS APIs on 127.0.0.1 for n8n's declarative nodes (:mod:`weft.nodes.routing`), each under its own path:
``/okta`` (Okta users), ``/metabase``, ``/gong``, ``/npm`` (a registry), ``/openai`` (the endpoints of the legacy
OpenAI node). They check method, path, query, body and credentials and answer as the services do, error bodies,
429 with ``Retry-After`` and pages included. Recorded cases (``tests/recorded/cases/d*``) call them on
:data:`RECORDED_PORT`; ``python -m weft.testing.saas`` serves them there while recording with real n8n.
"""

from __future__ import annotations

import threading

from weft.testing.fake_api import FakeApiServer
from weft.testing.saas import gong, metabase, npm, okta, openai_legacy

#: The port the recorded declarative-node cases call.
RECORDED_PORT = 18298


class FakeSaasServer(FakeApiServer):
    """Every fake service of this package on one server."""

    def __init__(self, port: int = 0) -> None:
        super().__init__(port)
        for service in (okta, metabase, gong, npm, openai_legacy):
            service.install(self)


def main() -> None:
    """Serve on :data:`RECORDED_PORT` until interrupted (for recording cases with real n8n)."""
    server = FakeSaasServer(RECORDED_PORT).start()
    print(f"fake SaaS APIs on {server.url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()


__all__ = ["RECORDED_PORT", "FakeSaasServer", "main"]
