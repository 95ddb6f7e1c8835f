"""A routed HTTP API on 127.0.0.1 for tests of nodes that call services (declarative nodes): handlers by method
and path pattern, every request recorded as it arrived (method, path, query, headers, parsed body).

A handler gets an :class:`ApiRequest` and answers an :class:`ApiReply` (JSON, text or bytes, any status and
headers); :func:`json_error` and :func:`require` help it answer as a service would. No route: 404 with a JSON
error naming the request.

Given a :class:`weft.testing.tls.CertAuthority`, the server is also the HTTPS proxy of the code under test
(``HTTPS_PROXY=http://127.0.0.1:<port>``): it answers ``CONNECT host:443`` itself, with a certificate for ``host``
signed by the authority, and serves the requests that follow, routed by host (``route(..., host=...)``). Nothing
is forwarded anywhere: a service with a fixed host name (``sheets.googleapis.com``) is served here, unchanged.
"""

from __future__ import annotations

import json
import re
import socketserver
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import parse_qsl, unquote, urlsplit

from weft.testing.threaded_http import ThreadedHttpServer

if TYPE_CHECKING:
    from weft.testing.tls import CertAuthority


@dataclass(frozen=True, kw_only=True)
class ApiRequest:
    """One request as the fake received it."""

    method: str
    path: str
    """The path, percent-decoded."""
    raw_path: str
    """The path as sent (percent-encoded)."""
    query: dict[str, str]
    """The query (the last value of a repeated name; :attr:`query_pairs` has them all)."""
    query_pairs: list[tuple[str, str]]
    headers: dict[str, str]
    """Lower-case names."""
    body: Any
    """The parsed JSON body; a form body as a dict; other text as text; ``None`` for none."""
    raw_body: bytes
    params: dict[str, str] = field(default_factory=dict)
    """The named groups of the route's path pattern."""
    host: str = ""
    """The host the request was for (the ``CONNECT`` target, or the ``Host`` header), without the port."""


@dataclass(kw_only=True)
class ApiReply:
    """What a handler answers: ``body`` as JSON, or ``text``/``data`` with ``content_type``."""

    status: int = 200
    body: Any = None
    text: str | None = None
    data: bytes | None = None
    content_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> tuple[bytes, str]:
        if self.data is not None:
            return self.data, self.content_type or "application/octet-stream"
        if self.text is not None:
            return self.text.encode(), self.content_type or "text/plain; charset=utf-8"
        if self.body is None:
            return b"", self.content_type or "application/json"
        return json.dumps(self.body).encode(), self.content_type or "application/json; charset=utf-8"


Handler = Callable[[ApiRequest], ApiReply]


class Rejected(Exception):
    """A handler's early answer (raised by :func:`require`)."""

    def __init__(self, reply: ApiReply) -> None:
        super().__init__(reply.status)
        self.reply = reply


def json_error(status: int, body: Any, **headers: str) -> ApiReply:
    return ApiReply(status=status, body=body, headers=dict(headers))


def require(condition: bool, reply: ApiReply) -> None:
    """Answer ``reply`` unless ``condition`` holds (a wrong method, header, query or body)."""
    if not condition:
        raise Rejected(reply)


class FakeApiServer(ThreadedHttpServer):
    """Serves its routes in a thread; ``requests`` holds what arrived, in order."""

    def __init__(self, port: int = 0, authority: CertAuthority | None = None) -> None:
        super().__init__(port)
        self.authority = authority
        self.requests: list[ApiRequest] = []
        self._routes: list[tuple[str, re.Pattern[str], Handler, str | None]] = []
        self._lock = threading.Lock()

    def route(self, method: str, pattern: str, handler: Handler, host: str | None = None) -> None:
        """Answer ``method`` requests whose decoded path fully matches ``pattern`` (named groups become
        :attr:`ApiRequest.params`), for ``host`` only when given; routes for the request's host are tried before
        host-less ones, later routes first."""
        self._routes.insert(0, (method.upper(), re.compile(pattern), handler, host))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _bind(self) -> ThreadingHTTPServer:
        httpd = ThreadingHTTPServer(("127.0.0.1", self.port), type("Handler", (_Handler,), {"api": self}))
        httpd.daemon_threads = True
        return httpd

    def answer(self, request: ApiRequest) -> ApiReply:
        with self._lock:
            self.requests.append(request)
            routes = list(self._routes)
        # a route for the request's host wins over a host-less one (``/openai/v1/…`` must not answer api.groq.com)
        routes.sort(key=lambda route: route[3] is None)
        for method, pattern, handler, host in routes:
            if host is not None and host != request.host:
                continue
            match = pattern.fullmatch(request.path)
            if match and method in (request.method, "*"):
                try:
                    return handler(_with_params(request, match.groupdict()))
                except Rejected as rejected:
                    return rejected.reply
        where = f"{request.host}{request.path}" if request.host else request.path
        return json_error(404, {"error": f"no route for {request.method} {where}"})


def _with_params(request: ApiRequest, params: dict[str, str]) -> ApiRequest:
    return ApiRequest(
        method=request.method,
        path=request.path,
        raw_path=request.raw_path,
        query=request.query,
        query_pairs=request.query_pairs,
        headers=request.headers,
        body=request.body,
        raw_body=request.raw_body,
        params=params,
        host=request.host,
    )


def _parsed_body(raw: bytes, content_type: str) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", "replace")
    if "application/x-www-form-urlencoded" in content_type:
        return dict(parse_qsl(text, keep_blank_values=True))
    try:
        return json.loads(text)
    except ValueError:
        return text


class _Handler(BaseHTTPRequestHandler):
    api: ClassVar[FakeApiServer]
    protocol_version = "HTTP/1.1"
    tunnel_host = ""

    def do_CONNECT(self) -> None:
        """Be the HTTPS proxy: accept the tunnel, then speak TLS as ``host`` on it and serve what comes."""
        host = self.path.rsplit(":", 1)[0].strip("[]").lower()
        if self.api.authority is None:
            self.send_error(405, "this fake is no proxy")
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        context = self.api.authority.server_context(host)
        try:
            self.connection = context.wrap_socket(self.connection, server_side=True)
        except OSError:  # the client refused the certificate (an untrusted CA) or went away
            self.close_connection = True
            return
        self.rfile = self.connection.makefile("rb", self.rbufsize)
        self.wfile = socketserver._SocketWriter(self.connection)  # type: ignore[attr-defined]
        self.tunnel_host = host
        self.close_connection = False

    def finish(self) -> None:
        super().finish()
        if self.tunnel_host:  # the TLS socket took the accepted one's place: socketserver closes only that one
            self.connection.close()

    def log_message(self, format: str, *args: Any) -> None:
        """No access log."""

    def do_GET(self) -> None:
        self._serve()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        parts = urlsplit(self.path)  # an absolute URL when asked as a plain HTTP proxy
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        headers = {k.lower(): v for k, v in self.headers.items()}
        host = self.tunnel_host or parts.hostname or headers.get("host", "").rsplit(":", 1)[0]
        request = ApiRequest(
            method=self.command,
            path=unquote(parts.path),
            raw_path=parts.path,
            query=dict(pairs),
            query_pairs=pairs,
            headers=headers,
            body=_parsed_body(raw, headers.get("content-type", "")),
            raw_body=raw,
            host="" if host in ("127.0.0.1", "localhost") else host.lower(),
        )
        reply = self.api.answer(request)
        data, content_type = reply.encoded()
        self.send_response(reply.status)
        if data or reply.status != 204:
            self.send_header("content-type", content_type)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)


__all__ = ["ApiReply", "ApiRequest", "FakeApiServer", "Handler", "Rejected", "json_error", "require"]
