"""Slack's "Send Message and Wait for Response" (n8n's ``createSendAndWaitMessageBody``): the question as Block
Kit blocks (``mrkdwn`` from 2.3, ``plain_text`` with emoji before), one actions block of link buttons to the
execution's signed resume URL (:mod:`weft.nodes.send_and_wait`), n8n's attribution unless turned off; then the
execution waits until a link is opened. 2.41's "capture responder" (buttons answered through Slack's
interactivity callback) is not supported."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.slack.content import target, thread_options
from weft.library.slack.transport import slack_api_request
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.send_and_wait import require_resume_url, send_and_wait_config, signed_link, wait_till
from weft.workflow import NodeOutput

#: n8n's ``createUtmCampaignLink`` for this node (Weft has no n8n instance id to append).
CAMPAIGN_LINK = "https://n8n.io/?utm_source=n8n-internal&utm_medium=powered_by&utm_campaign=n8n-nodes-base.slack"


def message_body(scope: RoutingScope) -> dict[str, Any]:
    """The ``chat.postMessage`` body of item 0's question."""
    ctx = scope.ctx

    def get(name: str, default: Any) -> Any:
        return scope.parameter(name, 0, default)

    response_type = get("responseType", "approval")
    if get("captureResponder", False) is True and response_type == "approval":
        fix = "Turn 'Capture Responder' off: the message then carries link buttons, which Weft serves."
        raise NodeOperationError(scope.node_name, "'Capture Responder' is not supported yet", description=fix)
    if response_type == "customForm":
        fix = "Use the response type 'Approval' or 'Free Text'."
        raise NodeOperationError(scope.node_name, "The response type 'Custom Form' is not supported yet",
                                 description=fix)  # fmt: skip
    resume_url = require_resume_url(ctx)
    config = send_and_wait_config(get, lambda params: signed_link(resume_url, ctx.node.id or ctx.node.name, params))
    newer = float(ctx.node.typeVersion) > 2.2
    question: dict[str, Any] = {"type": "mrkdwn" if newer else "plain_text", "text": config.message}
    if not newer:
        question["emoji"] = True
    buttons = []
    for button in config.buttons:
        element: dict[str, Any] = {"type": "button"}
        if button.style == "primary":
            element["style"] = "primary"
        element.update(text={"type": "plain_text", "text": button.label, "emoji": True}, url=button.url)
        buttons.append(element)
    blocks: list[dict[str, Any]] = [
        {"type": "divider"},
        {"type": "section", "text": question},
        {"type": "section", "text": {"type": "plain_text", "text": " "}},
        {"type": "divider"},
        {"type": "actions", "elements": buttons},
    ]
    body: dict[str, Any] = {"channel": target(scope, 0, str(get("select", "user"))), "blocks": blocks}
    body.update(thread_options((get("options", {}) or {}).get("thread_ts")))
    if config.append_attribution is not False:
        text = f"This message was sent automatically with  _<{CAMPAIGN_LINK}|n8n>_"
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": text}})
    return body


async def send_and_wait(scope: RoutingScope, api: ApiRequests) -> NodeOutput:
    """Post the question, then put the execution to wait (the input items pass on when it resumes)."""
    ctx = scope.ctx
    try:
        await slack_api_request(api, "POST", "/chat.postMessage", message_body(scope))
    except NodeError as error:
        if ctx.continue_on_fail():
            return [[{"json": {"error": error.message}}]]
        raise
    ctx.put_execution_to_wait(wait_till(ctx.node.name, lambda name, default: scope.parameter(name, 0, default)))
    return [ctx.get_input_data()]
