"""The one place that speaks to the official ``mcp`` SDK: connect, list tools, call a tool (``mcp.types`` only here).

Everything else in Weft sees plain dataclasses (:class:`McpTool`, :class:`McpCallResult`) and two errors:
:class:`McpConnectError` (the session could not be opened: n8n's ``auth`` / ``connection`` failures) and
:class:`McpCallError` (a call failed), whose messages are worded as n8n's JavaScript SDK words them
(``MCP error -32001: Request timed out``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx2
import mcp.types as mcp_types
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from weft.ai.models.http_client import ai_httpx2_client
from weft.errors import WeftError

Transport = Literal["httpStreamable", "sse"]

#: How long opening a session may take (n8n's SDK has no bound; a server that never answers must not hang).
CONNECT_TIMEOUT_S = 30.0
#: JSON-RPC code of a request the client gave up on (the JavaScript SDK's ``RequestTimeout``).
REQUEST_TIMEOUT = -32001
#: JSON-RPC code of a session whose transport closed (the server went away).
CONNECTION_CLOSED = -32000


@dataclass(frozen=True, slots=True)
class McpTool:
    """A tool as the server lists it."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class McpCallResult:
    """What ``tools/call`` answered, as JSON in the protocol's own (camelCase) keys."""

    content: list[dict[str, Any]]
    is_error: bool = False
    structured_content: dict[str, Any] | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    """The whole result (``content``, ``isError``, ``structuredContent``, ``_meta`` …)."""


class McpConnectError(WeftError):
    """The session could not be opened; ``kind`` is ``auth`` (HTTP 401/403) or ``connection``."""

    def __init__(self, kind: Literal["auth", "connection"], message: str) -> None:
        super().__init__(message)
        self.kind = kind


class McpCallError(WeftError):
    """A request on an open session failed (an MCP error answer, a timeout, the server went away)."""

    def __init__(self, message: str, *, broken: bool = False) -> None:
        super().__init__(message)
        self.broken = broken
        """The session is unusable (the server went away): open a new one for the next call."""


class McpSession:
    """An initialized MCP client session."""

    def __init__(self, session: ClientSession) -> None:
        self._session = session

    async def list_tools(self, timeout_s: float) -> list[McpTool]:
        """Every tool the server offers (all pages)."""
        tools: list[McpTool] = []
        cursor: str | None = None
        while True:
            params = mcp_types.PaginatedRequestParams(cursor=cursor) if cursor else None
            result = await _bounded(self._session.list_tools(params=params), timeout_s)
            tools += [_tool(t) for t in result.tools]
            cursor = result.next_cursor
            if not cursor:
                return tools

    async def call_tool(self, name: str, arguments: dict[str, Any], timeout_s: float) -> McpCallResult:
        """Call ``name``; an ``isError`` answer is returned (the caller decides), a failed request raises."""
        result = await _bounded(self._session.call_tool(name, arguments), timeout_s)
        raw = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        content = [dict(c) for c in raw.get("content") or []]
        structured = raw.get("structuredContent")
        return McpCallResult(
            content=content,
            is_error=bool(raw.get("isError")),
            structured_content=structured if isinstance(structured, dict) else None,
            raw=raw,
        )


def _tool(tool: mcp_types.Tool) -> McpTool:
    schema = dict(tool.input_schema or {})
    return McpTool(name=tool.name, description=tool.description or "", input_schema=schema)


async def _bounded(call: Any, timeout_s: float) -> Any:
    try:
        async with asyncio.timeout(timeout_s):
            return await call
    except TimeoutError:
        raise McpCallError(f"MCP error {REQUEST_TIMEOUT}: Request timed out") from None
    except MCPError as exc:
        raise McpCallError(f"MCP error {exc.code}: {exc.message}", broken=exc.code == CONNECTION_CLOSED) from None
    except McpCallError:
        raise
    except Exception as exc:  # the transport failed: the server went away mid-session
        raise McpCallError(_describe(exc), broken=True) from None


@asynccontextmanager
async def connect(
    transport: Transport,
    url: str,
    headers: dict[str, str],
    *,
    client_name: str,
    client_version: str,
    timeout_s: float = CONNECT_TIMEOUT_S,
) -> AsyncIterator[McpSession]:
    """An initialized session on ``url``; raises :class:`McpConnectError` when it cannot be opened within
    ``timeout_s``."""
    stack = AsyncExitStack()
    statuses: list[int] = []
    try:
        async with asyncio.timeout(timeout_s):
            session = await _open(stack, transport, url, headers, statuses, client_name, client_version)
    except BaseException as exc:
        cause = await _close_after_failure(stack, exc)
        raise _connect_error(cause, statuses) from None
    try:
        yield McpSession(session)
    finally:
        with contextlib.suppress(Exception):  # a server that went away fails the transport's exit too
            await stack.aclose()


async def _open(
    stack: AsyncExitStack,
    transport: Transport,
    url: str,
    headers: dict[str, str],
    statuses: list[int],
    client_name: str,
    client_version: str,
) -> ClientSession:
    async def record(response: httpx2.Response) -> None:
        if response.status_code >= 400:
            statuses.append(response.status_code)

    def client(
        headers: dict[str, str] | None = None, timeout: httpx2.Timeout | None = None, auth: httpx2.Auth | None = None
    ) -> httpx2.AsyncClient:
        timeout = timeout or httpx2.Timeout(CONNECT_TIMEOUT_S, read=300.0)
        hooks = {"response": [record]}
        return ai_httpx2_client(timeout, headers=headers, auth=auth, event_hooks=hooks, follow_redirects=False)

    if transport == "sse":
        streams = sse_client(url, headers=headers, timeout=CONNECT_TIMEOUT_S, httpx_client_factory=client)
    else:
        http = await stack.enter_async_context(client(headers))
        streams = streamable_http_client(url, http_client=http)
    read, write = await stack.enter_async_context(streams)
    info = mcp_types.Implementation(name=client_name, version=client_version)
    session = await stack.enter_async_context(ClientSession(read, write, client_info=info))
    await session.initialize()
    return session


async def _close_after_failure(stack: AsyncExitStack, error: BaseException) -> BaseException:
    """The real cause of a failed opening. A transport task that fails cancels the opener, and its task group,
    told of that cancellation on exit, raises the task's error; a cancellation of the opener is re-raised."""
    try:
        suppressed = await stack.__aexit__(type(error), error, error.__traceback__)
    except BaseException as exc:
        cause = _first(exc)
        if isinstance(cause, asyncio.CancelledError):
            raise
        return cause
    if isinstance(error, asyncio.CancelledError) and not suppressed:
        raise error
    return _first(error)


def _first(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def _status(error: BaseException) -> int | None:
    response = getattr(error, "response", None)
    status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None


def _connect_error(error: BaseException, statuses: list[int]) -> McpConnectError:
    status = _status(error) or (statuses[-1] if statuses else None)
    message = _describe(error)
    if status is not None and status != _status(error):
        message = f"HTTP {status}: {message}"
    if status in (401, 403):
        return McpConnectError("auth", message)
    return McpConnectError("connection", message)


def _describe(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "The server did not answer in time"
    if isinstance(error, MCPError):
        return f"MCP error {error.code}: {error.message}"
    status = _status(error)
    if status is not None:
        return f"HTTP {status}: {error}"
    return str(error) or type(error).__name__


__all__ = [
    "CONNECT_TIMEOUT_S",
    "McpCallError",
    "McpCallResult",
    "McpConnectError",
    "McpSession",
    "McpTool",
    "Transport",
    "connect",
]
