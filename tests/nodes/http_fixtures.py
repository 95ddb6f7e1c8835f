"""A real HTTP server on 127.0.0.1 (stdlib, ephemeral port, one thread per request) for the HTTP Request tests.

Routes:

* ``/echo`` answers JSON ``{method, path, query, headers, body}`` (query values are lists, headers lowercased);
* ``/json``, ``/array``, ``/text``, ``/file``, ``/empty`` answer fixed bodies;
* ``/status/<code>`` answers that status with ``{"message": "status <code>"}``;
* ``/sleep`` answers after 1 second; ``/redirect`` → ``/json``; ``/redirect-ftp`` → an ``ftp://`` URL;
  ``/redirect-other-origin`` → ``/echo`` on ``localhost`` (another origin than ``127.0.0.1``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request log lines."""

    def _handle(self) -> None:
        url = urlsplit(self.path)
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        status, content_type, payload, extra = self._route(url.path, url.query, body)
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(payload)))
        for name, value in extra.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    def _route(self, path: str, query: str, body: str) -> tuple[int, str, bytes, dict[str, str]]:
        if path == "/echo":
            echo = {
                "method": self.command,
                "path": path,
                "query": parse_qs(query),
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body,
            }
            return 200, "application/json", json.dumps(echo).encode(), {}
        if path.startswith("/status/"):
            code = int(path.rsplit("/", 1)[1])
            return code, "application/json", json.dumps({"message": f"status {code}"}).encode(), {}
        if path == "/sleep":
            time.sleep(1)
            return 200, "application/json", b"{}", {}
        if path == "/redirect":
            return 302, "text/plain", b"", {"location": "/json"}
        if path == "/redirect-other-origin":  # the same server under another origin (host name)
            return 302, "text/plain", b"", {"location": f"http://localhost:{self.server.server_address[1]}/echo"}
        if path == "/redirect-ftp":
            return 302, "text/plain", b"", {"location": "ftp://127.0.0.1/secret"}
        fixed = {
            "/json": (200, "application/json; charset=utf-8", b'{"hello": "world"}', {}),
            "/array": (200, "application/json", b'[{"a": 1}, {"a": 2}, {"a": 3}]', {}),
            "/text": (200, "text/plain; charset=utf-8", b"plain text", {}),
            "/empty": (200, "application/json", b"", {}),
            "/file": (200, "image/png", PNG, {"content-disposition": 'attachment; filename="pixel.png"'}),
        }
        return fixed.get(path, (404, "text/plain", b"no such route", {}))

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _handle


@pytest.fixture(scope="module")
def http_server() -> Iterator[str]:
    """The base URL (``http://127.0.0.1:<port>``) of a server running for the module's tests."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
