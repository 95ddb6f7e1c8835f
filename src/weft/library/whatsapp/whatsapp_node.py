"""The WhatsApp Business Cloud node (``n8n-nodes-base.whatsApp``): every operation runs from n8n's description
(:class:`~weft.nodes.routing.DeclarativeNode`, functions in :mod:`weft.nodes.routing.ports.whatsapp`) except
*Send and Wait for Response*, which n8n runs with code of its own (``customOperations``): a text message with the
question and one link per button (the execution's signed resume URL, :mod:`weft.nodes.send_and_wait`), then the
execution waits until a link is opened."""

from __future__ import annotations

import re
from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext
from weft.nodes.routing import catalog
from weft.nodes.send_and_wait import (
    SEND_AND_WAIT_OPERATION,
    require_resume_url,
    send_and_wait_config,
    signed_link,
    wait_till,
)
from weft.workflow import NodeOutput

BASE_URL = "https://graph.facebook.com/v13.0/"
#: n8n's ``createUtmCampaignLink('n8n-nodes-base.whatsapp')`` (Weft has no n8n instance id to append).
CAMPAIGN_LINK = "https://n8n.io/?utm_source=n8n-internal&utm_medium=powered_by&utm_campaign=n8n-nodes-base.whatsapp"
#: The node's own button labels (``getSendAndWaitProperties`` with ``defaultApproveLabel`` …).
_APPROVAL_DEFAULTS = {"approvalType": "single", "approveLabel": "✓ Approve", "disapproveLabel": "✗ Decline"}

_Declarative: Any = catalog.whatsApp


def message_options(ctx: ExecuteContext) -> dict[str, Any]:
    """n8n's ``createMessage``: the question, each button as ``*label:*`` and its link, the attribution when
    ``options.appendAttribution`` is on."""

    def get(name: str, default: Any) -> Any:
        value = ctx.get_node_parameter(name, 0, default)
        if name == "approvalOptions.values" and value:
            return {**_APPROVAL_DEFAULTS, **value}
        return value

    resume_url = require_resume_url(ctx)
    node_id = ctx.node.id or ctx.node.name
    config = send_and_wait_config(get, lambda params: signed_link(resume_url, node_id, params))
    buttons = "".join(f"*{button.label}:*\n_{button.url}_\n\n" for button in config.buttons)
    attribution = f"\n\nThis message was sent automatically with {CAMPAIGN_LINK}" if config.append_attribution else ""
    recipient = re.sub(r"[\-()+]", "", str(get("recipientPhoneNumber", "")))
    return {
        "baseURL": BASE_URL,
        "method": "POST",
        "url": f"{get('phoneNumberId', '')}/messages",
        "body": {
            "messaging_product": "whatsapp",
            "text": {"body": f"{config.message}\n\n{buttons}{attribution}"},
            "type": "text",
            "to": recipient,
        },
    }


async def send_and_wait(ctx: ExecuteContext) -> NodeOutput:
    """Send the question, then put the execution to wait (the input items pass on when it resumes)."""
    options = message_options(ctx)
    try:
        async with ApiRequests(ctx) as api:
            await api.request("whatsAppApi", options, 0)
    except NodeError as error:
        if ctx.continue_on_fail():
            return [[{"json": {"error": error.message}}]]
        raise NodeOperationError(ctx.node.name, error.message, description=error.description) from error
    ctx.put_execution_to_wait(wait_till(ctx.node.name, lambda name, default: ctx.get_node_parameter(name, 0, default)))
    return [ctx.get_input_data()]


class WhatsApp(_Declarative):  # type: ignore[misc]
    """n8n's declarative WhatsApp node, with Send and Wait for Response."""

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        resource = ctx.get_node_parameter("resource", 0, "message")
        operation = ctx.get_node_parameter("operation", 0, "sendTemplate")
        if resource == "message" and operation == SEND_AND_WAIT_OPERATION:
            return await send_and_wait(ctx)
        result: NodeOutput = await super().execute(ctx)
        return result
