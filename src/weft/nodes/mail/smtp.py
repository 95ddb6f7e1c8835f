"""Sending a mail over SMTP with n8n's ``smtp`` credential, answering like nodemailer's ``sendMail``.

The credential: ``host``, ``port``, ``user``, ``password``, ``secure`` (TLS from the start, n8n's default true),
``disableStartTls`` (with ``secure`` off: never upgrade; else STARTTLS when the server offers it, as
nodemailer does), ``hostName`` (the EHLO name). ``allowUnauthorizedCerts`` skips certificate checks.
The result is nodemailer's info: ``accepted``, ``rejected``, ``ehlo``, ``envelopeTime``, ``messageTime``,
``messageSize``, ``response``, ``envelope`` and ``messageId``. Blocking ``smtplib`` runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import email.policy
import json
import smtplib
import ssl
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage, MIMEPart
from email.utils import formatdate, getaddresses
from typing import Any

#: Seconds to connect and per command (nodemailer: 2 min connection, 10 min socket; shorter is kinder here).
TIMEOUT_S = 60.0


class SmtpSendError(Exception):
    """The server refused the mail or could not be reached; the message is nodemailer-like."""


@dataclass
class Attachment:
    """A file attached to the mail; ``cid`` makes it inline (``<img src="cid:…">``)."""

    filename: str
    content: bytes
    mime_type: str = "application/octet-stream"
    cid: str | None = None


@dataclass
class Mail:
    """What to send (nodemailer's ``mailOptions``); address fields are comma-separated lists."""

    from_: str
    to: str | None = None
    cc: str | None = None
    bcc: str | None = None
    reply_to: str | None = None
    subject: str | None = None
    text: str | None = None
    html: str | None = None
    attachments: list[Attachment] = field(default_factory=list)


def to_mail_string(value: Any) -> str | None:
    """n8n's ``toMailString``: ``None`` stays ``None``, scalars become text, anything else JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, separators=(",", ":"))


def addresses(value: str | None) -> list[str]:
    """The bare addresses of a comma-separated list (``Ann <ann@x>, bob@x`` → ``[ann@x, bob@x]``)."""
    return [address for _, address in getaddresses([value or ""]) if address]


def build_message(mail: Mail) -> EmailMessage:
    """The MIME message: text and/or HTML (alternative), inline attachments, file attachments."""
    message = EmailMessage()
    for header, value in (("From", mail.from_), ("To", mail.to), ("Cc", mail.cc), ("Reply-To", mail.reply_to)):
        if value:
            message[header] = value
    message["Subject"] = mail.subject or ""
    message["Message-ID"] = f"<{uuid.uuid4()}@{_domain(mail.from_)}>"
    message["Date"] = formatdate(localtime=False, usegmt=False)
    if mail.text is not None or mail.html is None:
        message.set_content(mail.text or "")
    if mail.html is not None:
        if mail.text is not None:
            message.add_alternative(mail.html, subtype="html")
        else:
            message.set_content(mail.html, subtype="html")
    inline = [a for a in mail.attachments if a.cid is not None]
    related = message.get_body(preferencelist=("html",)) if inline else None
    for attachment in inline:  # beside the HTML that shows them (multipart/related), as nodemailer does
        _attach(related if related is not None else message, attachment)
    for attachment in mail.attachments:
        if attachment.cid is None:
            _attach(message, attachment)
    return message


def _attach(target: MIMEPart, attachment: Attachment) -> None:
    maintype, _, subtype = attachment.mime_type.partition("/")
    maintype, subtype = maintype or "application", subtype or "octet-stream"
    if attachment.cid is None:
        target.add_attachment(attachment.content, maintype=maintype, subtype=subtype, filename=attachment.filename)
        return
    target.add_related(
        attachment.content, maintype=maintype, subtype=subtype, filename=attachment.filename,
        cid=f"<{attachment.cid}>", disposition="inline",
    )  # fmt: skip


async def send_mail(credentials: Mapping[str, Any], mail: Mail, *, allow_unauthorized: bool = False) -> dict[str, Any]:
    """Send ``mail`` and return nodemailer's info; raises :class:`SmtpSendError`."""
    return await asyncio.to_thread(_send_blocking, dict(credentials), mail, allow_unauthorized)


def _send_blocking(credentials: dict[str, Any], mail: Mail, allow_unauthorized: bool) -> dict[str, Any]:
    sender = (addresses(mail.from_) or [""])[0]
    recipients = addresses(mail.to) + addresses(mail.cc) + addresses(mail.bcc)
    if not recipients:
        raise SmtpSendError("No recipients defined")
    message = build_message(mail)
    raw = message.as_bytes(policy=email.policy.SMTP)  # CRLF lines, so dot-stuffing works
    try:
        with _connect(credentials, allow_unauthorized) as client:
            ehlo = _ehlo_lines(client)
            started = time.monotonic()
            client.mail(sender)
            accepted, rejected = _recipients(client, recipients)
            envelope_ms = round((time.monotonic() - started) * 1000)
            started = time.monotonic()
            code, reply = client.data(raw)
            message_ms = round((time.monotonic() - started) * 1000)
    except (smtplib.SMTPException, OSError) as error:
        raise SmtpSendError(_describe(error)) from None
    if code != 250:
        raise SmtpSendError(f"Message failed: {code} {reply.decode(errors='replace')}")
    return {
        "accepted": accepted,
        "rejected": rejected,
        "ehlo": ehlo,
        "envelopeTime": envelope_ms,
        "messageTime": message_ms,
        "messageSize": len(raw),
        "response": f"{code} {reply.decode(errors='replace')}",
        "envelope": {"from": sender, "to": recipients},
        "messageId": str(message["Message-ID"]),
    }


def _connect(credentials: dict[str, Any], allow_unauthorized: bool) -> smtplib.SMTP:
    host = str(credentials.get("host") or "")
    secure = credentials.get("secure", True) is not False
    port = int(credentials.get("port") or (465 if secure else 587))
    name = credentials.get("hostName") if isinstance(credentials.get("hostName"), str) else None
    context = ssl.create_default_context()
    if allow_unauthorized:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    client: smtplib.SMTP
    if secure:
        client = smtplib.SMTP_SSL(host, port, local_hostname=name or None, timeout=TIMEOUT_S, context=context)
    else:
        client = smtplib.SMTP(host, port, local_hostname=name or None, timeout=TIMEOUT_S)
    try:
        client.ehlo()
        if not secure and credentials.get("disableStartTls") is not True and client.has_extn("starttls"):
            client.starttls(context=context)
            client.ehlo()
        user, password = credentials.get("user") or "", credentials.get("password") or ""
        if user or password:
            _login(client, str(user), str(password))
    except BaseException:
        client.close()
        raise
    return client


def _login(client: smtplib.SMTP, user: str, password: str) -> None:
    """One mechanism, as nodemailer: PLAIN where offered, else LOGIN, else CRAM-MD5 (no retries with others)."""
    offered = (client.esmtp_features.get("auth") or "").upper().split()
    client.user, client.password = user, password
    for mechanism, answer in (("PLAIN", client.auth_plain), ("LOGIN", client.auth_login)):
        if mechanism in offered:
            client.auth(mechanism, answer, initial_response_ok=mechanism == "PLAIN")
            return
    client.login(user, password)


def _ehlo_lines(client: smtplib.SMTP) -> list[str]:
    lines = (client.ehlo_resp or b"").decode(errors="replace").splitlines()
    return [line.strip() for line in lines[1:] if line.strip()]


def _recipients(client: smtplib.SMTP, recipients: list[str]) -> tuple[list[str], list[str]]:
    accepted: list[str] = []
    rejected: list[str] = []
    for recipient in recipients:
        code, _ = client.rcpt(recipient)
        (accepted if code in (250, 251) else rejected).append(recipient)
    if not accepted:
        raise SmtpSendError(f"Can't send mail - all recipients were rejected: {', '.join(rejected)}")
    return accepted, rejected


def _describe(error: BaseException) -> str:
    if isinstance(error, smtplib.SMTPAuthenticationError):
        return f"Invalid login: {error.smtp_code} {_text(error.smtp_error)}"
    if isinstance(error, smtplib.SMTPResponseException):
        return f"{error.smtp_code} {_text(error.smtp_error)}"
    if isinstance(error, ConnectionRefusedError):
        return f"connect ECONNREFUSED: {error}"
    return str(error) or type(error).__name__


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value


def _domain(address: str) -> str:
    bare = (addresses(address) or ["localhost"])[0]
    return bare.rsplit("@", 1)[-1] if "@" in bare else "localhost"


__all__ = ["Attachment", "Mail", "SmtpSendError", "addresses", "build_message", "send_mail", "to_mail_string"]
