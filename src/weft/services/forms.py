"""Form Triggers' URLs: showing the form (``GET``) and taking a submission (``POST``), as n8n's ``formWebhook``.

``/form/<path>`` serves the Form Triggers of active workflows, ``/form-test/<path>`` those the editor listens with
(:mod:`weft.services.listening`: showing the page leaves the listener in place, a submission claims it, as n8n);
version 1 forms live at ``/webhook(-test)/<path>/n8n-form``. Checks, in n8n's order: the IP allow-list (403),
``ignoreBots`` (401), basic auth (401 with ``WWW-Authenticate: Basic realm="Enter credentials"``, secrets compared
in constant time; the page posts back an ``X-Auth-Token`` derived from the credential instead of the password).

A submission starts the workflow at the trigger with the raw submission as its input
(:class:`~weft.nodes.forms.fields.Submission`; the node stores the files through the binary-data service).
The answer follows ``responseMode``; a form with a next page answers ``{formWaitingUrl}`` once the execution waits
at that page (:mod:`weft.services.forms_waiting` serves it).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.db.webhooks import normalize_path
from weft.errors import ConfigurationError, WeftError
from weft.expressions import ExpressionContext, evaluate, is_expression
from weft.nodes.forms.fields import SUBMISSION_KEY, Submission, UploadedFormFile, parameter_fields
from weft.nodes.forms.options import FORM_TYPE, FormTriggerOptions, form_trigger_options, is_form_trigger
from weft.nodes.forms.page import form_page
from weft.nodes.webhooks import WebhookOptions, WebhookResponse
from weft.services.activation import ActiveWorkflows
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import RunResult, WorkflowRunner
from weft.services.webhook_auth import (
    WebhookAuthorizationError,
    basic_auth_token,
    check_basic,
    ip_allowed,
)
from weft.services.webhook_calls import ERROR, answer
from weft.services.webhook_requests import IncomingRequest
from weft.workflow import Item, NodeModel, Workflow

RESPOND_TYPE = "n8n-nodes-base.respondToWebhook"
WAIT_TYPE = "n8n-nodes-base.wait"
FORM_REALM = {"www-authenticate": 'Basic realm="Enter credentials"'}
IP_REFUSED = "IP is not allowed to access this form!"
#: What ``isbot`` recognises, in short: crawlers, link previewers and HTTP libraries.
_BOT = re.compile(
    r"bot|crawl|spider|slurp|preview|facebookexternalhit|embedly|whatsapp|telegram|discord|slack|curl|wget|"
    r"python-requests|headless",
    re.IGNORECASE,
)


@dataclass(frozen=True, kw_only=True)
class FormView:
    """A page to render: a :func:`~weft.nodes.forms.page.form_page` or ``completion_page`` dict."""

    data: dict[str, Any]
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    downloads: list[dict[str, Any]] = field(default_factory=list)
    """Files the page hands to the browser (a Form ending's ``returnBinary``): ``fileName``, ``mimeType``, ``data``."""


FormAnswer = WebhookResponse | FormView


@dataclass(frozen=True, kw_only=True)
class FormTarget:
    """A Form Trigger that serves a path: its workflow, its name and its options."""

    prepared: PreparedWorkflow
    node: str
    options: FormTriggerOptions


def form_targets(prepared: PreparedWorkflow) -> list[FormTarget]:
    """The enabled Form Triggers of a workflow."""
    return [
        FormTarget(prepared=prepared, node=node.name, options=form_trigger_options(node))
        for node in prepared.workflow.nodes.values()
        if is_form_trigger(node)
    ]


def _match(targets: list[FormTarget], path: str, *, version1: bool) -> FormTarget | None:
    path = normalize_path(path)
    for target in targets:
        if (target.options.version < 2) == version1 and normalize_path(target.options.path) == path:
            return target
    return None


async def find_active_form(active: ActiveWorkflows, path: str, *, version1: bool = False) -> FormTarget | None:
    """The Form Trigger of an active workflow serving ``path``; reloads the active workflows once on a miss."""
    for attempt in range(2):
        for prepared in active.workflows.values():
            hit = _match(form_targets(prepared), path, version1=version1)
            if hit is not None:
                return hit
        if attempt == 0 and not await active.refresh():
            return None
    return None


def form_target(prepared: PreparedWorkflow, node: str) -> FormTarget | None:
    """The workflow's Form Trigger named ``node`` (a test URL's listener names it)."""
    return next((target for target in form_targets(prepared) if target.node == node), None)


# --------------------------------------------------------------------------- checks


async def _refusal(runner: WorkflowRunner, target: FormTarget, request: IncomingRequest) -> WebhookResponse | None:
    """n8n's checks before a form is shown or taken: IP allow-list, bots, basic auth."""
    node = target.prepared.workflow.nodes[target.node]
    if not ip_allowed(node, request.client, request.proxies):
        return WebhookResponse(status_code=403, body=IP_REFUSED.encode())
    if target.options.ignore_bots and _BOT.search(request.headers.get("user-agent", "")):
        return WebhookResponse(status_code=401, headers=dict(FORM_REALM))
    if target.options.version <= 1 or target.options.authentication == "none":
        return None
    if target.options.authentication != "basicAuth":
        message = f"Form authentication {target.options.authentication!r} is not supported by Weft"
        return WebhookResponse.json({"message": message, "hint": "Use 'Basic Auth' or 'None'."}, 500)
    try:
        check_basic(await _basic_credential(runner, target), request.headers, node)
    except WebhookAuthorizationError:
        return WebhookResponse(status_code=401, headers=dict(FORM_REALM))
    return None


async def _basic_credential(runner: WorkflowRunner, target: FormTarget) -> dict[str, Any] | None:
    """The data of the trigger's ``httpBasicAuth`` credential (``None``: none attached or it cannot be read)."""
    node = target.prepared.workflow.nodes[target.node]
    reference = (node.credentials or {}).get("httpBasicAuth")

    def resolve() -> dict[str, Any] | None:
        try:
            found = runner.store.credentials.resolve_credentials(
                node.name, "httpBasicAuth", reference if isinstance(reference, Mapping) else None
            )
        except ConfigurationError:
            return None
        return found

    return await runner.db(resolve)


def _configuration_error(workflow: Workflow, target: FormTarget) -> WebhookResponse | None:
    """n8n's ``validateResponseModeConfiguration``."""
    children = [workflow.nodes[c] for c in workflow.children(target.node) if c in workflow.nodes]
    responds = any(n.type == RESPOND_TYPE for n in children)
    mode, version = target.options.response_mode, target.options.version
    if not responds and mode == "responseNode":
        message, hint = (
            "No Respond to Webhook node found in the workflow",
            (
                "Insert a Respond to Webhook node to your workflow to respond to the form submission or choose another "
                "option for the “Respond When” parameter"
            ),
        )
    elif responds and mode != "responseNode" and version <= 2.1:
        message, hint = (
            "Unused Respond to Webhook node found in the workflow",
            (
                "Set the “Respond When” parameter to “Using Respond to Webhook Node” or remove the Respond to "
                "Webhook node"
            ),
        )
    elif responds and version > 2.1:
        message = 'The "Respond to Webhook" node is not supported in workflows initiated by the "n8n Form Trigger"'
        hint = 'To configure your response, add an "n8n Form" node and set the "Page Type" to "Form Ending"'
    else:
        return None
    return WebhookResponse.json({"code": 0, "message": message, "hint": hint}, 500)


def has_next_page(workflow: Workflow, node: str) -> bool:
    """n8n's ``isFormConnected``: a Form node (or a Wait resuming on a form) follows."""
    for child in workflow.children(node):
        found = workflow.nodes.get(child)
        if found is None or found.disabled:
            continue
        if found.type == FORM_TYPE or (found.type == WAIT_TYPE and found.parameters.get("resume") == "form"):
            return True
    return False


# --------------------------------------------------------------------------- GET and POST


async def show_form(runner: WorkflowRunner, target: FormTarget, request: IncomingRequest, *, test: bool) -> FormAnswer:
    """The form page (n8n's ``renderForm``), or the refusal."""
    refusal = await _refusal(runner, target, request)
    if refusal is not None:
        return refusal
    workflow = target.prepared.workflow
    configuration = _configuration_error(workflow, target)
    if configuration is not None:
        return configuration
    try:
        node = await _evaluated_node(target, test=test)
    except WeftError as error:
        return WebhookResponse.json({"code": 0, "message": str(error)}, 500)
    options = form_trigger_options(node)
    next_page = has_next_page(workflow, target.node)
    token = None
    if options.version > 1 and options.authentication == "basicAuth":
        credential = await _basic_credential(runner, target) or {}
        token = basic_auth_token(node, str(credential.get("user", "")), str(credential.get("password", "")))
    data = form_page(
        title=options.title,
        description=options.description,
        fields=parameter_fields(node.parameters.get("formFields"), node.name),
        version=options.version,
        query=request.query,
        test_run=test,
        use_response_data=next_page or options.response_mode == "responseNode",
        append_attribution=options.append_attribution,
        button_label=options.button_label,
        custom_css=options.custom_css,
        submitted_text=options.submitted_text,
        redirect_url=None if next_page else options.redirect_url,
        auth_token=token,
    )
    return FormView(data=data)


async def _evaluated_node(target: FormTarget, *, test: bool) -> NodeModel:
    """The trigger with the expressions of its parameters resolved (n8n's ``getNodeParameter`` in the webhook:
    no input item, so ``$now``, ``$workflow``, ``$execution.mode`` and the like); off the event loop."""
    node = target.prepared.workflow.nodes[target.node]
    parameters = _html_as_expressions(node.parameters)
    if not _has_expression(parameters):
        return node
    mode = "manual" if test else "webhook"
    context = ExpressionContext(workflow=target.prepared.workflow, node_name=node.name, mode=mode)
    parameters = await asyncio.to_thread(evaluate, parameters, context, 0)
    return node.model_copy(update={"parameters": parameters})


def _html_as_expressions(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """n8n resolves the ``{{ }}`` of an ``html`` field even when the field is not an expression."""
    result = dict(parameters)
    fields = result.get("formFields")
    values = fields.get("values") if isinstance(fields, Mapping) else None
    if isinstance(fields, Mapping) and isinstance(values, list):
        result["formFields"] = {**fields, "values": [_html_expression(entry) for entry in values]}
    return result


def _html_expression(entry: Any) -> Any:
    html = entry.get("html") if isinstance(entry, Mapping) else None
    if entry.get("fieldType") == "html" and isinstance(html, str) and "{{" in html and not is_expression(html):
        return {**entry, "html": "=" + html}
    return entry


def _has_expression(value: Any) -> bool:
    if isinstance(value, str):
        return is_expression(value)
    if isinstance(value, Mapping):
        return any(_has_expression(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_expression(v) for v in value)
    return False


def submission_of(request: IncomingRequest, *, test: bool) -> Submission:
    """The request's fields and files (the server parsed the multipart body)."""
    files = [
        UploadedFormFile(field=f.field, filename=f.filename, mime_type=f.content_type, data=f.data)
        for f in request.files
    ]
    body = {key: value for key, value in (request.form or {}).items() if key}
    return Submission(
        body=body, files=[f for f in files if f.data or f.filename], query=dict(request.query),
        headers=dict(request.headers), mode="test" if test else "production",
    )  # fmt: skip


async def submit_form(
    runner: WorkflowRunner,
    target: FormTarget,
    request: IncomingRequest,
    *,
    test: bool,
    waiting_base: str,
    claim: Callable[[], Awaitable[None]] | None = None,
) -> WebhookResponse:
    """Start the workflow with the submission and answer as ``responseMode`` says (see the module docstring);
    ``claim`` (a test URL's) is awaited before the workflow starts."""
    refusal = await _refusal(runner, target, request) or _configuration_error(target.prepared.workflow, target)
    if refusal is not None:
        return refusal
    if request.form is None:
        message = "A form submission must be sent as multipart/form-data (the form page does so)"
        return WebhookResponse.json({"code": 400, "message": message}, 400)
    if claim is not None:
        await claim()
    item: Item = {"json": {}}
    item[SUBMISSION_KEY] = submission_of(request, test=test).to_json()  # type: ignore[literal-required]
    responded: asyncio.Future[WebhookResponse] = asyncio.get_running_loop().create_future()
    respond = _resolver(responded) if target.options.response_mode == "responseNode" else None
    task = runner.spawn(
        runner.run(
            target.prepared,
            mode="manual" if test else "webhook",
            start_node=target.node,
            trigger_items=[item],
            respond=respond,
        )
    )
    if has_next_page(target.prepared.workflow, target.node):
        return await _next_page_answer(runner, task, waiting_base)
    return await _answer(target, task, responded)


async def _answer(
    target: FormTarget, task: asyncio.Task[RunResult], responded: asyncio.Future[WebhookResponse]
) -> WebhookResponse:
    mode = target.options.response_mode
    if mode == "onReceived":  # n8n sends the webhook's response object itself
        return WebhookResponse.json({"status": 200})
    options = WebhookOptions(methods=("POST",), path=target.options.path, response_mode=mode, response_data="noData")
    answered = await answer(options, task, responded)
    if mode == "lastNode" and answered.status_code == 200 and not answered.body:
        answered.headers.setdefault("content-type", "application/json; charset=utf-8")
    return answered


async def _next_page_answer(
    runner: WorkflowRunner, task: asyncio.Task[RunResult], waiting_base: str
) -> WebhookResponse:
    """n8n's ``formPage`` response mode: where the next page waits (once the execution waits there)."""
    try:
        result = await task
    except Exception:
        return WebhookResponse.json(ERROR, 500)
    if result.run["status"] == "error":
        return WebhookResponse.json(ERROR, 500)
    return WebhookResponse.json({"formWaitingUrl": form_waiting_url(runner, waiting_base, result.execution_id)})


def form_waiting_url(runner: WorkflowRunner, waiting_base: str, execution_id: str) -> str:
    """The signed ``/form-waiting/<id>`` URL of an execution."""
    return f"{waiting_base.rstrip('/')}/{execution_id}?signature={runner.signer.sign(execution_id)}"


def _resolver(future: asyncio.Future[WebhookResponse]) -> Any:
    def resolve(response: WebhookResponse) -> None:
        if not future.done():
            future.set_result(response)

    return resolve


__all__ = [
    "FORM_REALM",
    "FormAnswer",
    "FormTarget",
    "FormView",
    "find_active_form",
    "form_target",
    "form_targets",
    "form_waiting_url",
    "has_next_page",
    "show_form",
    "submission_of",
    "submit_form",
]
