"""An HTTP echo server on 127.0.0.1 for HTTP Request (Tool) tests: it answers each request with what it received.

``/status/<code>[/…]`` answers with that status; ``GET /html`` with a small HTML page; ``/files/<name>`` with a
file (``?type=`` its content type, ``?name=`` a ``content-disposition`` file name); any other request with
JSON ``{method, path, query, headers, body}`` where ``headers`` keeps only ``x-*`` and ``content-type`` (the
rest differs between HTTP clients) and ``body`` is the parsed JSON body, else its text. Recorded cases that call
it use the fixed port :data:`RECORDED_PORT` (``python -m weft.testing.http_echo`` serves it while recording).
"""

from __future__ import annotations

import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar
from urllib.parse import parse_qsl, urlsplit

from weft.testing.feeds import FIXTURE_ROUTES
from weft.testing.threaded_http import ThreadedHttpServer

#: The port the recorded cases' HTTP Request Tool nodes call (``tests/recorded/cases/a1xx-*``).
RECORDED_PORT = 18297
_HTML = "<html><head><title>Echo</title></head><body><h1>Weather</h1><p class='f'>Sunny, 22 C</p></body></html>"


class HttpEchoServer(ThreadedHttpServer):
    """Serves in a thread; ``requests`` holds what arrived (the echoed JSON of each request)."""

    def __init__(self, port: int = 0, *, tls: ssl.SSLContext | None = None) -> None:
        super().__init__(port)
        self.tls = tls  # serve HTTPS with this context (``weft.testing.smtp_server.self_signed_context()``)
        self.requests: list[dict[str, Any]] = []

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>`` (``https://`` with ``tls``; started)."""
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    def _bind(self) -> ThreadingHTTPServer:
        httpd = ThreadingHTTPServer(("127.0.0.1", self.port), type("Handler", (_EchoHandler,), {"server_ref": self}))
        httpd.daemon_threads = True
        if self.tls is not None:
            httpd.socket = self.tls.wrap_socket(httpd.socket, server_side=True)
        return httpd


class _EchoHandler(BaseHTTPRequestHandler):
    server_ref: ClassVar[HttpEchoServer]
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """No access log."""

    def do_GET(self) -> None:
        self._serve()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_GET

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        parts = urlsplit(self.path)
        echoed = {
            "method": self.command,
            "path": parts.path,
            "query": dict(parse_qsl(parts.query, keep_blank_values=True)),
            "headers": {k.lower(): v for k, v in self.headers.items() if k.lower().startswith("x-")},
            "body": _parsed(raw),
        }
        if self.headers.get("content-type"):
            echoed["headers"]["content-type"] = self.headers["content-type"]
        self.server_ref.requests.append(echoed)
        if parts.path.startswith("/status/"):
            status = int(parts.path.split("/")[2])
            self._send(status, "application/json", json.dumps({"error": "status " + str(status), **echoed}))
        elif parts.path == "/html":
            self._send(200, "text/html; charset=utf-8", _HTML)
        elif parts.path.startswith("/files/"):  # a download: its name's text, typed by ?type=, named by ?name=
            self._send_file(parts.path.rsplit("/", 1)[-1], dict(parse_qsl(parts.query)))
        elif parts.path in FIXTURE_ROUTES:  # feeds and GraphQL answers (weft.testing.feeds)
            self._send(*FIXTURE_ROUTES[parts.path])
        else:
            self._send(200, "application/json", json.dumps(echoed))

    def _send_file(self, name: str, query: dict[str, str]) -> None:
        data = f"file {name}\n".encode()
        self.send_response(200)
        self.send_header("content-type", query.get("type", "application/octet-stream"))
        if "name" in query:
            self.send_header("content-disposition", f'attachment; filename="{query["name"]}"')
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send(self, status: int, content_type: str, text: str) -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)


def _parsed(raw: str) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def main() -> None:
    """Serve on :data:`RECORDED_PORT` until interrupted (for recording cases with real n8n)."""
    server = HttpEchoServer(RECORDED_PORT).start()
    print(f"echo on {server.url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
