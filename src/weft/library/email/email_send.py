"""Send Email (``n8n-nodes-base.emailSend`` 1, 2, 2.1): send over SMTP, or send and wait for a response.

``send`` (every version) sends each item's mail and outputs nodemailer's info (``accepted``, ``rejected``,
``response``, ``messageId``...). Version 2 sends text by default, 2.1 HTML and appends n8n's attribution unless
``options.appendAttribution`` is false. Attachments name binary properties of the item (``attachments``: inline,
``cid:<property>``; ``fileAttachments``: regular files; v1's top-level ``attachments``).

``sendAndWait`` (2, 2.1) mails item 0's message with n8n's buttons whose links resume the execution
(:mod:`weft.nodes.send_and_wait`), then puts the execution to wait; opening a link outputs
``{data: {approved, respondedAt}}`` (free text: ``{data: {text, respondedAt}}``). :func:`send_approval_mail`
is that step on its own, for the HITL tool.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.mail.smtp import Attachment, Mail, SmtpSendError, send_mail, to_mail_string
from weft.nodes.send_and_wait import (
    SEND_AND_WAIT_OPERATION,
    require_resume_url,
    send_and_wait_config,
    signed_link,
    wait_till,
)
from weft.workflow import Item, NodeOutput

_ATTRIBUTION = "This email was sent automatically with "
_CAMPAIGN_LINK = "https://n8n.io/?utm_source=n8n-internal&utm_medium=powered_by&utm_campaign=n8n-nodes-base.emailSend"


class EmailSend(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.emailSend",
        display_name="Send Email",
        versions=(1, 2, 2.1),
        description="Sends an email using SMTP protocol",
        group=("output",),
        usable_as_tool=True,
        credentials=("smtp",),
        defaults={"operation": "send", "options": {}, "subject": "", "responseType": "approval"},
    )
    #: The versions n8n marks ``usableAsTool``.
    tool_versions: ClassVar[tuple[float, ...]] = (2, 2.1)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if ctx.node.typeVersion >= 2 and ctx.get_node_parameter("operation", 0) == SEND_AND_WAIT_OPERATION:
            return await _send_and_wait(ctx)
        credentials = await ctx.get_credentials("smtp")
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                mail, allow_unauthorized = _mail(ctx, index, item)
                info = await send_mail(credentials, mail, allow_unauthorized=allow_unauthorized)
            except SmtpSendError as error:
                if not ctx.continue_on_fail():
                    raise NodeApiError(ctx.node.name, str(error), item_index=index) from None
                info = {"error": str(error)}
            out.append({"json": info, "pairedItem": {"item": index}})
        return [out]


def _mail(ctx: ExecuteContext, index: int, item: Item) -> tuple[Mail, bool]:
    def get(name: str, default: Any = None) -> str | None:
        return to_mail_string(ctx.get_node_parameter(name, index, default))

    options: Mapping[str, Any] = ctx.get_node_parameter("options", index, {}) or {}
    version = ctx.node.typeVersion
    mail = Mail(
        from_=get("fromEmail", "") or "",
        to=get("toEmail", ""),
        subject=get("subject", ""),
        reply_to=to_mail_string(options.get("replyTo")),
    )
    if version < 2:
        mail.cc, mail.bcc = get("ccEmail", ""), get("bccEmail", "")
        mail.text, mail.html = get("text", "") or None, get("html", "") or None
        mail.attachments = _attachments(ctx, item, ctx.get_node_parameter("attachments", index, ""), inline=False)
        return mail, options.get("allowUnauthorizedCerts") is True
    mail.cc, mail.bcc = to_mail_string(options.get("ccEmail")), to_mail_string(options.get("bccEmail"))
    email_format = ctx.get_node_parameter("emailFormat", index, "html" if version >= 2.1 else "text")
    if email_format in ("text", "both"):
        mail.text = get("text", "")
    if email_format in ("html", "both"):
        mail.html = get("html", "")
    attribution = options.get("appendAttribution")
    if attribution if attribution is not None else version >= 2.1:
        _append_attribution(mail, email_format)
    mail.attachments = _attachments(ctx, item, options.get("attachments"), inline=True) + _attachments(
        ctx, item, options.get("fileAttachments"), inline=False
    )
    return mail, options.get("allowUnauthorizedCerts") is True


def _append_attribution(mail: Mail, email_format: str) -> None:
    if email_format == "html" or (email_format == "both" and mail.html):
        mail.html = (
            f"\n\t\t\t\t\t{mail.html}\n\t\t\t\t\t<br>\n\t\t\t\t\t<br>\n\t\t\t\t\t---\n\t\t\t\t\t<br>\n"
            f'\t\t\t\t\t<em>{_ATTRIBUTION}<a href="{_CAMPAIGN_LINK}" target="_blank">n8n</a></em>\n\t\t\t\t\t'
        )
    else:
        mail.text = f"{mail.text}\n\n---\n{_ATTRIBUTION}n8n\nhttps://n8n.io"


def _attachments(ctx: ExecuteContext, item: Item, names: Any, *, inline: bool) -> list[Attachment]:
    """The item's binary properties named in ``names`` (comma-separated), as n8n's ``prepareBinariesDataList``."""
    if not names or not item.get("binary"):
        return []
    binary: Mapping[str, Any] = item.get("binary") or {}
    listed = names if isinstance(names, list) else str(names).split(",")
    out = []
    for name in (str(n).strip() for n in listed):
        if not name:
            continue
        data = binary.get(name)
        if not isinstance(data, Mapping):
            raise NodeOperationError(
                ctx.node.name,
                f"This operation expects the node's input data to contain a binary file '{name}', but none was found "
                "[item 0]",
                description="Make sure that the previous node outputs a binary file under that property name.",
            )
        content = base64.b64decode(str(data.get("data", "")))
        mime = str(data.get("mimeType") or "application/octet-stream")
        out.append(Attachment(str(data.get("fileName") or "unknown"), content, mime, name if inline else None))
    return out


async def send_approval_mail(ctx: ExecuteContext) -> None:
    """Mail item 0's send-and-wait message (subject, message, buttons) to ``toEmail``; raises ``NodeApiError``."""

    def get(name: str, default: Any) -> Any:
        return ctx.get_node_parameter(name, 0, default)

    resume_url = require_resume_url(ctx)
    if get("responseType", "approval") == "customForm":
        raise NodeOperationError(
            ctx.node.name,
            "The response type 'Custom Form' is not supported yet",
            description="Use the response type 'Approval' or 'Free Text'.",
        )
    node_id = ctx.node.id or ctx.node.name
    config = send_and_wait_config(get, lambda params: signed_link(resume_url, node_id, params))
    mail = Mail(
        from_=to_mail_string(get("fromEmail", "")) or "",
        to=to_mail_string(get("toEmail", "")),
        subject=config.title,
        html=config.html(),
    )
    try:
        await send_mail(await ctx.get_credentials("smtp"), mail)
    except SmtpSendError as error:
        raise NodeApiError(ctx.node.name, str(error)) from None


async def _send_and_wait(ctx: ExecuteContext) -> NodeOutput:
    try:
        await send_approval_mail(ctx)
    except NodeApiError as error:
        if ctx.continue_on_fail():
            return [[{"json": {"error": error.message}}]]
        raise
    ctx.put_execution_to_wait(wait_till(ctx.node.name, lambda name, default: ctx.get_node_parameter(name, 0, default)))
    return [ctx.get_input_data()]


__all__ = ["EmailSend", "send_approval_mail"]
