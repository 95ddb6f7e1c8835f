"""The n8n Form URLs: ``/form/<path>``, ``/form-test/<path>``, ``/form-waiting/<executionId>`` (and version 1
forms at ``/webhook(-test)/<path>/n8n-form``).

Thin Starlette endpoints over :mod:`weft.services.forms` and :mod:`weft.services.forms_waiting`: ``GET`` renders the
page the service describes (:func:`weft.server.forms.render_view`), ``POST`` answers the service's JSON. A version 1
path that is not a form is handed to the generic webhook routes, so a Webhook node's ``<x>/n8n-form`` keeps working.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from weft.server.http import read_request, webhook_response
from weft.server.routes import webhooks
from weft.services.errors import WebhookNotFoundError
from weft.services.forms import (
    FormAnswer,
    FormTarget,
    FormView,
    find_active_form,
    form_target,
    show_form,
    submit_form,
)
from weft.services.forms_waiting import (
    INVALID_LINK,
    NOT_FOUND,
    NOT_LISTENING,
    STATUS_SUFFIX,
    execution_status,
    show_waiting_form,
    submit_waiting_form,
)
from weft.services.instance import Instance
from weft.services.listening import Listener
from weft.services.listening_urls import FORM_V1_SUFFIX
from weft.settings import Settings

METHODS = ["GET", "POST"]


def _instance(request: Request) -> Instance:
    instance: Instance = request.app.state.instance
    return instance


def _base(instance: Instance) -> str:
    return instance.settings.base_url.rstrip("/")


def _answer(answer: FormAnswer, settings: Settings, *, waiting: bool = False) -> Response:
    if isinstance(answer, FormView):
        return render_view(answer, waiting=waiting)
    return webhook_response(answer, settings)


async def _serve(
    request: Request, target: FormTarget | None, *, test: bool, claim: Callable[[], Awaitable[None]] | None = None
) -> Response:
    instance = _instance(request)
    if target is None:
        return _missing(test=test)
    url = f"{_base(instance)}{request.url.path}"
    incoming = await read_request(request, target.options.path, url)
    if request.method == "GET":
        return _answer(await show_form(instance.runner, target, incoming, test=test), instance.settings)
    waiting_base = f"{_base(instance)}/form-waiting"
    try:
        answer = await submit_form(instance.runner, target, incoming, test=test, waiting_base=waiting_base, claim=claim)
    except WebhookNotFoundError:  # another submission took the test URL first
        return _missing(test=test)
    return webhook_response(answer, instance.settings)


def _missing(*, test: bool) -> Response:
    """n8n's ``form-trigger-404`` page."""
    return render_view(FormView(data=dict(NOT_LISTENING if test else NOT_FOUND), status=404))


async def _listening(request: Request, path: str) -> Listener | None:
    return await _instance(request).test_webhooks.find("form", request.method, path)


async def _serve_test(request: Request, listener: Listener | None) -> Response:
    """A test URL: the form the editor listens with (its submission claims the listener), else n8n's 404 page."""
    if listener is None:
        return _missing(test=True)
    claim = functools.partial(_instance(request).test_webhooks.claim, listener)
    return await _serve(request, form_target(listener.prepared, listener.node), test=True, claim=claim)


async def production_form(request: Request) -> Response:
    target = await find_active_form(_instance(request).active, request.path_params["path"])
    return await _serve(request, target, test=False)


async def test_form(request: Request) -> Response:
    return await _serve_test(request, await _listening(request, request.path_params["path"]))


async def production_form_v1(request: Request) -> Response:
    path = request.path_params["path"]
    target = await find_active_form(_instance(request).active, path, version1=True)
    if target is None:
        request.scope["path_params"] = {"path": f"{path}/n8n-form"}
        return await webhooks.production_webhook(request)
    return await _serve(request, target, test=False)


async def test_form_v1(request: Request) -> Response:
    path = f"{request.path_params['path']}{FORM_V1_SUFFIX}"
    listener = await _listening(request, path)
    if listener is not None:
        return await _serve_test(request, listener)
    request.scope["path_params"] = {"path": path}
    try:
        return await webhooks.test_webhook(request)  # a Webhook node's "<x>/n8n-form"
    except WebhookNotFoundError:  # n8n answers a URL with "n8n-form" with its form-trigger-404 page
        return _missing(test=True)


async def waiting_form(request: Request) -> Response:
    instance = _instance(request)
    execution_id: str = request.path_params["execution_id"]
    suffix = request.path_params.get("suffix")
    signature = request.query_params.get("signature")
    if suffix == STATUS_SUFFIX:
        status = await execution_status(instance.runner, execution_id, signature)
        if status is None:
            return render_view(FormView(data=dict(INVALID_LINK), status=401))
        return Response(status, media_type="text/html; charset=utf-8")
    if suffix:
        return render_view(FormView(data=dict(NOT_FOUND), status=404))
    if request.method == "GET":
        answer = await show_waiting_form(instance.runner, execution_id, signature)
        return _answer(answer, instance.settings, waiting=True)
    incoming = await read_request(request, execution_id, f"{_base(instance)}{request.url.path}")
    waiting_base = f"{_base(instance)}/form-waiting"
    answer = await submit_waiting_form(instance.runner, execution_id, incoming, signature, waiting_base=waiting_base)
    return _answer(answer, instance.settings)


routes = [
    Route("/webhook/{path:path}/n8n-form", production_form_v1, methods=METHODS),
    Route("/webhook-test/{path:path}/n8n-form", test_form_v1, methods=METHODS),
    Route("/form/{path:path}", production_form, methods=METHODS),
    Route("/form-test/{path:path}", test_form, methods=METHODS),
    Route("/form-waiting/{execution_id}", waiting_form, methods=METHODS),
    Route("/form-waiting/{execution_id}/{suffix:path}", waiting_form, methods=METHODS),
]

__all__ = ["routes"]


def render_view(*args: Any, **kwargs: Any) -> Response:
    """:func:`weft.server.forms.render_view`, imported (with Jinja2) when the first form page is rendered."""
    from weft.server.forms import render_view as render

    page: Response = render(*args, **kwargs)
    return page
