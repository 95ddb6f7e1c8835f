"""A scripted HTTP server on 127.0.0.1 (stdlib, one thread per request) that fake providers build on.

It starts in about a millisecond on an ephemeral port, records every request, and answers from a script of
:class:`~weft.ai.models._turns.ScriptedTurn`. Subclasses turn a turn into the provider's JSON or SSE.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

from weft.ai.models._turns import ScriptedTurn, parse_turn
from weft.errors import WeftError
from weft.testing.threaded_http import ThreadedHttpServer


class FakeServerError(WeftError):
    """A fake server was used wrongly (not started)."""


@dataclass(frozen=True, kw_only=True)
class RecordedRequest:
    """One request the fake server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass(kw_only=True)
class Reply:
    """What to send back: JSON (``body``) or server-sent events (``events``, each already a ``data:`` payload)."""

    status: int = 200
    body: dict[str, Any] | None = None
    events: list[tuple[str | None, str]] = field(default_factory=list)
    """``(event name or None, data)`` pairs; sent as SSE when not empty."""
    delay: float = 0.0


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (timeout tests) is expected; do not print tracebacks."""


class FakeServerBase(ThreadedHttpServer):
    """Start/stop, the script queue and request recording; subclasses implement :meth:`route`."""

    name: ClassVar[str] = "FakeServer"

    def __init__(self, script: Sequence[ScriptedTurn | str | Mapping[str, Any]] = ()) -> None:
        super().__init__()
        self.requests: list[RecordedRequest] = []
        self._turns: deque[ScriptedTurn] = deque(parse_turn(t) for t in script)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._counters: dict[str, int] = {}

    # ------------------------------------------------------------------ lifecycle

    def _bind(self) -> ThreadingHTTPServer:
        return _Server(("127.0.0.1", 0), type("Handler", (_Handler,), {"fake": self}))

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:<port>`` (the server must be started)."""
        if self._httpd is None:
            raise FakeServerError(f"{self.name} is not started; use it as a context manager or call start().")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    # ------------------------------------------------------------------ script

    def add_turns(self, *turns: ScriptedTurn | str | Mapping[str, Any]) -> None:
        """Append replies to the script."""
        with self._lock:
            self._turns.extend(parse_turn(t) for t in turns)

    @property
    def remaining_turns(self) -> int:
        return len(self._turns)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies of all requests, in order."""
        return [r.body for r in self.requests]

    def next_id(self, prefix: str) -> str:
        """``<prefix>_1``, ``<prefix>_2`` … (one counter per prefix, so ids are predictable in tests)."""
        with self._lock:
            self._counters[prefix] = self._counters.get(prefix, 0) + 1
            return f"{prefix}_{self._counters[prefix]}"

    def _take_turn(self) -> ScriptedTurn | None:
        with self._lock:
            return self._turns.popleft() if self._turns else None

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def route(self, method: str, path: str, body: dict[str, Any]) -> Reply:
        raise NotImplementedError

    def exhausted_reply(self, path: str) -> Reply:
        message = f"{self.name} has no scripted turn left for request #{len(self.requests)} to {path}; add turns."
        return Reply(status=500, body={"error": {"message": message, "type": "server_error", "code": None}})


class _Handler(BaseHTTPRequestHandler):
    fake: ClassVar[FakeServerBase]
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        headers = {k.lower(): v for k, v in self.headers.items()}
        path = self.path.split("?", 1)[0]
        self.fake._record(RecordedRequest(method=method, path=path, headers=headers, body=body))
        reply = self.fake.route(method, path, body)
        if reply.delay and self.fake._stopping.wait(reply.delay):
            return
        try:
            self._write(reply)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _write(self, reply: Reply) -> None:
        if reply.events:
            self._write_events(reply.status, reply.events)
            return
        data = json.dumps(reply.body or {}).encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _write_events(self, status: int, events: Iterable[tuple[str | None, str]]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for name, data in events:
            prefix = f"event: {name}\n" if name else ""
            self.wfile.write(f"{prefix}data: {data}\n\n".encode())
            self.wfile.flush()
        self.close_connection = True
