"""``emailSendHitlTool``: Send Email's send-and-wait as a HITL tool (n8n's ``convertNodeToHitlTool`` of ``emailSend``).

The agent's call of a gated tool is mailed to ``toEmail``: the message (by default "The agent wants to run this
tool: …") with n8n's Approve (and, for ``approvalType: double``, Decline) buttons, built by
the pieces of Send Email's ``send_approval_mail``. Each link is signed on its own and names the
node, as Send Email's (``/webhook-waiting/<id>/<nodeId>?approved=…&toolCallId=…&signature=…``); the server answers
it in :mod:`weft.services.send_and_wait` (link previews do not answer, n8n's "Got it, thanks" page), and the
node runs again with the answer (:mod:`weft.ai.hitl`). Beyond n8n, the link names the tool call, so a link of an
earlier question of the same execution cannot answer a later one.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.ai.hitl.send_and_wait import ApprovalOption, SendAndWaitHitlTool
from weft.errors import NodeApiError
from weft.nodes.contract import ExecuteContext, NodeDescription
from weft.nodes.mail.smtp import Mail, SmtpSendError, send_mail, to_mail_string
from weft.nodes.send_and_wait import (
    Button,
    SendAndWaitConfig,
    escape_html,
    require_resume_url,
    send_and_wait_config,
    signed_link,
)
from weft.workflow import AI_TOOL


class EmailSendHitlTool(SendAndWaitHitlTool):
    """Send Email HITL Tool: ask for approval by mail before a connected tool runs."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.emailSendHitlTool",
        display_name="Send Email",
        versions=(2, 2.1),
        description="Request human approval for tools",
        group=("output",),
        inputs=(AI_TOOL,),
        outputs=(AI_TOOL,),
        credentials=("smtp",),
        defaults={"operation": "sendAndWait", "responseType": "approval", "options": {}, "subject": ""},
    )

    def approval_options(self, ctx: ExecuteContext) -> list[ApprovalOption]:
        """n8n's buttons (disapprove first for ``double``), each link signed with the tool-call id in it."""
        call_id = str(self.tool_call(ctx)["id"] or "")
        resume_url, node_id = require_resume_url(ctx), ctx.node.id or ctx.node.name

        def link(params: Any) -> str:
            return signed_link(resume_url, node_id, {**params, "toolCallId": call_id})

        config = send_and_wait_config(lambda name, default: self._parameter(ctx, name, default), link)
        return [ApprovalOption(label=b.label, url=b.url, style=b.style, approved=b.approved) for b in config.buttons]

    async def send(self, ctx: ExecuteContext, message: str, options: list[ApprovalOption]) -> None:
        """Mail the question: n8n's send-and-wait mail with the rendered message and the buttons."""
        text = escape_html(message.strip()).replace("\\n", "\n").replace("<br>", "\n")
        extra = ctx.get_node_parameter("options", 0, {}) or {}
        config = SendAndWaitConfig(
            title=escape_html(str(ctx.get_node_parameter("subject", 0, ""))),
            message=text,
            buttons=[Button(o.label, o.url, o.style, o.approved) for o in options],
            append_attribution=extra.get("appendAttribution"),
        )
        mail = Mail(
            from_=to_mail_string(ctx.get_node_parameter("fromEmail", 0, "")) or "",
            to=to_mail_string(ctx.get_node_parameter("toEmail", 0, "")),
            subject=config.title,
            html=config.html(),
        )
        try:
            await send_mail(await ctx.get_credentials("smtp"), mail)
        except SmtpSendError as error:
            raise NodeApiError(ctx.node.name, str(error)) from None

    @staticmethod
    def _parameter(ctx: ExecuteContext, name: str, default: Any) -> Any:
        if name in ("message", "responseType"):  # the HITL tool's message is rendered by the core
            return default
        return ctx.get_node_parameter(name, 0, default)


__all__ = ["EmailSendHitlTool"]
