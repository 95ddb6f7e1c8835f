"""``/webhook/<path>`` (active workflows) and ``/webhook-test/<path>`` (one listening test run).

Plain Starlette endpoints, outside FastAPI's dependency machinery: this is the hot path. Unknown paths
answer 404 with n8n's message and hint; a path registered for other methods answers 405.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from weft.server.http import read_request, webhook_response
from weft.services.activation import WebhookTarget, webhook_url
from weft.services.errors import WebhookNotFoundError
from weft.services.instance import Instance
from weft.services.listening import TEST_HINT
from weft.services.webhook_calls import call_webhook

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]

PRODUCTION_HINT = (
    "The workflow must be active for a production URL to run successfully. You can activate the workflow using "
    "the toggle in the top-right of the editor. Note that unlike test URL calls, production URL calls aren't "
    "shown on the canvas (only in the executions list)"
)


async def production_webhook(request: Request) -> Response:
    instance: Instance = request.app.state.instance
    path: str = request.path_params["path"]
    method = request.method
    target = instance.active.table.match(method, path)
    if target is None and await instance.active.refresh():  # activated by another process meanwhile?
        target = instance.active.table.match(method, path)
    if target is None:
        raise _not_found(method, path, instance.active.table.methods(path), PRODUCTION_HINT)
    return await _call(instance, request, target, path, test=False)


async def test_webhook(request: Request) -> Response:
    instance: Instance = request.app.state.instance
    path: str = request.path_params["path"]
    target = await instance.test_webhooks.take(request.method, path)
    if target is None:
        allowed = await instance.test_webhooks.methods(path, "webhook")
        raise _not_found(request.method, path, allowed, TEST_HINT, test=True)
    return await _call(instance, request, target, path, test=True)


async def _call(instance: Instance, request: Request, target: WebhookTarget, path: str, *, test: bool) -> Response:
    incoming = await read_request(request, path, webhook_url(instance.settings.base_url, path, test=test))
    return webhook_response(await call_webhook(instance.runner, target, incoming, test=test), instance.settings)


def _not_found(method: str, path: str, allowed: list[str], hint: str, *, test: bool = False) -> WebhookNotFoundError:
    if allowed:
        return WebhookNotFoundError(
            f'The requested webhook "{method} {path}" is not registered.',
            hint=f"This webhook is not registered for {method} requests. Did you mean to make a {allowed[0]} request?",
            allowed=allowed,
        )
    name = path if test else f"{method} {path}"
    return WebhookNotFoundError(f'The requested webhook "{name}" is not registered.', hint=hint)


routes = [
    Route("/webhook/{path:path}", production_webhook, methods=METHODS),
    Route("/webhook-test/{path:path}", test_webhook, methods=METHODS),
]

__all__ = ["PRODUCTION_HINT", "TEST_HINT", "routes"]
