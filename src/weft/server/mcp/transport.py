"""The two transports' HTTP answers, as n8n's (its TypeScript SDK's ``StreamableHTTPServerTransport`` and
``SSEServerTransport``, and n8n's own texts around them).

Streamable HTTP: a ``POST`` without a session must be ``initialize`` and opens one (``mcp-session-id`` header);
requests are answered as one server-sent-events body (``event: message``), notifications with 202 and no body.
SSE: ``GET`` opens the stream, whose first event (``endpoint``) names the URL to ``POST`` messages to with
``?sessionId=``; each ``POST`` answers 202 ``Accepted`` and the answer goes out on the stream.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from starlette.responses import Response, StreamingResponse

from weft.errors import WeftError
from weft.server.mcp.protocol import SUPPORTED_VERSIONS, is_initialize, is_request, valid_message
from weft.server.mcp.sessions import McpSession

EVENT_STREAM = "text/event-stream"
TEXT = "text/html; charset=utf-8"
#: What n8n's Express answers an empty 200/202 with.
EMPTY_TEXT = "text/plain; charset=UTF-8"


class TransportError(WeftError):
    """A request the transport refuses before any message is handled: its HTTP answer."""

    def __init__(self, response: Response) -> None:
        super().__init__(f"The MCP transport refused the request (HTTP {response.status_code})")
        self.response = response


def json_error(status: int, code: int, message: str) -> Response:
    """The SDK's ``createJsonErrorResponse``."""
    body = {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": None}
    return Response(json.dumps(body, separators=(",", ":")), status_code=status, media_type="application/json")


def text(status: int, message: str) -> Response:
    """n8n's ``res.status(status).send(message)``."""
    return Response(message, status_code=status, headers={"content-type": TEXT})


def empty(status: int) -> Response:
    return Response(b"", status_code=status, headers={"content-type": EMPTY_TEXT})


def sse_event(message: Mapping[str, Any], event: str = "message") -> str:
    return f"event: {event}\ndata: {json.dumps(message, separators=(',', ':'), ensure_ascii=False)}\n\n"


def check_post(headers: Mapping[str, str], body: Any) -> list[dict[str, Any]]:
    """The messages of a streamable-HTTP ``POST``, or :class:`TransportError` with the SDK's refusal."""
    accept = headers.get("accept", "")
    if "application/json" not in accept or EVENT_STREAM not in accept:
        raise TransportError(
            json_error(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream")
        )
    if "application/json" not in headers.get("content-type", ""):
        raise TransportError(json_error(415, -32000, "Unsupported Media Type: Content-Type must be application/json"))
    messages = body if isinstance(body, list) else [body]
    if not all(valid_message(m) for m in messages):
        raise TransportError(json_error(400, -32700, "Parse error: Invalid JSON-RPC message"))
    return messages


def check_new_session(messages: list[dict[str, Any]]) -> None:
    """A ``POST`` without a session opens one: it must be a lone ``initialize``."""
    if not any(is_initialize(m) for m in messages):
        raise TransportError(json_error(400, -32000, "Bad Request: Server not initialized"))
    if len(messages) > 1:
        raise TransportError(json_error(400, -32600, "Invalid Request: Only one initialization request is allowed"))


def check_in_session(messages: list[dict[str, Any]], headers: Mapping[str, str]) -> None:
    if any(is_initialize(m) for m in messages):
        raise TransportError(json_error(400, -32600, "Invalid Request: Server already initialized"))
    version = headers.get("mcp-protocol-version")
    if version is not None and version not in SUPPORTED_VERSIONS:
        raise TransportError(
            json_error(
                400,
                -32000,
                f"Bad Request: Unsupported protocol version: {version} "
                f"(supported versions: {', '.join(SUPPORTED_VERSIONS)})",
            )
        )


def has_requests(messages: list[dict[str, Any]]) -> bool:
    return any(is_request(m) for m in messages)


def streamed_answers(answers: list[dict[str, Any]], session: McpSession) -> Response:
    """The answers of one ``POST`` as the SDK streams them (one ``message`` event each), then the end."""
    body = "".join(sse_event(a) for a in answers)
    headers = {"cache-control": "no-cache", "connection": "keep-alive", "mcp-session-id": session.id}
    return Response(body, status_code=200, headers={**headers, "content-type": EVENT_STREAM})


def sse_stream(session: McpSession, endpoint: str, on_close: Any) -> StreamingResponse:
    """The ``GET`` stream of an SSE session: the ``endpoint`` event, then the answers as they come."""

    async def events() -> AsyncIterator[str]:
        try:
            yield f"event: endpoint\ndata: {endpoint}?sessionId={session.id}\n\n"
            while True:
                item = await session.events.get()
                if item is None:
                    return
                yield item
        finally:
            on_close(session.id)

    headers = {"content-type": EVENT_STREAM, "cache-control": "no-cache, no-transform", "connection": "keep-alive"}
    return StreamingResponse(events(), headers=headers)


__all__ = [
    "EMPTY_TEXT",
    "EVENT_STREAM",
    "TransportError",
    "check_in_session",
    "check_new_session",
    "check_post",
    "empty",
    "has_requests",
    "json_error",
    "sse_event",
    "sse_stream",
    "streamed_answers",
    "text",
]
