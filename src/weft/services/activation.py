"""Active workflows: activating and deactivating them, and the in-memory table of their webhooks.

The database is the truth (``workflow_entity.active`` and ``webhook_entity``); each server process keeps a
table built from it so a webhook call costs no query: ``(METHOD, path) → (prepared workflow, node)``. The
table is rebuilt when this process (de)activates a workflow, and :meth:`ActiveWorkflows.refresh` rebuilds it
when another process did (the server calls it every few seconds, and on a miss before answering 404).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from weft.ai.chat.trigger import is_chat_trigger
from weft.ai.nodes.mcp_trigger import is_mcp_trigger, trigger_urls
from weft.db.base import NotFoundError
from weft.db.webhooks import WebhookSpec, is_dynamic_path, normalize_path
from weft.db.workflows import StoredWorkflow
from weft.errors import WeftError
from weft.nodes.error_workflows import ERROR_TRIGGER_TYPE
from weft.nodes.forms.options import form_path, is_form_trigger
from weft.nodes.registry import NodeRegistry
from weft.nodes.schedules.timers import TIMER_TRIGGER_TYPES
from weft.nodes.triggers import is_polling, is_webhook_trigger, poll_cron_expressions
from weft.nodes.webhooks import WEBHOOK_TYPE, WebhookOptions, webhook_options
from weft.services.errors import ActivationError
from weft.services.polling import poll_once, polling_nodes
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import WorkflowRunner
from weft.services.trigger_webhooks import (
    deregister_webhooks,
    error_text,
    register_webhooks,
    trigger_webhook_specs,
)

log = logging.getLogger("weft.activation")


@dataclass(frozen=True, kw_only=True)
class WebhookTarget:
    """What a webhook call runs: the workflow, the Webhook node it starts at, and the path's parameters."""

    prepared: PreparedWorkflow
    node: str
    options: WebhookOptions
    params: dict[str, str] = field(default_factory=dict)
    trigger: bool = False
    """A trigger node's webhook (Telegram Trigger, …): the node answers (:mod:`weft.services.trigger_webhooks`)."""


@dataclass(frozen=True, kw_only=True)
class _Dynamic:
    method: str
    webhook_id: str
    pattern: list[str]
    target: WebhookTarget


class WebhookTable:
    """Webhooks by method and path, static paths first (the rules of ``WebhookRepository.find``)."""

    def __init__(self) -> None:
        self._static: dict[tuple[str, str], WebhookTarget] = {}
        self._dynamic: list[_Dynamic] = []

    def add(self, prepared: PreparedWorkflow, registry: NodeRegistry | None = None) -> None:
        if registry is not None:
            for spec in trigger_webhook_specs(registry, prepared):
                options = WebhookOptions(methods=(spec.method,), path=spec.path, response_mode="onReceived")
                trigger = WebhookTarget(prepared=prepared, node=spec.node, options=options, trigger=True)
                self._static[(spec.method, spec.path)] = trigger
        for node, options in webhook_nodes(prepared):
            target = WebhookTarget(prepared=prepared, node=node, options=options)
            for method in options.methods:
                if is_dynamic_path(options.path):
                    pattern = options.path.split("/")
                    webhook_id = str(prepared.workflow.nodes[node].webhookId or "")
                    self._dynamic.append(_Dynamic(method=method, webhook_id=webhook_id, pattern=pattern, target=target))
                else:
                    self._static[(method, options.path)] = target

    def match(self, method: str, path: str) -> WebhookTarget | None:
        path = normalize_path(path)
        hit = self._static.get((method, path))
        if hit is not None:
            return hit
        webhook_id, _, rest = path.partition("/")
        segments = rest.split("/") if rest else []
        best: WebhookTarget | None = None
        best_static = -1
        for entry in self._dynamic:
            if entry.method != method or entry.webhook_id != webhook_id or len(entry.pattern) != len(segments):
                continue
            params, static = _match_segments(entry.pattern, segments)
            if params is not None and static > best_static:
                best = WebhookTarget(
                    prepared=entry.target.prepared, node=entry.target.node, options=entry.target.options, params=params
                )
                best_static = static
        return best

    def methods(self, path: str) -> list[str]:
        path = normalize_path(path)
        found = {m for (m, p) in self._static if p == path}
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"):
            if self.match(method, path) is not None:
                found.add(method)
        return sorted(found)


def _match_segments(pattern: list[str], segments: list[str]) -> tuple[dict[str, str] | None, int]:
    params: dict[str, str] = {}
    static = 0
    for want, got in zip(pattern, segments, strict=True):
        if want.startswith(":"):
            params[want[1:]] = got
        elif want == got:
            static += 1
        else:
            return None, 0
    return params, static


def webhook_nodes(prepared: PreparedWorkflow) -> list[tuple[str, WebhookOptions]]:
    """The enabled Webhook nodes of a workflow with their options."""
    return [
        (node.name, webhook_options(node))
        for node in prepared.workflow.nodes.values()
        if node.type == WEBHOOK_TYPE and not node.disabled
    ]


def webhook_specs(prepared: PreparedWorkflow) -> list[WebhookSpec]:
    specs = []
    for name, options in webhook_nodes(prepared):
        webhook_id = prepared.workflow.nodes[name].webhookId
        specs += [WebhookSpec(method=m, path=options.path, node=name, webhook_id=webhook_id) for m in options.methods]
    return specs


def form_trigger_specs(prepared: PreparedWorkflow) -> list[WebhookSpec]:
    """The Form Triggers' webhooks (``GET`` shows the form, ``POST`` takes it): a path is taken once, as in n8n."""
    specs: list[WebhookSpec] = []
    for node in prepared.workflow.nodes.values():
        if is_form_trigger(node):
            path = form_path(node) + ("/n8n-form" if node.typeVersion < 2 else "")
            for method in ("GET", "POST"):
                specs.append(WebhookSpec(method=method, path=path, node=node.name, webhook_id=node.webhookId))
    return specs


def mcp_trigger_specs(prepared: PreparedWorkflow) -> list[WebhookSpec]:
    """The MCP Server Triggers' webhooks: registered like a Webhook node's, so a path is taken once (as in n8n)."""
    nodes = [n for n in prepared.workflow.nodes.values() if is_mcp_trigger(n)]
    return [
        WebhookSpec(method=method, path=path, node=n.name, webhook_id=n.webhookId)
        for n in nodes
        for method, path in trigger_urls(n)
    ]


def schedule_nodes(prepared: PreparedWorkflow) -> list[str]:
    """The enabled timer triggers (Schedule Trigger, Cron, Interval) of a workflow."""
    return [n.name for n in prepared.workflow.nodes.values() if n.type in TIMER_TRIGGER_TYPES and not n.disabled]


class ActiveWorkflows:
    """The active workflows of the instance, as this process sees them."""

    def __init__(self, runner: WorkflowRunner) -> None:
        self.runner = runner
        self.table = WebhookTable()
        self.workflows: dict[str, PreparedWorkflow] = {}
        self._versions: dict[str, str | None] = {}
        self.listeners: list[Callable[[dict[str, PreparedWorkflow]], None]] = []
        """Called with the active workflows after every change (the schedule triggers follow them)."""
        self._lock = asyncio.Lock()
        self._generation = 0

    async def refresh(self) -> bool:
        """Rebuild the table if the set of active workflows (or their versions) changed; True if the table changed
        since this call began, by this call or by another one it waited for: a caller that missed looks again.

        Refreshes run one at a time, so a slow one that read the database earlier never overwrites a newer table.
        """
        generation = self._generation
        async with self._lock:
            await self._reload()
        return self._generation != generation

    async def _reload(self) -> None:
        stored = await self.runner.db(self.runner.store.workflows.list, active=True)
        versions = {w.id: w.version_id for w in stored}
        if versions == self._versions:
            return
        workflows: dict[str, PreparedWorkflow] = {}
        table = WebhookTable()
        for item in stored:
            try:
                prepared = self.runner.cache.get(item)
            except WeftError as exc:
                log.error("Active workflow %r cannot run and is skipped: %s", item.id, exc)
                continue
            workflows[item.id] = prepared
            table.add(prepared, self.runner.registry)
        self.workflows, self.table, self._versions = workflows, table, versions
        self._generation += 1
        for listener in self.listeners:
            listener(workflows)

    async def activate(self, workflow_id: str) -> StoredWorkflow:
        """Validate the workflow, register its webhooks (refused when a path is taken) and mark it active; then
        register its trigger webhooks with their services and poll its polling triggers once, as n8n does (a
        failure there deactivates it again and refuses the activation)."""
        activated = await self.runner.db(activate_workflow, self.runner, workflow_id)
        try:
            await start_triggers(self.runner, self.runner.cache.get(activated))
        except BaseException:
            store = self.runner.store
            await self.runner.db(store.webhooks.unregister, workflow_id)
            await self.runner.db(store.workflows.deactivate, workflow_id)
            raise
        await self.refresh()
        return activated

    async def deactivate(self, workflow_id: str) -> StoredWorkflow:
        store = self.runner.store
        stored = await self.runner.db(store.workflows.get, workflow_id)
        if stored is not None and stored.active:
            with contextlib.suppress(WeftError):
                await deregister_webhooks(self.runner, self.runner.cache.get(stored))
        await self.runner.db(store.webhooks.unregister, workflow_id)
        deactivated = await self.runner.db(store.workflows.deactivate, workflow_id)
        await self.refresh()
        return deactivated


async def start_triggers(runner: WorkflowRunner, prepared: PreparedWorkflow) -> None:
    """Register the trigger webhooks with their services, then poll each polling trigger once (n8n's
    activation poll: its items start an execution, its error refuses the activation)."""
    await register_webhooks(runner, prepared)
    for node in polling_nodes(runner, prepared):
        try:
            poll_cron_expressions(prepared.workflow.nodes[node])
            await poll_once(runner, prepared, node, activation="activate", raise_errors=True)
        except Exception as error:
            await deregister_webhooks(runner, prepared)
            message = error_text(error)
            raise ActivationError(
                f'There was a problem activating the workflow: "{message}" (node {node!r}). Fix the node\'s '
                "parameters or credential, then activate again."
            ) from error


def activate_workflow(runner: WorkflowRunner, workflow_id: str) -> StoredWorkflow:
    """Synchronous activation (the CLI's, and the server's in a thread): check, register webhooks, mark active."""
    store = runner.store
    stored = store.workflows.get(workflow_id)
    if stored is None:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    prepared = runner.cache.get(stored)
    nodes = prepared.workflow.nodes.values()
    has_chat = any(is_chat_trigger(node) or is_mcp_trigger(node) or is_form_trigger(node) for node in nodes)
    has_chat = has_chat or any(node.type == ERROR_TRIGGER_TYPE for node in nodes)  # an error workflow
    has_chat = has_chat or any(_is_service_trigger(runner.registry, node.type) for node in nodes if not node.disabled)
    if not webhook_nodes(prepared) and not schedule_nodes(prepared) and not has_chat:
        raise ActivationError(
            f"Workflow {workflow_id!r} has no node to start the workflow - at least one trigger, poller or "
            "webhook node is required. Add a Webhook or Schedule Trigger node, then activate it."
        )
    specs = webhook_specs(prepared) + mcp_trigger_specs(prepared) + form_trigger_specs(prepared)
    specs += trigger_webhook_specs(runner.registry, prepared)
    store.webhooks.register(workflow_id, specs)
    return store.workflows.activate(workflow_id)


def _is_service_trigger(registry: NodeRegistry, type_name: str) -> bool:
    node_type = registry.type_class(type_name)
    return is_polling(node_type) or is_webhook_trigger(node_type)


def webhook_url(base: str, path: str, *, test: bool = False) -> str:
    return f"{base.rstrip('/')}/{'webhook-test' if test else 'webhook'}/{normalize_path(path)}"


__all__ = [
    "ActiveWorkflows",
    "WebhookTable",
    "WebhookTarget",
    "activate_workflow",
    "schedule_nodes",
    "webhook_nodes",
    "webhook_specs",
    "webhook_url",
]
