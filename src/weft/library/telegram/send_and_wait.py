"""Telegram's "Send and Wait for Response" (n8n's ``createSendAndWaitMessageBody``): the message, in Markdown
with n8n's attribution line unless turned off, and one inline keyboard row of link buttons to the execution's
signed resume URL (:mod:`weft.nodes.send_and_wait`); the execution then waits until a link is opened.
2.41's "Approve Within Chat" (callback buttons answered through the bot's webhook) is not supported."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.telegram.api import api_request
from weft.library.telegram.fields import ATTRIBUTION, CAMPAIGN_LINK
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext
from weft.nodes.send_and_wait import require_resume_url, send_and_wait_config, signed_link, wait_till
from weft.workflow import NodeOutput


def message_body(ctx: ExecuteContext) -> dict[str, Any]:
    """The ``sendMessage`` body of item 0's question."""

    def get(name: str, default: Any) -> Any:
        return ctx.get_node_parameter(name, 0, default)

    if get("chatApproval", False):
        fix = "Turn 'Approve Within Chat' off: the message then carries link buttons, which Weft serves."
        raise NodeOperationError(ctx.node.name, "'Approve Within Chat' is not supported yet", description=fix)
    if get("responseType", "approval") == "customForm":
        fix = "Use the response type 'Approval' or 'Free Text'."
        raise NodeOperationError(ctx.node.name, "The response type 'Custom Form' is not supported yet", description=fix)
    resume_url = require_resume_url(ctx)
    node_id = ctx.node.id or ctx.node.name
    config = send_and_wait_config(get, lambda params: signed_link(resume_url, node_id, params))
    text = config.message
    if config.append_attribution is not False:
        text = f"{text}\n\n_{ATTRIBUTION}_[n8n]({CAMPAIGN_LINK})"
    buttons = [{"text": button.label, "url": button.url} for button in config.buttons]
    return {
        "chat_id": get("chatId", ""),
        "text": text,
        "disable_web_page_preview": True,
        "parse_mode": "Markdown",
        "reply_markup": {"inline_keyboard": [buttons]},
    }


async def send_and_wait(ctx: ExecuteContext, api: ApiRequests) -> NodeOutput:
    """Send the question, then put the execution to wait (the input items pass on when it resumes)."""
    try:
        await api_request(api, "POST", "sendMessage", message_body(ctx), 0)
    except NodeError as error:
        if ctx.continue_on_fail():
            return [[{"json": {"error": error.message}}]]
        raise
    ctx.put_execution_to_wait(wait_till(ctx.node.name, lambda name, default: ctx.get_node_parameter(name, 0, default)))
    return [ctx.get_input_data()]
