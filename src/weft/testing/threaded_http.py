"""An HTTP server on 127.0.0.1 that serves in a thread of its own (the stdlib ``ThreadingHTTPServer``: a thread per
request), started and stopped, or used as a context manager. The fake servers of :mod:`weft.testing` build on it."""

from __future__ import annotations

import threading
from http.server import ThreadingHTTPServer
from types import TracebackType
from typing import Self


class ThreadedHttpServer:
    """Start/stop of a server a subclass binds (:meth:`_bind`); ``port`` is the bound port once started."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def _bind(self) -> ThreadingHTTPServer:
        """The listening server, on 127.0.0.1 and :attr:`port` (0: any free port), with its request handler."""
        raise NotImplementedError

    def start(self) -> Self:
        self._httpd = self._bind()
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


__all__ = ["ThreadedHttpServer"]
