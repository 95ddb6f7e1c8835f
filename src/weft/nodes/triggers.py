"""What the host asks of SaaS trigger nodes: polling (n8n's ``poll``) and webhooks registered with a service
(n8n's ``webhookMethods.default`` and ``webhook``).

A **polling trigger** implements ``async poll(ctx) -> list[list[Item]] | None``; the server calls it on the node's
``pollTimes`` while the workflow is active (:mod:`weft.services.polling`), and a manual run of the node calls it
once (``ctx.mode == "manual"``): :func:`run_trigger_node` is the ``execute`` such nodes share. A **webhook
trigger** implements ``check_exists`` / ``create`` / ``delete`` (called on activation and deactivation, with
``ctx.get_node_webhook_url()``) and ``webhook(ctx, request)``, which answers a call of
``/webhook/<webhookId>/webhook`` with a :class:`WebhookResult`. Both keep what they must remember between calls
in :func:`workflow_static_data` (n8n's ``getWorkflowStaticData``), which the host stores in the workflow's
``staticData``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, runtime_checkable

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeContext
from weft.nodes.schedules.cron import to_cron_expression
from weft.nodes.webhooks import WebhookResponse
from weft.workflow import Item, NodeModel, NodeOutput

#: The path n8n's trigger nodes declare (``webhooks: [{name: 'default', path: 'webhook'}]``).
TRIGGER_WEBHOOK_PATH = "webhook"


@dataclass(frozen=True, kw_only=True)
class WebhookRequest:
    """A call of a trigger's webhook, as the node sees it (n8n's ``getHeaderData``, ``getBodyData``, ``rawBody``)."""

    method: str
    headers: dict[str, str]
    """Lower-case names."""
    query: dict[str, Any] = field(default_factory=dict)
    raw_body: bytes = b""

    def body(self) -> Any:
        """The JSON body (``{}`` when it is empty or not JSON)."""
        try:
            return json.loads(self.raw_body or b"{}")
        except ValueError:
            return {}


@dataclass(frozen=True, kw_only=True)
class WebhookResult:
    """What a trigger's ``webhook`` answers: the items that start an execution (none: nothing runs), and the HTTP
    answer (none: n8n's ``Workflow was started`` / ``Webhook call received``)."""

    workflow_data: list[list[Item]] | None = None
    response: WebhookResponse | None = None


class TriggerContext(ExecuteContext, Protocol):
    """The context of ``poll``, the webhook methods and ``webhook`` (n8n's ``IPollFunctions`` /
    ``IHookFunctions`` / ``IWebhookFunctions``)."""

    activation: str
    """``init`` (server start), ``activate``, ``update``, ``manual``."""

    def get_node_webhook_url(self, name: str = "default") -> str: ...


@runtime_checkable
class PollingTrigger(Protocol):
    async def poll(self, ctx: ExecuteContext) -> list[list[Item]] | None: ...


@runtime_checkable
class WebhookTrigger(Protocol):
    async def check_exists(self, ctx: TriggerContext) -> bool: ...

    async def create(self, ctx: TriggerContext) -> bool: ...

    async def delete(self, ctx: TriggerContext) -> bool: ...

    async def webhook(self, ctx: TriggerContext, request: WebhookRequest) -> WebhookResult: ...


def now() -> datetime:
    """The time polls compare with (a function, so that tests can set the clock a poll sees)."""
    return datetime.now(UTC)


def is_polling(node_type: object) -> bool:
    return callable(getattr(node_type, "poll", None))


def is_webhook_trigger(node_type: object) -> bool:
    return callable(getattr(node_type, "webhook", None)) and callable(getattr(node_type, "check_exists", None))


def workflow_static_data(ctx: NodeContext, kind: Literal["node", "global"] = "node") -> dict[str, Any]:
    """n8n's ``getWorkflowStaticData(kind)``: ``staticData["node:<name>"]`` or ``staticData.global``, mutable."""
    key = "global" if kind == "global" else f"node:{ctx.node.name}"
    data = ctx.workflow.static_data.get(key)
    if not isinstance(data, dict):
        data = ctx.workflow.static_data[key] = {}
    return data


def trigger_webhook_path(node: NodeModel) -> str:
    """``<webhookId>/webhook``: the path n8n's ``getNodeWebhookUrl`` gives a trigger node."""
    if not node.webhookId:
        raise NodeOperationError(
            node.name,
            "The trigger node has no webhookId.",
            description="Give the node a 'webhookId' (any unique id, the editor sets one) and activate again.",
        )
    return f"{node.webhookId}/{TRIGGER_WEBHOOK_PATH}"


def poll_cron_expressions(node: NodeModel) -> list[str]:
    """The node's ``pollTimes`` as seconds-first cron expressions (n8n's ``toCronExpression``); n8n refuses a
    poll more often than once a minute, and polls every minute when ``pollTimes`` is empty."""
    times = node.parameters.get("pollTimes") or {}
    entries = times.get("item") if isinstance(times, Mapping) else None
    entries = [e for e in entries or [{"mode": "everyMinute"}] if isinstance(e, Mapping)]
    expressions = [to_cron_expression(entry) for entry in entries]
    for expression in expressions:
        seconds = expression.split()[0]
        if seconds == "*" or seconds.startswith("*/") or "," in seconds or "-" in seconds:
            raise NodeOperationError(
                node.name,
                "The polling interval is too short. It has to be at least a minute.",
                description="Change 'pollTimes' to poll every minute or less often.",
            )
    return expressions


async def run_trigger_node(node_type: object, ctx: ExecuteContext) -> NodeOutput:
    """``execute`` of a polling trigger: an execution the poller started passes its items through; a manual run
    polls once (n8n's ``WorkflowExecute.runNode`` for ``poll`` nodes), passing its input through when nothing is
    new."""
    seeded = ctx.get_input_data()
    if ctx.mode != "manual" or not isinstance(node_type, PollingTrigger):
        return [seeded]
    polled = await node_type.poll(ctx)
    return polled if polled is not None else [seeded]


__all__ = [
    "TRIGGER_WEBHOOK_PATH",
    "PollingTrigger",
    "TriggerContext",
    "WebhookRequest",
    "WebhookResult",
    "WebhookTrigger",
    "is_polling",
    "is_webhook_trigger",
    "now",
    "poll_cron_expressions",
    "run_trigger_node",
    "trigger_webhook_path",
    "workflow_static_data",
]
