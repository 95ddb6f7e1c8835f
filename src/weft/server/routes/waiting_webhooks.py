"""``/webhook-waiting/<executionId>``: resume a waiting execution once, through its signed URL."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from weft.server.http import read_request, webhook_response
from weft.services.instance import Instance
from weft.services.send_and_wait import call_send_and_wait
from weft.services.webhook_calls import call_waiting_webhook

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]


async def waiting_webhook(request: Request) -> Response:
    instance: Instance = request.app.state.instance
    execution_id: str = request.path_params["execution_id"]
    url = f"{instance.settings.base_url.rstrip('/')}/webhook-waiting/{execution_id}"
    incoming = await read_request(request, execution_id, url)
    signature = request.query_params.get("signature")
    suffix = request.path_params.get("suffix")
    if suffix:  # a send-and-wait link names its node: /webhook-waiting/<id>/<nodeId>
        answered = await call_send_and_wait(instance.runner, execution_id, suffix, incoming, signature)
        if answered is not None:
            return webhook_response(answered, instance.settings)
    incoming.query.pop("signature", None)
    answer = await call_waiting_webhook(instance.runner, execution_id, incoming, signature)
    return webhook_response(answer, instance.settings)


routes = [
    Route("/webhook-waiting/{execution_id}", waiting_webhook, methods=METHODS),
    Route("/webhook-waiting/{execution_id}/{suffix:path}", waiting_webhook, methods=METHODS),
]

__all__ = ["routes"]
