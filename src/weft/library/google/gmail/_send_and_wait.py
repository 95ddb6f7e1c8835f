"""Gmail's "Send and Wait for Response" (n8n's ``createEmail`` of ``utils/sendAndWait``): an HTML mail to one
address with the question and link buttons to the execution's signed resume URL (:mod:`weft.nodes.send_and_wait`),
n8n's attribution unless turned off; the execution then waits until a link is opened."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.google.gmail import _compose as compose
from weft.library.google.gmail._api import GmailApi
from weft.nodes.contract import ExecuteContext
from weft.nodes.send_and_wait import require_resume_url, send_and_wait_config, signed_link, wait_till
from weft.workflow import NodeOutput


def question(ctx: ExecuteContext, api: GmailApi) -> compose.Email:
    """Item 0's question as a mail."""

    def get(name: str, default: Any) -> Any:
        return api.params.get(name, 0, default)

    to = str(get("sendTo", "") or "").strip()
    if "@" not in to or to.count("@") > 1:
        raise NodeOperationError(
            ctx.node.name,
            "Invalid email address",
            description=f"The email address '{to}' in the 'To' field isn't valid or contains multiple addresses. "
            "Please provide only a single email address.",
            item_index=0,
        )
    if get("responseType", "approval") == "customForm":
        fix = "Use the response type 'Approval' or 'Free Text'."
        raise NodeOperationError(ctx.node.name, "The response type 'Custom Form' is not supported yet", description=fix)
    resume_url = require_resume_url(ctx)
    node_id = ctx.node.id or ctx.node.name
    config = send_and_wait_config(get, lambda params: signed_link(resume_url, node_id, params))
    return compose.Email(to=to, subject=config.title, html=config.html())


async def send_and_wait(ctx: ExecuteContext, api: GmailApi) -> NodeOutput:
    """Send the question, then put the execution to wait (the input items pass on when it resumes)."""
    try:
        email = question(ctx, api)
        await api.request("POST", "/gmail/v1/users/me/messages/send", {"raw": compose.encode(email)}, None, 0)
    except NodeError as error:
        if ctx.continue_on_fail():
            return [[{"json": {"error": error.message}}]]
        raise
    ctx.put_execution_to_wait(wait_till(ctx.node.name, lambda name, default: api.params.get(name, 0, default)))
    return [ctx.get_input_data()]


__all__ = ["question", "send_and_wait"]
