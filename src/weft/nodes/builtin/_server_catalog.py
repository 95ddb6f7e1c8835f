"""Node types the server adds (webhooks, responses, schedules); the lead merges this into ``CATALOG``."""

from __future__ import annotations

_BASE = "n8n-nodes-base."

#: ``{type name: "module:Class"}``, the same shape as ``weft.nodes.builtin.CATALOG``.
SERVER_CATALOG: dict[str, str] = {
    _BASE + "webhook": "weft.nodes.builtin.webhook:Webhook",
    _BASE + "respondToWebhook": "weft.nodes.builtin.respond_to_webhook:RespondToWebhook",
    _BASE + "scheduleTrigger": "weft.nodes.builtin.schedule_trigger:ScheduleTrigger",
}

__all__ = ["SERVER_CATALOG"]
