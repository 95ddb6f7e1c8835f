"""Webhooks registered with a service (Telegram's ``setWebhook``, …): n8n's ``webhookMethods.default`` on
activation and deactivation, and the calls of ``/webhook/<webhookId>/webhook`` answered by the node's ``webhook``.

On activation each enabled trigger node whose type has webhook methods is asked ``check_exists``, and ``create``
when the service does not know its URL yet; a failure removes what was registered and refuses the activation,
as n8n does. On deactivation ``delete`` runs (its failure is logged: the workflow is deactivated anyway). The
nodes' static data (what ``create`` remembered, such as the service's webhook id) is stored after each step.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from weft.db.webhooks import WebhookSpec
from weft.errors import WeftError
from weft.nodes.registry import NodeRegistry
from weft.nodes.triggers import WebhookRequest, WebhookResult, is_webhook_trigger, trigger_webhook_path
from weft.nodes.webhooks import WebhookResponse
from weft.services.errors import ActivationError
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import WorkflowRunner
from weft.services.trigger_context import save_static_data, trigger_context
from weft.services.webhook_requests import IncomingRequest

log = logging.getLogger("weft.trigger_webhooks")

STARTED = {"message": "Workflow was started"}
RECEIVED = {"message": "Webhook call received"}


def trigger_webhook_nodes(registry: NodeRegistry, prepared: PreparedWorkflow) -> list[str]:
    """The enabled nodes of the workflow whose type registers its webhook with a service."""
    return [
        node.name
        for node in prepared.workflow.nodes.values()
        if not node.disabled and is_webhook_trigger(registry.type_class(node.type))
    ]


def trigger_webhook_specs(registry: NodeRegistry, prepared: PreparedWorkflow) -> list[WebhookSpec]:
    """Their webhooks (``POST <webhookId>/webhook``), registered like a Webhook node's: a path is taken once."""
    specs = []
    for name in trigger_webhook_nodes(registry, prepared):
        node = prepared.workflow.nodes[name]
        path = trigger_webhook_path(node)
        specs.append(WebhookSpec(method="POST", path=path, node=name, webhook_id=node.webhookId))
    return specs


async def register_webhooks(runner: WorkflowRunner, prepared: PreparedWorkflow, activation: str = "activate") -> None:
    """``check_exists`` → ``create`` for each trigger node; on failure delete them all and refuse the activation."""
    for name in trigger_webhook_nodes(runner.registry, prepared):
        ctx = await trigger_context(runner, prepared, name, mode="trigger", activation=activation)
        hooks = ctx.node_type
        try:
            if not await hooks.check_exists(ctx):  # type: ignore[attr-defined]
                await hooks.create(ctx)  # type: ignore[attr-defined]
        except Exception as error:
            await save_static_data(runner, ctx)
            await deregister_webhooks(runner, prepared)
            message = error_text(error)
            raise ActivationError(
                f'There was a problem activating the workflow: "{message}" (node {name!r}). Check the node\'s '
                "credential and that the service can reach this instance's WEFT_BASE_URL, then activate again."
            ) from error
        await save_static_data(runner, ctx)


async def ensure_registered(runner: WorkflowRunner, workflows: Mapping[str, PreparedWorkflow]) -> list[str]:
    """On start-up (n8n's activation ``init``): register again the trigger webhooks a service lost while the
    instance was down; the ids of the workflows whose registration failed (logged, left active)."""
    failed = []
    for workflow_id, prepared in workflows.items():
        if not trigger_webhook_nodes(runner.registry, prepared):
            continue
        try:
            await register_webhooks(runner, prepared, activation="init")
        except Exception as error:
            log.error("Registering the trigger webhooks of workflow %r failed: %s", workflow_id, error)
            failed.append(workflow_id)
    return failed


async def deregister_webhooks(runner: WorkflowRunner, prepared: PreparedWorkflow) -> list[str]:
    """``delete`` for each trigger node; the names of the nodes whose deletion failed (logged)."""
    failed = []
    for name in trigger_webhook_nodes(runner.registry, prepared):
        try:
            ctx = await trigger_context(runner, prepared, name, mode="trigger", activation="update")
            await ctx.node_type.delete(ctx)  # type: ignore[attr-defined]
            await save_static_data(runner, ctx)
        except Exception as error:
            log.error("Deleting the webhook of workflow %r node %r failed: %s", prepared.id, name, error)
            failed.append(name)
    return failed


async def call_trigger_webhook(
    runner: WorkflowRunner, prepared: PreparedWorkflow, node: str, request: IncomingRequest
) -> WebhookResponse:
    """Answer a call of a trigger node's webhook: the node's answer, and an execution (mode ``webhook``) with
    the items it returned."""
    ctx = await trigger_context(runner, prepared, node, mode="webhook", activation="webhook")
    call = WebhookRequest(method=request.method, headers=request.headers, query=request.query, raw_body=request.body)
    try:
        result: WebhookResult = await ctx.node_type.webhook(ctx, call)  # type: ignore[attr-defined]
    except Exception as error:
        log.error("Webhook of workflow %r node %r failed: %s", prepared.id, node, error)
        message = error.message if isinstance(error, WeftError) else str(error)
        return WebhookResponse.json({"code": 500, "message": message}, 500)
    await save_static_data(runner, ctx)
    items = list(result.workflow_data[0]) if result.workflow_data else []
    if result.workflow_data is None:
        return result.response or WebhookResponse.json(RECEIVED)
    started: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def note(execution_id: str) -> None:
        if not started.done():
            started.set_result(execution_id)

    task = runner.spawn(runner.run(prepared, mode="webhook", start_node=node, trigger_items=items, started=note))
    await asyncio.wait((task, started), return_when=asyncio.FIRST_COMPLETED)  # stored before the service hears back
    return result.response or WebhookResponse.json(STARTED)


def error_text(error: BaseException) -> str:
    """The error's message, and its description when it has one (a service's own words: n8n's NodeApiError)."""
    if not isinstance(error, WeftError):
        return str(error)
    description = getattr(error, "description", None)
    return f"{error.message} ({description})" if description else error.message


def json_response(value: Mapping[str, object] | str, status: int = 200) -> WebhookResponse:
    if isinstance(value, str):
        return WebhookResponse.text(value, status)
    return WebhookResponse.json(value, status)


__all__ = [
    "call_trigger_webhook",
    "deregister_webhooks",
    "ensure_registered",
    "error_text",
    "json_response",
    "register_webhooks",
    "trigger_webhook_nodes",
    "trigger_webhook_specs",
]
