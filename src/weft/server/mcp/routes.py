"""``/mcp/<path>`` (active workflows) and ``/mcp-test/<path>`` (while the editor listens): the MCP Server Trigger's
URLs.

n8n's ``McpTrigger.webhook``, step for step: the body is parsed (422 when it is not JSON), the trigger's
``authentication`` checked (``bearerAuth``/``headerAuth``: a bare 403 ``Authorization data is wrong!``, 500
without a credential), then ``GET`` opens an SSE session, ``DELETE`` ends a streamable-HTTP session (405 for an
SSE one), and ``POST`` goes to the session named by ``?sessionId=`` or the ``mcp-session-id`` header (404
``Session not found`` for an unknown header, 401 ``No transport found for sessionId`` for an unknown query), or
opens a streamable-HTTP session with ``initialize``. On a test URL the session's first ``tools/call`` runs the
workflow, so it claims the listener (:mod:`weft.services.listening`): later requests answer n8n's 404.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from weft.ai.nodes.mcp_trigger import server_name
from weft.server.mcp import transport
from weft.server.mcp.calls import ToolCalls, TriggerFailedError
from weft.server.mcp.protocol import dispatch
from weft.server.mcp.sessions import McpSession, SessionStore
from weft.server.mcp.targets import McpTarget, Role, active_methods, find_active, find_listening
from weft.server.routes.webhooks import PRODUCTION_HINT
from weft.services.errors import WebhookNotFoundError
from weft.services.instance import Instance
from weft.services.listening import Listener, not_listening
from weft.services.webhook_auth import WebhookAuthorizationError, check_webhook_auth, needs_auth

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]
NOT_STARTED = {"code": 0, "message": "Workflow Webhook Error: Workflow could not be started!"}


class McpServer:
    """The MCP state of one server process: its sessions and tool calls."""

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        self.sessions = SessionStore()
        self.calls = ToolCalls(instance.runner)


def mcp_server(request: Request) -> McpServer:
    server: McpServer | None = getattr(request.app.state, "mcp", None)
    if server is None:
        server = request.app.state.mcp = McpServer(request.app.state.instance)
    return server


async def production_mcp(request: Request) -> Response:
    return await _serve(request, test=False)


async def test_mcp(request: Request) -> Response:
    return await _serve(request, test=True)


async def _find(server: McpServer, method: str, path: str, *, test: bool) -> tuple[McpTarget, Role, Listener | None]:
    """The trigger for ``method path`` (a test URL's with its listener), or n8n's 404."""
    instance = server.instance
    if test:
        found = await find_listening(instance.test_webhooks, method, path)
        if found is None:
            raise _not_found(method, path, await instance.test_webhooks.methods(path, "mcp"), test)
        return found
    hit = await find_active(instance.active, method, path)
    if hit is None:
        raise _not_found(method, path, active_methods(instance.active, path), test)
    return hit[0], hit[1], None


async def _serve(request: Request, *, test: bool) -> Response:
    server = mcp_server(request)
    path: str = request.path_params["path"]
    try:
        target, role, listener = await _find(server, request.method, path, test=test)
    except _WrongMethod as refused:
        return refused.response
    body: Any = None
    if request.method == "POST":
        raw = await request.body()
        try:
            body = json.loads(raw) if raw else {}
        except ValueError as exc:
            return _unparsable(exc)
    refusal = await _authorize(server, target, request)
    if refusal is not None:
        return refusal
    try:
        if role == "setup":
            return _open_sse(server, target, request)
        if role == "delete":
            return _delete(server, request)
        return await _post(server, target, request, body, listener)
    except transport.TransportError as refused:
        return refused.response
    except TriggerFailedError:
        return Response(json.dumps(NOT_STARTED), status_code=500, media_type="application/json")


async def _authorize(server: McpServer, target: McpTarget, request: Request) -> Response | None:
    if not needs_auth(target.node):
        return None
    runner = server.instance.runner
    try:
        await runner.db(check_webhook_auth, runner.store.credentials, target.node, request.headers)
    except WebhookAuthorizationError as refusal:  # n8n: resp.writeHead(code); resp.end(message)
        return Response(refusal.message.encode(), status_code=refusal.status)
    return None


def _session_id(request: Request) -> str | None:
    return request.query_params.get("sessionId") or request.headers.get("mcp-session-id")


def _open_sse(server: McpServer, target: McpTarget, request: Request) -> Response:
    path = request.url.path
    if target.version < 2 and path.endswith("/sse"):
        path = path[: -len("/sse")] + "/messages"
    session = server.sessions.create("sse")
    return transport.sse_stream(session, path, server.sessions.close)


def _delete(server: McpServer, request: Request) -> Response:
    session_id = _session_id(request)
    if not session_id:
        return transport.text(400, "No sessionId provided")
    session = server.sessions.get(session_id)
    if session is None:
        return transport.text(404, "Session not found")
    if session.kind == "sse":
        return transport.text(405, "Method Not Allowed")
    server.sessions.close(session_id)
    return transport.empty(200)


async def _post(
    server: McpServer, target: McpTarget, request: Request, body: Any, listener: Listener | None
) -> Response:
    session_id = _session_id(request)
    if not session_id:
        messages = transport.check_post(request.headers, body)
        transport.check_new_session(messages)
        await _claim_for_calls(server, listener, messages)
        return await _answer(server, target, server.sessions.create("streamable"), messages)
    session = server.sessions.get(session_id)
    if session is None:
        if request.headers.get("mcp-session-id"):
            return transport.text(404, "Session not found")
        return transport.text(401, "No transport found for sessionId")
    if session.kind == "sse":
        await _claim_for_calls(server, listener, body if isinstance(body, list) else [body])
        return await _post_to_stream(server, target, session, body)
    messages = transport.check_post(request.headers, body)
    transport.check_in_session(messages, request.headers)
    await _claim_for_calls(server, listener, messages)
    return await _answer(server, target, session, messages)


async def _claim_for_calls(server: McpServer, listener: Listener | None, messages: list[Any]) -> None:
    """A test URL's ``tools/call`` runs the workflow: it claims the listener first (n8n stops listening once a
    call started an execution; ``initialize`` and ``tools/list`` start none)."""
    if listener is not None and any(isinstance(m, dict) and m.get("method") == "tools/call" for m in messages):
        await server.instance.test_webhooks.claim(listener)


async def _answer(server: McpServer, target: McpTarget, session: McpSession, messages: list[Any]) -> Response:
    if not transport.has_requests(messages):
        return transport.empty(202)
    answers = [a for m in messages if (a := await _dispatch(server, target, m)) is not None]
    return transport.streamed_answers(answers, session)


async def _post_to_stream(server: McpServer, target: McpTarget, session: McpSession, body: Any) -> Response:
    messages = body if isinstance(body, list) else [body]
    for message in messages:
        answer = await _dispatch(server, target, message)
        if answer is not None:
            session.events.put_nowait(transport.sse_event(answer))
    return Response("Accepted", status_code=202)


async def _dispatch(server: McpServer, target: McpTarget, message: Any) -> dict[str, Any] | None:
    calls = server.calls

    async def list_tools() -> list[dict[str, Any]]:
        return (await calls.list_tools(target)).tools

    async def call_tool(name: str, arguments: dict[str, Any], message_id: str) -> dict[str, Any]:
        # an unknown tool too is a stored execution, whose trigger answers "Tool not found" (as n8n 2.41.1)
        return await calls.call_tool(target, name, arguments, message_id)

    instructions = str(target.node.parameters.get("instructions") or "") if target.version >= 2 else ""
    return await dispatch(
        message,
        server_name=server_name(target.node),
        list_tools=list_tools,
        call_tool=call_tool,
        instructions=instructions,
    )


def _unparsable(exc: ValueError) -> Response:
    body = {"code": 422, "message": "Failed to parse request body", "hint": str(exc)}
    return Response(json.dumps(body), status_code=422, media_type="application/json")


class _WrongMethod(Exception):
    """n8n's 404 for a path registered for other methods (it names them, with no hint)."""

    def __init__(self, method: str, allowed: list[str]) -> None:
        super().__init__(method)
        methods = allowed[0] if len(allowed) == 1 else f"{', '.join(allowed[:-1])} or {allowed[-1]}"
        message = f"This webhook is not registered for {method} requests. Did you mean to make a {methods} request?"
        body = json.dumps({"code": 404, "message": message})
        self.response = Response(body, status_code=404, media_type="application/json")


def _not_found(method: str, path: str, allowed: list[str], test: bool) -> Exception:
    """n8n's 404: the path is unknown (a test URL: nobody listens on it), or registered for other methods."""
    if allowed:
        return _WrongMethod(method, allowed)
    if test:
        return not_listening(path)
    return WebhookNotFoundError(f'The requested webhook "{method} {path}" is not registered.', hint=PRODUCTION_HINT)


routes = [
    Route("/mcp/{path:path}", production_mcp, methods=METHODS),
    Route("/mcp-test/{path:path}", test_mcp, methods=METHODS),
]

__all__ = ["McpServer", "mcp_server", "routes"]
