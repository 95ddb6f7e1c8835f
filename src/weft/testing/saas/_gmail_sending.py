"""Sending with the fake Gmail API (:mod:`weft.testing.saas.gmail`): the ``raw`` mail decoded, its :func:`summary`
kept and hashed into the sent id, so a mail built differently gets another id."""

from __future__ import annotations

import base64
import hashlib
import json
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._gmail_common import authorized, error


def decoded_mail(raw: Any) -> EmailMessage:
    missing = "'raw' RFC822 payload message string or uploading message via /upload/* URL required"
    require(isinstance(raw, str) and raw != "", error(400, missing, "invalidArgument", "INVALID_ARGUMENT"))
    data = base64.urlsafe_b64decode(str(raw) + "=" * (-len(str(raw)) % 4))
    message = message_from_bytes(data, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def summary(message: EmailMessage) -> dict[str, Any]:
    """The decoded mail (what the sent id is a hash of): addresses as ``[name, address]`` pairs, the subject and
    references, each body part's text (by content type, trailing newlines left out) and each attachment's name, type
    and content hash."""
    out: dict[str, Any] = {}
    for name in ("From", "To", "Cc", "Bcc", "Reply-To"):
        if message[name] is not None:
            out[name] = [list(pair) for pair in getaddresses([str(message[name])])]
    for name in ("Subject", "In-Reply-To", "References"):
        if message[name] is not None:
            out[name] = str(message[name])
    for part in message.walk():
        if part.is_multipart():
            continue
        data = part.get_payload(decode=True) or b""
        assert isinstance(data, bytes)
        filename = part.get_filename()
        if filename:
            out.setdefault("attachments", []).append(
                {"name": filename, "type": part.get_content_type(), "sha1": hashlib.sha1(data).hexdigest()}
            )
        else:
            out[part.get_content_type()] = data.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n")
    return out


def sent_id(decoded: dict[str, Any], salt: str) -> str:
    text = json.dumps(decoded, sort_keys=True) + salt
    return "19" + hashlib.sha1(text.encode()).hexdigest()[:14]


def send_message(request: ApiRequest, sent: list[Any]) -> ApiReply:
    authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    message = decoded_mail(body.get("raw"))
    decoded = summary(message)
    require(
        any(message[h] for h in ("To", "Cc", "Bcc")),
        error(400, "Invalid To header", "invalidArgument", "FAILED_PRECONDITION"),
    )
    sent.append(decoded)
    message_id = sent_id(decoded, "")
    thread_id = str(body.get("threadId") or message_id)
    return ApiReply(body={"id": message_id, "threadId": thread_id, "labelIds": ["SENT"]})


__all__ = ["decoded_mail", "send_message", "sent_id", "summary"]
