"""n8n's send-and-wait, reusable by any node that sends a message and waits (``utils/sendAndWait`` in n8n).

* :func:`send_and_wait_config`: the title, message and buttons of the message (``getSendAndWaitConfig``);
* :func:`require_resume_url`: the execution's resume URL the links are built on;
* :func:`signed_link`: a button's link, ``<base>/<executionId>/<nodeId>?approved=true&signature=…``;
* :func:`wait_till`: the ``options.limitWaitTime`` limit (``configureWaitTillDate``);
* :func:`webhook_answer`: what opening a link answers and the node's output (``sendAndWaitWebhook``).

Each link carries its own signature over the execution id, the node id and the query (as n8n signs the path and
query), keyed by the execution's resume signature, so a link cannot be turned into another one (``approved=false``
into ``approved=true``); the server checks it with :func:`link_signature` in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from weft.errors import NodeOperationError
from weft.nodes.contract import WAIT_INDEFINITELY, ExecuteContext
from weft.nodes.mail.templates import (
    ACTION_RECORDED_PAGE,
    BUTTON_STYLE_PRIMARY,
    BUTTON_STYLE_SECONDARY,
    email_body,
)
from weft.workflow import Item

SEND_AND_WAIT_OPERATION = "sendAndWait"
_UNIT_SECONDS = {"minutes": 60, "hours": 3600, "days": 86400}
_APPROVAL_DEFAULTS = {
    "approvalType": "single",
    "approveLabel": "Approve",
    "buttonApprovalStyle": "primary",
    "disapproveLabel": "Decline",
    "buttonDisapprovalStyle": "secondary",
}
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&#39;": "'", "&quot;": '"'}
#: A compact form of the ``isbot`` patterns n8n checks (link previews and HTTP clients must not approve).
_BOT = re.compile(
    r"bot|crawl|spider|slurp|http|curl|wget|python|java/|go-http|headless|preview|scan|fetch|lighthouse"
    r"|search|okhttp|axios|libwww|perl|ruby|php|externalhit|whatsapp|telegram|discord|embed|teams|skype",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Button:
    """One link of the message."""

    label: str
    url: str
    style: str
    approved: bool


@dataclass(frozen=True)
class SendAndWaitConfig:
    """What the message shows (n8n's ``SendAndWaitConfig``)."""

    title: str
    message: str
    buttons: list[Button] = field(default_factory=list)
    append_attribution: bool | None = None

    def html(self, instance_id: str | None = None) -> str:
        """The mail body with the buttons (n8n's email template)."""
        buttons = "\n".join(create_button(b.url, b.label, b.style) for b in self.buttons)
        return email_body(
            self.message, buttons, instance_id=instance_id, attribution=self.append_attribution is not False
        )


@dataclass(frozen=True)
class WebhookAnswer:
    """What a link answers: the page, and the node's output when the execution resumes (``None``: it waits on)."""

    status: int
    html: str
    items: list[Item] | None


def escape_html(text: str | None) -> str:
    """n8n's ``escapeHtml`` (which turns the five entities back into characters)."""
    if not text:
        return ""
    return re.sub(r"&amp;|&lt;|&gt;|&#39;|&quot;", lambda m: _ENTITIES[m.group(0)], text)


def create_button(url: str, label: str, style: str) -> str:
    """n8n's ``createButton``."""
    css = BUTTON_STYLE_SECONDARY if style == "secondary" else BUTTON_STYLE_PRIMARY
    return f'<a href="{url}" target="_blank" style="{css}">{label}</a>'


def link_signature(resume_signature: str, execution_id: str, node_id: str, params: Mapping[str, str]) -> str:
    """The signature of one link: HMAC-SHA256, keyed by the execution's resume signature, of id, node and query."""
    canonical = f"/{execution_id}/{node_id}?{urlencode(sorted(params.items()))}"
    return hmac.new(resume_signature.encode(), canonical.encode(), hashlib.sha256).hexdigest()


def signed_link(resume_url: str, node_id: str, params: Mapping[str, str]) -> str:
    """The link for ``params`` under the execution's resume URL (``$execution.resumeUrl``)."""
    parts = urlsplit(resume_url)
    signature = dict(parse_qsl(parts.query)).get("signature", "")
    execution_id = parts.path.rstrip("/").rsplit("/", 1)[-1]
    signed = [*params.items(), ("signature", link_signature(signature, execution_id, node_id, params))]
    query = urlencode(signed)
    base = resume_url.split("?", 1)[0].rstrip("/")
    return f"{base}/{quote(node_id, safe='')}?{query}"


def require_resume_url(ctx: ExecuteContext) -> str:
    """The execution's signed resume URL; a node error with the fix where there is none (``weft execute``)."""
    resume_url = ctx.get_resume_url()
    if not resume_url or ctx.execution_id is None:
        raise NodeOperationError(
            ctx.node.name,
            "Send and wait needs a resume URL, which only a stored execution has",
            description="Run the workflow through 'weft start' (the server), where executions can wait.",
        )
    return resume_url


def send_and_wait_config(get: Callable[[str, Any], Any], link: Callable[[Mapping[str, str]], str]) -> SendAndWaitConfig:
    """n8n's ``getSendAndWaitConfig``: ``get(name, default)`` reads a parameter of item 0."""
    message = escape_html(str(get("message", "")).strip()).replace("\\n", "\n").replace("<br>", "\n")
    approval = get("approvalOptions.values", {}) or {}
    if approval:  # n8n fills the collection's defaults in
        approval = {**_APPROVAL_DEFAULTS, **approval}
    options = get("options", {}) or {}
    config = SendAndWaitConfig(escape_html(str(get("subject", ""))), message, [], options.get("appendAttribution"))
    approved_url = link({"approved": "true"})
    response_type = get("responseType", "approval")
    if response_type in ("freeText", "customForm"):
        label = str(get("options.messageButtonLabel", "Respond"))
        config.buttons.append(Button(label, approved_url, "primary", True))
    elif approval.get("approvalType") == "double":
        config.buttons.append(
            Button(
                escape_html(approval.get("disapproveLabel") or "Disapprove"),
                link({"approved": "false"}),
                approval.get("buttonDisapprovalStyle") or "secondary",
                False,
            )
        )
        approve = escape_html(approval.get("approveLabel") or "Approve")
        config.buttons.append(Button(approve, approved_url, approval.get("buttonApprovalStyle") or "primary", True))
    else:
        label = escape_html(approval.get("approveLabel") or "Approve")
        config.buttons.append(Button(label, approved_url, approval.get("buttonApprovalStyle") or "primary", True))
    return config


def wait_till(node_name: str, get: Callable[[str, Any], Any]) -> datetime:
    """n8n's ``configureWaitTillDate``: ``options.limitWaitTime.values``, else indefinitely."""
    limit = get("options.limitWaitTime.values", {}) or {}
    if not limit:
        return WAIT_INDEFINITELY
    try:
        if limit.get("limitType", "afterTimeInterval") == "afterTimeInterval":
            amount = float(limit.get("resumeAmount", 1)) * _UNIT_SECONDS.get(str(limit.get("resumeUnit")), 1)
            return datetime.now(UTC) + timedelta(seconds=amount)
        moment = datetime.fromisoformat(str(limit.get("maxDateAndTime", "")).strip())
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    except (TypeError, ValueError):
        raise NodeOperationError(
            node_name, "Could not configure Limit Wait Time", description="Invalid date format"
        ) from None


def is_bot(user_agent: str | None) -> bool:
    """Link previews, bots and HTTP libraries (n8n: ``isbot`` and Microsoft's preview service, no user agent)."""
    return not user_agent or bool(_BOT.search(user_agent))


def webhook_answer(
    parameters: Mapping[str, Any], method: str, query: Mapping[str, Any], form: Mapping[str, Any] | None,
    user_agent: str | None,
) -> WebhookAnswer:  # fmt: skip
    """n8n's ``sendAndWaitWebhook`` for the approval and free-text response types."""
    response_type = parameters.get("responseType", "approval")
    now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if response_type == "approval" and is_bot(user_agent):
        return WebhookAnswer(200, "", None)
    if response_type == "freeText":
        if method == "GET":
            return WebhookAnswer(200, _free_text_form(parameters), None)
        text = (form or {}).get("field-0", "")
        return WebhookAnswer(200, ACTION_RECORDED_PAGE, [{"json": {"data": {"text": text, "respondedAt": now}}}])
    approved = query.get("approved") == "true"
    return WebhookAnswer(200, ACTION_RECORDED_PAGE, [{"json": {"data": {"approved": approved, "respondedAt": now}}}])


def _free_text_form(parameters: Mapping[str, Any]) -> str:
    from html import escape

    options = parameters.get("options") or {}
    description = str(options.get("responseFormDescription") or parameters.get("message") or "")
    title = str(options.get("responseFormTitle") or "")
    button = str(options.get("responseFormButtonLabel") or "Submit")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='UTF-8'/>"
        f"<title>{escape(title)}</title></head><body><form method='POST'>"
        f"<h1>{escape(title)}</h1><p>{escape(description)}</p>"
        "<label for='field-0'>Response</label><textarea id='field-0' name='field-0' required></textarea>"
        f"<button type='submit'>{escape(button)}</button></form></body></html>"
    )


__all__ = [
    "SEND_AND_WAIT_OPERATION",
    "Button",
    "SendAndWaitConfig",
    "WebhookAnswer",
    "create_button",
    "escape_html",
    "is_bot",
    "link_signature",
    "require_resume_url",
    "send_and_wait_config",
    "signed_link",
    "wait_till",
    "webhook_answer",
]
