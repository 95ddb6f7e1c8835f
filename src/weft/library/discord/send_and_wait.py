"""Discord's "Send and Wait for Response" (n8n's ``createSendAndWaitMessageBody``): the question as an embed
(with n8n's attribution line unless turned off) and one row of link buttons to the execution's signed resume URL
(:mod:`weft.nodes.send_and_wait`), sent to the channel or the user; then the execution waits until a link is
opened."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.discord import operations as ops
from weft.library.discord.transport import parse_discord_error
from weft.nodes.send_and_wait import require_resume_url, send_and_wait_config, signed_link, wait_till
from weft.workflow import Item

#: n8n's ``createUtmCampaignLink`` for this node (Weft has no n8n instance id to append).
CAMPAIGN_LINK = "https://n8n.io/?utm_source=n8n-internal&utm_medium=powered_by&utm_campaign=n8n-nodes-base.discord"


def message_body(run: ops.Run) -> dict[str, Any]:
    """The message of item 0's question."""
    ctx = run.scope.ctx

    def get(name: str, default: Any) -> Any:
        return run.scope.parameter(name, 0, default)

    if get("responseType", "approval") == "customForm":
        fix = "Use the response type 'Approval' or 'Free Text'."
        raise NodeOperationError(ctx.node.name, "The response type 'Custom Form' is not supported yet", description=fix)
    resume_url = require_resume_url(ctx)
    config = send_and_wait_config(get, lambda params: signed_link(resume_url, ctx.node.id or ctx.node.name, params))
    description = config.message
    if config.append_attribution is not False:
        description = f"{config.message}\n\n_This message was sent automatically with _[n8n]({CAMPAIGN_LINK})"
    buttons = [{"type": 2, "style": 5, "label": button.label, "url": button.url} for button in config.buttons]
    return {"embeds": [{"description": description, "color": 5814783}], "components": [{"type": 1,
            "components": buttons}]}  # fmt: skip


async def send_and_wait(run: ops.Run) -> list[Item]:
    """Send the question, then put the execution to wait (the input items pass on when it resumes)."""
    ctx = run.scope.ctx
    try:
        await ops.send_message(run, 0, message_body(run), [])
    except NodeError as error:
        parsed = parse_discord_error(ctx.node.name, error, 0)
        if ctx.continue_on_fail():
            return [{"json": {"error": parsed.message}}]
        raise parsed from error
    ctx.put_execution_to_wait(wait_till(ctx.node.name, lambda name, default: run.scope.parameter(name, 0, default)))
    return list(ctx.get_input_data())
