"""The test URLs of a workflow's triggers: what the editor listens on (:mod:`weft.services.listening`).

As n8n's ``getWorkflowWebhooks``, every webhook of every trigger: a Webhook node's methods on its path
(``/webhook-test/<path>``; a dynamic path is not listened on), a Form Trigger's ``GET`` (the page) and ``POST``
(the submission) on ``/form-test/<path>`` (version 1: ``/webhook-test/<path>/n8n-form``), an MCP Server Trigger's
three URLs under ``/mcp-test/`` and a Chat Trigger's ``GET``/``POST`` on ``/webhook-test/<webhookId>/chat``. A
Chat Trigger that is not ``public`` has no test URL: n8n's answers an empty 404 to every call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from weft.ai.chat.trigger import chat_trigger_options, is_chat_trigger
from weft.ai.nodes.mcp_trigger import is_mcp_trigger, trigger_urls
from weft.db.webhooks import is_dynamic_path, normalize_path
from weft.nodes.forms.options import form_path, is_form_trigger
from weft.nodes.webhooks import WEBHOOK_TYPE, webhook_options
from weft.services.prepared import PreparedWorkflow
from weft.workflow import NodeModel

Kind = Literal["webhook", "form", "mcp", "chat"]
"""Which routes serve the URL: ``/webhook-test/``, ``/form-test/`` (and version 1 forms), ``/mcp-test/``, or the
chat's ``/webhook-test/<webhookId>/chat``."""

FORM_V1_SUFFIX = "/n8n-form"


@dataclass(frozen=True, kw_only=True)
class ListeningUrl:
    """One webhook of a trigger: ``method path`` as the routes look it up, and the URL shown to the user."""

    kind: Kind
    node: str
    method: str
    path: str
    url: str


def listening_urls(prepared: PreparedWorkflow, base: str) -> list[ListeningUrl]:
    """The test URLs of the workflow's enabled triggers, ``base`` being the instance's public URL."""
    base = base.rstrip("/")
    found: list[ListeningUrl] = []
    for node in prepared.workflow.nodes.values():
        found += _of(node, base)
    return found


def _of(node: NodeModel, base: str) -> list[ListeningUrl]:
    if node.type == WEBHOOK_TYPE and not node.disabled:
        options = webhook_options(node)
        if is_dynamic_path(options.path):
            return []
        path = normalize_path(options.path)
        return _each(node, "webhook", options.methods, path, f"{base}/webhook-test/{path}")
    if is_form_trigger(node):
        path = normalize_path(form_path(node))
        if node.typeVersion < 2:
            return _each(node, "form", ("GET", "POST"), path + FORM_V1_SUFFIX, f"{base}/webhook-test/{path}/n8n-form")
        return _each(node, "form", ("GET", "POST"), path, f"{base}/form-test/{path}")
    if is_mcp_trigger(node):
        urls = list(trigger_urls(node))  # the setup URL (what a client connects to) comes first
        shown = f"{base}/mcp-test/{normalize_path(urls[0][1])}"
        return [ListeningUrl(kind="mcp", node=node.name, method=m, path=normalize_path(p), url=shown) for m, p in urls]
    if is_chat_trigger(node) and node.webhookId and chat_trigger_options(node).public:
        path = f"{node.webhookId}/chat"
        return _each(node, "chat", ("GET", "POST"), path, f"{base}/webhook-test/{path}")
    return []


def _each(node: NodeModel, kind: Kind, methods: tuple[str, ...], path: str, url: str) -> list[ListeningUrl]:
    return [ListeningUrl(kind=kind, node=node.name, method=method.upper(), path=path, url=url) for method in methods]


def listening_triggers(prepared: PreparedWorkflow) -> list[str]:
    """The names of the nodes with a test URL (the triggers the editor listens with)."""
    return list(dict.fromkeys(url.node for url in listening_urls(prepared, "")))


__all__ = ["FORM_V1_SUFFIX", "Kind", "ListeningUrl", "listening_triggers", "listening_urls"]
