"""The n8n Form URLs: ``/form/<path>``, ``/form-test/<path>``, ``/form-waiting/<executionId>`` (and version 1
forms at ``/webhook(-test)/<path>/n8n-form``).

Thin Starlette endpoints over :mod:`weft.services.forms` and :mod:`weft.services.forms_waiting`: ``GET`` renders the
page the service describes (:func:`weft.server.forms.render_view`), ``POST`` answers the service's JSON. A version 1
path that is not a form is handed to the generic webhook routes, so a Webhook node's ``<x>/n8n-form`` keeps working.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from weft.server.http import read_request, to_response
from weft.server.routes import webhooks
from weft.services.forms import (
    FormAnswer,
    FormTarget,
    FormView,
    find_active_form,
    find_saved_form,
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

METHODS = ["GET", "POST"]


def _instance(request: Request) -> Instance:
    instance: Instance = request.app.state.instance
    return instance


def _base(instance: Instance) -> str:
    return instance.settings.public_url.rstrip("/")


def _answer(answer: FormAnswer, *, waiting: bool = False) -> Response:
    if isinstance(answer, FormView):
        return render_view(answer, waiting=waiting)
    return to_response(answer)


async def _serve(request: Request, target: FormTarget | None, *, test: bool) -> Response:
    instance = _instance(request)
    if target is None:
        return render_view(FormView(data=dict(NOT_LISTENING if test else NOT_FOUND), status=404))
    url = f"{_base(instance)}{request.url.path}"
    incoming = await read_request(request, target.options.path, url)
    if request.method == "GET":
        return _answer(await show_form(instance.runner, target, incoming, test=test))
    waiting_base = f"{_base(instance)}/form-waiting"
    return to_response(await submit_form(instance.runner, target, incoming, test=test, waiting_base=waiting_base))


async def production_form(request: Request) -> Response:
    target = await find_active_form(_instance(request).active, request.path_params["path"])
    return await _serve(request, target, test=False)


async def test_form(request: Request) -> Response:
    target = await find_saved_form(_instance(request).runner, request.path_params["path"])
    return await _serve(request, target, test=True)


async def production_form_v1(request: Request) -> Response:
    path = request.path_params["path"]
    target = await find_active_form(_instance(request).active, path, version1=True)
    if target is None:
        request.scope["path_params"] = {"path": f"{path}/n8n-form"}
        return await webhooks.production_webhook(request)
    return await _serve(request, target, test=False)


async def test_form_v1(request: Request) -> Response:
    path = request.path_params["path"]
    target = await find_saved_form(_instance(request).runner, path, version1=True)
    if target is None:
        request.scope["path_params"] = {"path": f"{path}/n8n-form"}
        return await webhooks.test_webhook(request)
    return await _serve(request, target, test=True)


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
        return _answer(await show_waiting_form(instance.runner, execution_id, signature), waiting=True)
    incoming = await read_request(request, execution_id, f"{_base(instance)}{request.url.path}")
    waiting_base = f"{_base(instance)}/form-waiting"
    answer = await submit_waiting_form(instance.runner, execution_id, incoming, signature, waiting_base=waiting_base)
    return _answer(answer)


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
