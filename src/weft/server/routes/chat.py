"""``/webhook/<webhookId>/chat`` and ``/webhook-test/<webhookId>/chat``: the Chat Trigger's URLs.

Matched before the generic webhook routes; a ``webhookId`` that belongs to no Chat Trigger (of an active workflow;
for the test URL, of a workflow the editor listens with) is handed to them, so a Webhook node whose path is
``<something>/chat`` keeps working, and a test URL nobody listens on gets their 404. Streamed answers are NDJSON
(n8n's format) or, for clients sending ``Accept: text/event-stream``, server-sent events. ``OPTIONS`` answers
CORS pre-flights; every answer to a call with an ``Origin`` carries n8n's CORS headers (``options.allowedOrigins``,
default ``*``; :func:`weft.services.chat_auth.cors_headers`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from weft.server.http import read_request, to_response, webhook_response
from weft.server.routes import webhooks
from weft.services.chat import ChatAnswer, ChatStream, ChatTarget, call_chat, chat_target, find_active_chat
from weft.services.chat_auth import cors_headers
from weft.services.instance import Instance

METHODS = ["GET", "POST", "OPTIONS"]


async def production_chat(request: Request) -> Response:
    instance: Instance = request.app.state.instance
    webhook_id: str = request.path_params["webhook_id"]
    # a Webhook node's path "<x>/chat" is not a chat: no reload of the active workflows for it
    is_webhook = instance.active.table.match(request.method, f"{webhook_id}/chat") is not None
    target = await find_active_chat(instance.active, webhook_id, refresh=not is_webhook)
    if target is None:
        return await webhooks.production_webhook(_as_webhook(request, webhook_id))
    return await _call(instance, request, target, test=False)


async def test_chat(request: Request) -> Response:
    instance: Instance = request.app.state.instance
    webhook_id: str = request.path_params["webhook_id"]
    method = "POST" if request.method == "OPTIONS" else request.method  # a pre-flight asks for the chat's POST
    listener = await instance.test_webhooks.find("chat", method, f"{webhook_id}/chat")
    target = chat_target(listener.prepared, listener.node) if listener is not None else None
    if listener is None or target is None:
        return await webhooks.test_webhook(_as_webhook(request, webhook_id))
    return await _call(instance, request, target, test=True, claim=lambda: instance.test_webhooks.claim(listener))


def _as_webhook(request: Request, webhook_id: str) -> Request:
    request.scope["path_params"] = {"path": f"{webhook_id}/chat"}
    return request


async def _call(
    instance: Instance,
    request: Request,
    target: ChatTarget,
    *,
    test: bool,
    claim: Callable[[], Awaitable[None]] | None = None,
) -> Response:
    cors = cors_headers(target.options.allowed_origins, request.headers, request.method)
    if request.method == "OPTIONS":
        return Response(status_code=204, headers=cors)
    url = f"{instance.settings.base_url.rstrip('/')}{request.url.path}"
    incoming = await read_request(request, f"{target.options.webhook_id}/chat", url)
    answer = await call_chat(
        instance.runner, target, incoming, test=test, page_url=request.url.path, auth=instance.auth, claim=claim
    )
    if request.method in ("GET", "HEAD") or isinstance(answer, ChatStream):
        response = chat_response(answer)  # the hosted page is not sandboxed, as n8n's is not (it needs its origin)
    else:  # a workflow's answer: an HTML one is sandboxed, as n8n's
        response = webhook_response(answer, instance.settings)
    response.headers.update(cors)
    return response


def chat_response(answer: ChatAnswer) -> Response:
    """The HTTP answer: a streamed one as it comes, else the webhook response."""
    if isinstance(answer, ChatStream):
        return StreamingResponse(answer.chunks, media_type=answer.media_type, headers=answer.headers)
    return to_response(answer)


routes = [
    Route("/webhook/{webhook_id}/chat", production_chat, methods=METHODS),
    Route("/webhook-test/{webhook_id}/chat", test_chat, methods=METHODS),
]

__all__ = ["chat_response", "routes"]
