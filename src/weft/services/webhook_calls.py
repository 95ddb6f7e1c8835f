"""Answering webhook calls: production (``/webhook``), test (``/webhook-test``) and waiting (``/webhook-waiting``).

The execution runs in the background; the answer depends on the node's ``responseMode``:

* ``onReceived``: at once, ``{"message": "Workflow was started"}`` (or the configured text / no body);
* ``responseNode``: what the first Respond to Webhook node sends (the execution goes on and is saved after);
* ``lastNode``: when the execution ends, from the last node's first item (or all items, binary, no data).

A failing execution answers 500 ``{"message": "Error in workflow"}``, as n8n does.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping
from typing import Any

from weft.binary import BinaryDataService
from weft.db.executions import StoredExecution, empty_run_data
from weft.errors import WeftError
from weft.nodes.webhooks import WebhookOptions, WebhookResponse, webhook_options
from weft.services.activation import WebhookTarget
from weft.services.errors import ExecutionConflictError, ExecutionNotFoundError, InvalidSignatureError
from weft.services.runner import RunResult, WorkflowRunner
from weft.services.subworkflows import waits_for_sub_execution
from weft.services.trigger_webhooks import call_trigger_webhook
from weft.services.waiting import claim_waiting
from weft.services.webhook_auth import (
    WAIT_AUTH_PARAMETER,
    WebhookAuthorizationError,
    check_webhook_auth,
    ip_allowed,
    needs_auth,
    refused_ip,
)
from weft.services.webhook_requests import IncomingRequest, request_item
from weft.workflow import NodeModel, Run

WAIT_TYPE = "n8n-nodes-base.wait"
STARTED = {"message": "Workflow was started"}
ERROR = {"message": "Error in workflow"}
_LAST_NODE_DATA = {"firstEntryJson", "allEntries", "firstEntryBinary", "noData"}


async def call_webhook(
    runner: WorkflowRunner, target: WebhookTarget, request: IncomingRequest, *, test: bool = False
) -> WebhookResponse:
    """Start the target's workflow at its Webhook node with the request as input, and answer.

    The node's ``authentication`` is checked first: a refused request answers as n8n does and runs nothing.
    A trigger node's webhook (Telegram Trigger, …) is answered by the node (:mod:`weft.services.trigger_webhooks`).
    """
    if target.trigger:
        return await call_trigger_webhook(runner, target.prepared, target.node, request)
    node = target.prepared.workflow.nodes[target.node]
    if not ip_allowed(node, request.client, request.proxies):
        return refused_ip()
    jwt_payload = None
    if needs_auth(node):
        try:
            jwt_payload = await runner.db(check_webhook_auth, runner.store.credentials, node, request.headers)
        except WebhookAuthorizationError as refusal:
            return refusal.response()
    request = dataclasses.replace(request, params=target.params)
    item = await request_item(
        request, target.options, "test" if test else "production", depth_max=runner.settings.json_depth_max
    )
    if jwt_payload is not None:
        item["json"]["jwtPayload"] = jwt_payload
    responded = asyncio.get_running_loop().create_future()
    task = runner.spawn(
        runner.run(
            target.prepared,
            mode="manual" if test else "webhook",
            start_node=target.node,
            trigger_items=[item],
            respond=_resolver(responded) if target.options.response_mode == "responseNode" else None,
        )
    )
    return await answer(target.options, task, responded, runner.options.binary_data)


async def call_waiting_webhook(
    runner: WorkflowRunner, execution_id: str, request: IncomingRequest, signature: str | None
) -> WebhookResponse:
    """Resume a waiting execution with the request (404 / 401 / 409 as n8n), and answer like a webhook."""
    found: dict[str, tuple[NodeModel, WebhookOptions]] = {}

    def check(stored: StoredExecution) -> None:
        found["node"] = _waiting_options(runner, stored, request)

    async def authorize(_: StoredExecution) -> None:
        node = found["node"][0]
        if node.type == WAIT_TYPE and needs_auth(node, WAIT_AUTH_PARAMETER):
            await runner.db(check_webhook_auth, runner.store.credentials, node, request.headers, WAIT_AUTH_PARAMETER)

    try:
        stored = await claim_waiting(runner, execution_id, signature=signature, before_claim=check, authorize=authorize)
    except WebhookAuthorizationError as refusal:
        return refusal.response()
    options = found["node"][1]
    item = await request_item(request, options, "production", depth_max=runner.settings.json_depth_max)
    for key in ("webhookUrl", "executionMode"):
        item["json"].pop(key, None)
    responded = asyncio.get_running_loop().create_future()
    task = runner.spawn(
        runner.resume_claimed(
            stored,
            resume_items=[item],
            resume_request=dict(item["json"]),
            respond=_resolver(responded) if options.response_mode == "responseNode" else None,
        )
    )
    return await answer(options, task, responded, runner.options.binary_data)


def _waiting_options(
    runner: WorkflowRunner, stored: StoredExecution, request: IncomingRequest
) -> tuple[NodeModel, WebhookOptions]:
    method = request.method
    data = stored.data or empty_run_data()
    stack = data["executionData"]["nodeExecutionStack"]
    node = NodeModel.model_validate(stack[0]["node"]) if stack else None
    if node is None:
        raise ExecutionNotFoundError(stored.id)
    if waits_for_sub_execution(data):  # only its sub-workflow resumes it (n8n: 404)
        raise _no_waiting_webhook(stored.id)
    # a send-and-wait node (human approval) answers its own links: its methods, its answer, its questions
    try:
        node_type = runner.registry.type_class(node.type)
    except WeftError:
        node_type = None
    own_options = getattr(node_type, "waiting_webhook_options", None)
    if own_options is not None:
        options: WebhookOptions = own_options(node)
        if method not in options.methods:
            raise _no_waiting_webhook(stored.id)
        refusal = node_type.check_waiting_request(  # type: ignore[union-attr]
            stack[0], request.query, runner.signer.sign(stored.id)
        )
        if refusal is not None:
            status, text = refusal
            if status == 401:
                raise InvalidSignatureError()
            raise ExecutionConflictError(text, execution_id=stored.id)
        return node, options
    options = webhook_options(node)
    if node.type == WAIT_TYPE and (node.parameters.get("resume") != "webhook" or method not in options.methods):
        raise _no_waiting_webhook(stored.id)
    return node, options


def _no_waiting_webhook(execution_id: str) -> ExecutionNotFoundError:
    error = ExecutionNotFoundError(execution_id)
    error.message = (
        f'The workflow for execution "{execution_id}" does not contain a waiting webhook with a matching path/method.'
    )
    error.args = (error.message,)
    return error


def _resolver(future: asyncio.Future[WebhookResponse]) -> Any:
    def resolve(response: WebhookResponse) -> None:
        if not future.done():
            future.set_result(response)

    return resolve


async def answer(
    options: WebhookOptions,
    task: asyncio.Task[RunResult],
    responded: asyncio.Future[WebhookResponse],
    binary_data: BinaryDataService | None = None,
) -> WebhookResponse:
    """The HTTP answer for ``options.response_mode`` (see the module docstring)."""
    if options.response_mode == "onReceived":
        return received_response(options)
    if options.response_mode == "responseNode":
        await asyncio.wait((task, responded), return_when=asyncio.FIRST_COMPLETED)
        if responded.done():
            return responded.result()
    try:
        result = await task
    except Exception:
        return WebhookResponse.json(ERROR, 500)
    if options.response_mode == "responseNode":
        if result.run["status"] == "error":
            return WebhookResponse.json(ERROR, 500)
        return WebhookResponse.json(STARTED if result.run["status"] == "waiting" else {}, 200)
    return last_node_response(result.run, options, binary_data)


def received_response(options: WebhookOptions) -> WebhookResponse:
    headers = dict(options.response_headers)
    if options.no_response_body:
        return WebhookResponse(status_code=options.response_code, headers=headers)
    if options.response_data not in _LAST_NODE_DATA:
        return WebhookResponse.text(options.response_data, options.response_code, headers)
    return WebhookResponse.json(STARTED, options.response_code, headers)


def last_node_response(
    run: Run, options: WebhookOptions, binary_data: BinaryDataService | None = None
) -> WebhookResponse:
    """``responseMode: lastNode``: the answer built from the last node's output."""
    if run["status"] == "error":
        return WebhookResponse.json(ERROR, 500)
    if run["status"] == "waiting":
        return WebhookResponse.json(STARTED, options.response_code, options.response_headers)
    result = run["data"]["resultData"]
    last = result.get("lastNodeExecuted")
    tasks = result["runData"].get(last or "") or []
    main = ((tasks[-1].get("data") or {}).get("main") or [[]]) if tasks else [[]]
    items = list(main[0] or []) if main else []
    code, headers = options.response_code, dict(options.response_headers)
    if options.response_data == "noData" or options.no_response_body:
        return WebhookResponse(status_code=code, headers=headers)
    if options.response_data == "allEntries":
        return _typed(options, [item.get("json", {}) for item in items], code, headers)
    if not items:
        return WebhookResponse.json({"message": "No item to return got found"}, 500)
    if options.response_data == "firstEntryBinary":
        return _binary(items[0], options, code, headers, binary_data or BinaryDataService())
    body: Any = items[0].get("json", {})
    if options.response_property_name:
        body = body.get(options.response_property_name) if isinstance(body, Mapping) else None
    return _typed(options, body, code, headers)


def _typed(options: WebhookOptions, body: Any, code: int, headers: dict[str, str]) -> WebhookResponse:
    if options.response_content_type and isinstance(body, str):
        return WebhookResponse.text(body, code, headers, content_type=options.response_content_type)
    response = WebhookResponse.json(body, code, headers)
    if options.response_content_type:
        response.headers["content-type"] = options.response_content_type
    return response


def _binary(
    item: Mapping[str, Any], options: WebhookOptions, code: int, headers: dict[str, str], store: BinaryDataService
) -> WebhookResponse:
    binary = item.get("binary") or {}
    data = binary.get(options.response_property_name or "data") or next(iter(binary.values()), None)
    if not isinstance(data, Mapping):
        return WebhookResponse.json({"message": "No binary data to return got found."}, 500)
    headers = {"content-type": str(data.get("mimeType") or "application/octet-stream"), **headers}
    if isinstance(data.get("bytes"), int):
        headers.setdefault("content-length", str(data["bytes"]))
    return WebhookResponse(status_code=code, headers=headers, stream=store.stream(data))


__all__ = [
    "ERROR",
    "STARTED",
    "answer",
    "call_waiting_webhook",
    "call_webhook",
    "last_node_response",
    "received_response",
]
