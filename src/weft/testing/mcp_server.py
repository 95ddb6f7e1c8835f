"""A small MCP server on the official SDK, for tests, the recorded cases and the example (127.0.0.1 only).

It offers the tools of the n8n oracle's server — ``get_weather(city)`` (``isError`` without a city) and
``get_time()`` — with the same schemas and answers, over streamable HTTP (``/mcp``, JSON responses) and SSE
(``/sse`` + ``/messages/``). Options for tests: ``token`` (a bearer token or ``header=(name, value)`` every
request must carry; compared in constant time), ``extras`` (adds ``wait(seconds)``, which sleeps, and
``fail()``, which answers a JSON-RPC error). It counts the
sessions opened and closed and records every tool call::

    with McpTestServer() as server:
        server.url            # http://127.0.0.1:<port>/mcp
        server.sessions       # initialize requests seen
        server.calls          # [(tool, arguments), ...]

``python -m weft.testing.mcp_server --port 18282`` serves it in the foreground.
"""

from __future__ import annotations

import argparse
import asyncio
import hmac
import threading
import time
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Self

import mcp.types as types
import uvicorn
from mcp.server.lowlevel.server import Server
from mcp.server.sse import SseServerTransport
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

Asgi = Callable[[dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]

TOOLS: list[dict[str, Any]] = [
    {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name"}},
            "required": ["city"],
        },
    },
    {
        "name": "get_time",
        "description": "The current time (fixed for tests).",
        "inputSchema": {"type": "object", "properties": {}},
    },
]
WAIT_TOOL: dict[str, Any] = {
    "name": "wait",
    "description": "Sleeps for the given seconds, then answers.",
    "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}}, "required": ["seconds"]},
}
FAIL_TOOL: dict[str, Any] = {
    "name": "fail",
    "description": "Always answers a JSON-RPC error.",
    "inputSchema": {"type": "object", "properties": {}},
}


def answer(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The oracle server's answer to a call (``None``: no such tool)."""
    if name == "get_weather":
        city = arguments.get("city")
        if not city:
            return {"content": [{"type": "text", "text": "city is required"}], "isError": True}
        return {"content": [{"type": "text", "text": f"Sunny, 22°C in {city}"}]}
    if name == "get_time":
        return {"content": [{"type": "text", "text": "2026-01-15T10:00:00Z"}]}
    return None


class McpTestServer:
    """The server in a background thread on a free port (or ``port``); a context manager."""

    def __init__(
        self,
        *,
        port: int = 0,
        token: str | None = None,
        header: tuple[str, str] | None = None,
        extras: bool = False,
    ) -> None:
        self.port = port
        self.token = token
        self.header = header
        self.extras = extras
        self.sessions = 0
        self.closed = 0
        """Streamable HTTP sessions the client ended (``DELETE /mcp``)."""
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.rejected = 0
        self._uvicorn: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ addresses

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The streamable HTTP endpoint."""
        return self.base_url + "/mcp"

    @property
    def sse_url(self) -> str:
        return self.base_url + "/sse"

    # ------------------------------------------------------------------ the MCP server

    def _tools(self) -> list[dict[str, Any]]:
        return TOOLS + ([WAIT_TOOL, FAIL_TOOL] if self.extras else [])

    def _server(self) -> Server[Any]:
        async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in self._tools()])

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            arguments = dict(params.arguments or {})
            self.calls.append((params.name, arguments))
            if params.name == "wait" and self.extras:
                await asyncio.sleep(float(arguments.get("seconds") or 0))
                return types.CallToolResult(content=[types.TextContent(type="text", text="waited")])
            if params.name == "fail" and self.extras:
                raise MCPError(-32603, "the tool broke")
            result = answer(params.name, arguments)
            if result is None:
                raise MCPError(-32602, f"Unknown tool: {params.name}")
            return types.CallToolResult.model_validate(result)

        return Server("weft-test-mcp", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)

    def app(self) -> Starlette:
        """The ASGI app: streamable HTTP on ``/mcp``, SSE on ``/sse`` and ``/messages/``."""
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        streamable = self._server().streamable_http_app(json_response=True, transport_security=security)
        sse_server = self._server()
        sse = SseServerTransport("/messages/", security_settings=security)

        async def handle_sse(request: Request) -> Response:
            async with sse.connect_sse(request.scope, request.receive, request._send) as (read, write):
                await sse_server.run(read, write, sse_server.create_initialization_options())
            return Response()

        routes = [
            Route("/health", lambda request: JSONResponse({"ok": True})),
            Route("/sse", handle_sse, methods=["GET"]),
            Mount("/messages/", app=sse.handle_post_message),
            *streamable.routes,
        ]
        app = Starlette(routes=routes, lifespan=streamable.router.lifespan_context)
        app.add_middleware(_Guard, owner=self)
        return app

    # ------------------------------------------------------------------ auth

    def allows(self, headers: dict[str, str]) -> bool:
        """Whether a request with ``headers`` (lower-case names) may pass: the token or header must match."""
        if self.token is not None:
            given = headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {self.token}".encode()):
                return False
        if self.header is not None:
            given = headers.get(self.header[0].lower(), "")
            if not hmac.compare_digest(given.encode(), self.header[1].encode()):
                return False
        return True

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Self:
        config = uvicorn.Config(self.app(), host="127.0.0.1", port=self.port, log_level="critical", lifespan="on")
        server = uvicorn.Server(config)
        self._uvicorn = server
        self._thread = threading.Thread(target=server.run, name="weft-mcp-test-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 15
        while not server.started and self._thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not server.started:
            raise RuntimeError(f"the MCP test server did not start on 127.0.0.1:{self.port}")
        self.port = server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        """Stop listening and drop open connections (a server that goes away)."""
        if self._uvicorn is not None:
            self._uvicorn.should_exit = True
            self._uvicorn.force_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._uvicorn = None
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


class _Guard:
    """ASGI middleware: refuses requests without the server's credentials (401) and counts sessions."""

    def __init__(self, app: Asgi, owner: McpTestServer) -> None:
        self.app = app
        self.owner = owner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
        if not self.owner.allows(headers):
            self.owner.rejected += 1
            await JSONResponse({"error": "unauthorized"}, status_code=401)(scope, receive, send)
            return
        if scope["method"] == "GET" and scope["path"] == "/sse":
            self.owner.sessions += 1
        elif scope["method"] == "POST" and scope["path"] == "/mcp" and "mcp-session-id" not in headers:
            self.owner.sessions += 1
        elif scope["method"] == "DELETE" and scope["path"] == "/mcp":
            self.owner.closed += 1
        await self.app(scope, receive, send)


def main(argv: list[str] | None = None) -> None:
    """Serve in the foreground until interrupted."""
    parser = argparse.ArgumentParser(description="Weft's test MCP server (get_weather, get_time) on 127.0.0.1")
    parser.add_argument("--port", type=int, default=18282)
    args = parser.parse_args(argv)
    server = McpTestServer(port=args.port)
    uvicorn.run(server.app(), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()


__all__ = ["TOOLS", "McpTestServer", "answer"]
