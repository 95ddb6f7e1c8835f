"""Building the mail Gmail sends (n8n's ``prepareEmailsInput``, ``prepareEmailBody``, ``prepareEmailAttachments``
and ``encodeEmail``, which compiles with nodemailer's mail composer): the MIME text, base64url-encoded for the
API's ``raw`` field.

The tree is the composer's: one body part alone; text and HTML as ``multipart/alternative``; attachments beside
the body in ``multipart/mixed``; an empty ``text/plain`` when there is nothing. ``Bcc`` is kept (Gmail reads the
recipients from the headers). Boundaries and the ``Message-ID`` are random, as nodemailer's are.
"""

from __future__ import annotations

import base64
import uuid
from dataclasses import dataclass, field
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, getaddresses
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext

ATTRIBUTION = "This email was sent automatically with "
_CRLF = policy.default.clone(linesep="\r\n")
CAMPAIGN_LINK = "https://n8n.io/?utm_source=n8n-internal&utm_medium=powered_by&utm_campaign=n8n-nodes-base.gmail"


@dataclass
class Attachment:
    name: str
    content: bytes
    mime_type: str


@dataclass
class Email:
    """n8n's ``IEmail``: addresses as the composer reads them (comma-separated)."""

    subject: str = ""
    sender: str = ""
    to: str = ""
    cc: str = ""
    bcc: str = ""
    reply_to: str = ""
    in_reply_to: str = ""
    references: str = ""
    body: str = ""
    html: str = ""
    attachments: list[Attachment] = field(default_factory=list)


def emails_input(ctx: ExecuteContext, value: Any, field_name: str, index: int) -> str:
    """n8n's ``prepareEmailsInput``: each comma-separated address checked (it needs an ``@``) and bracketed."""
    out = ""
    for entry in ("" if value is None else str(value)).split(","):
        email = entry.strip()
        if "@" not in email:
            raise NodeOperationError(
                ctx.node.name,
                "Invalid email address",
                description=f"The email address '{email}' in the '{field_name}' field isn't valid",
                item_index=index,
            )
        out += f"{email}," if "<" in email and ">" in email else f"<{email}>, "
    return out


def email_body(emailType: Any, message: Any, attribution: bool = False) -> tuple[str, str]:
    """n8n's ``prepareEmailBody``: ``(text, html)``, the message trimmed, n8n's attribution appended when asked."""
    text = ("" if message is None else str(message)).strip()
    if attribution:
        if emailType == "html":
            text = (
                f"\n\t\t\t{text}\n\t\t\t<br>\n\t\t\t<br>\n\t\t\t---\n\t\t\t<br>\n"
                f'\t\t\t<em>{ATTRIBUTION}<a href="{CAMPAIGN_LINK}" target="_blank">n8n</a></em>\n\t\t\t'
            )
        else:
            text = f"{text}\n\n---\n{ATTRIBUTION}n8n\nhttps://n8n.io"
    return ("", text) if emailType == "html" else (text, "")


async def attachments(ctx: ExecuteContext, options: dict[str, Any], index: int) -> list[Attachment]:
    """n8n's ``prepareEmailAttachments``: the binary properties named (comma-separated) in each entry."""
    ui = options.get("attachmentsUi") or {}
    found: list[Attachment] = []
    for entry in ui.get("attachmentsBinary") or [] if isinstance(ui, dict) else []:
        for name in ("" if entry.get("property") is None else str(entry.get("property"))).split(","):
            binary = ctx.assert_binary_data(index, name)
            content = await ctx.get_binary_data_buffer(index, name)
            mime = str(binary.get("mimeType") or "application/octet-stream")
            found.append(Attachment(str(binary.get("fileName") or "unknown"), content, mime))
    return found


def encode(email: Email) -> str:
    """The mail's MIME text as base64url without padding (n8n's ``encodeEmail``)."""
    data = compose(email).as_bytes(policy=_CRLF)
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def compose(email: Email) -> EmailMessage:
    message = EmailMessage()
    for name, value in (("From", email.sender), ("To", email.to), ("Cc", email.cc), ("Bcc", email.bcc),
                        ("Reply-To", email.reply_to)):  # fmt: skip
        _address_header(message, name, value)
    if email.in_reply_to:
        message["In-Reply-To"] = email.in_reply_to
    if email.references:
        message["References"] = email.references
    message["Subject"] = email.subject
    message["Message-ID"] = f"<{uuid.uuid4()}@{_domain(email.sender)}>"
    message["Date"] = formatdate(usegmt=True)
    message["MIME-Version"] = "1.0"
    _content(message, email)
    return message


def _content(message: EmailMessage, email: Email) -> None:
    if email.body:
        message.set_content(email.body, charset="utf-8")
        if email.html:
            message.add_alternative(email.html, subtype="html", charset="utf-8")
    elif email.html:
        message.set_content(email.html, subtype="html", charset="utf-8")
    elif not email.attachments:
        message.set_content("", charset="utf-8")
    for attachment in email.attachments:
        main, _, sub = attachment.mime_type.partition("/")
        message.add_attachment(
            attachment.content, maintype=main or "application", subtype=sub or "octet-stream",
            filename=attachment.name,
        )  # fmt: skip


def _address_header(message: EmailMessage, name: str, value: str) -> None:
    pairs = [(n, a) for n, a in getaddresses([value]) if a]
    if not pairs:
        return
    try:
        message[name] = [Address(display_name=n, addr_spec=a) for n, a in pairs]
    except (ValueError, IndexError):
        message[name] = ", ".join(f"{n} <{a}>" if n else a for n, a in pairs)


def _domain(sender: str) -> str:
    pairs = getaddresses([sender]) if sender else []
    address = pairs[0][1] if pairs else ""
    return address.rpartition("@")[2] or "localhost"


__all__ = ["Attachment", "Email", "attachments", "compose", "email_body", "emails_input", "encode"]
