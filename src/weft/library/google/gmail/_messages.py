"""Gmail's message operations (n8n's ``GmailV2`` ``message`` branch and ``utils/replyToEmail.ts``): send, reply,
get, getAll, delete, markAsRead, markAsUnread, addLabels, removeLabels."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.gmail import _compose as compose
from weft.library.google.gmail._api import GmailApi
from weft.library.google.gmail._parse import parsed_email
from weft.nodes.contract import ExecuteContext

ME = "/gmail/v1/users/me"
METADATA_HEADERS = ["From", "To", "Cc", "Bcc", "Subject"]


async def run(ctx: ExecuteContext, api: GmailApi, operation: str, index: int) -> list[Any]:
    p = api.params
    if operation == "send":
        return [await send(ctx, api, index)]
    if operation == "reply":
        return [await reply(ctx, api, str(p.get("messageId", index)), index)]
    if operation == "get":
        return [await get(ctx, api, index)]
    if operation == "getAll":
        return await get_all(ctx, api, index)
    message_id = str(p.get("messageId", index))
    if operation == "delete":
        await api.request("DELETE", f"{ME}/messages/{message_id}", None, None, index)
        return [{"success": True}]
    change = {
        "markAsRead": {"removeLabelIds": ["UNREAD"]},
        "markAsUnread": {"addLabelIds": ["UNREAD"]},
        "addLabels": {"addLabelIds": p.get("labelIds", index, [])},
        "removeLabels": {"removeLabelIds": p.get("labelIds", index, [])},
    }.get(operation)
    if change is None:
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not known', item_index=index)
    return [await api.request("POST", f"{ME}/messages/{message_id}/modify", change, None, index)]


def _attribution(ctx: ExecuteContext, options: dict[str, Any]) -> bool:
    given = options.get("appendAttribution")
    return float(ctx.node.typeVersion) >= 2.1 if given is None else bool(given)


async def _addresses(ctx: ExecuteContext, options: dict[str, Any], index: int) -> dict[str, str]:
    found = {}
    for option, field_name, key in (
        ("ccList", "CC", "cc"),
        ("bccList", "BCC", "bcc"),
        ("replyTo", "ReplyTo", "reply_to"),
    ):
        if options.get(option):
            found[key] = compose.emails_input(ctx, options[option], field_name, index)
    return found


async def _profile_address(api: GmailApi, index: int) -> str:
    answer = await api.request("GET", f"{ME}/profile", None, None, index)
    return str(answer.get("emailAddress"))


async def send(ctx: ExecuteContext, api: GmailApi, index: int) -> Any:
    p = api.params
    options = dict(p.get("options", index, {}) or {})
    to = compose.emails_input(ctx, p.get("sendTo", index), "To", index)
    addresses = await _addresses(ctx, options, index)
    attachments = await compose.attachments(ctx, options, index) if options.get("attachmentsUi") else []
    qs = {"userId": "me", "uploadType": "media"} if attachments else {}
    sender = ""
    if options.get("senderName"):
        sender = f"{options['senderName']} <{await _profile_address(api, index)}>"
    text, html = compose.email_body(p.get("emailType", index), p.get("message", index, ""), _attribution(ctx, options))
    email = compose.Email(subject=_text(p.get("subject", index)), sender=sender, to=to, body=text, html=html,
                          attachments=attachments, **addresses)  # fmt: skip
    return await api.request("POST", f"{ME}/messages/send", {"raw": compose.encode(email)}, qs, index)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


async def reply(ctx: ExecuteContext, api: GmailApi, message_id: str, index: int) -> Any:
    """n8n's ``replyToEmail``: to the sender (or ``Reply-To`` from 2.2) and the other recipients, in the thread."""
    p = api.params
    options = dict(p.get("options", index, {}) or {})
    if options.get("replyToSenderOnly") and options.get("replyToRecipientsOnly"):
        raise NodeOperationError(
            ctx.node.name,
            'Both "Reply to Sender Only" and "Reply to Recipient Only" cannot be enabled at the same time. Please '
            "select only one option.",
            item_index=index,
        )
    addresses = await _addresses(ctx, {k: v for k, v in options.items() if k != "replyTo"}, index)
    attachments = await compose.attachments(ctx, options, index) if options.get("attachmentsUi") else []
    qs: dict[str, Any] = {"userId": "me", "uploadType": "media"} if attachments else {}
    original = await api.request("GET", f"{ME}/messages/{message_id}", None, {**qs, "format": "metadata"}, index)
    headers = (original.get("payload") or {}).get("headers") or []
    subject = _header(headers, "subject")
    message_id_header = _header(headers, "message-id")
    own = await _profile_address(api, index)
    to = ", ".join(dict.fromkeys(_recipients(headers, options, own, float(ctx.node.typeVersion))))
    sender = f"{options['senderName']} <{own}>" if options.get("senderName") else ""
    text, html = compose.email_body(p.get("emailType", index), p.get("message", index, ""))
    email = compose.Email(subject=subject, sender=sender, to=to, in_reply_to=message_id_header,
                          references=message_id_header, body=text, html=html, attachments=attachments,
                          **addresses)  # fmt: skip
    body = {"raw": compose.encode(email), "threadId": original.get("threadId")}
    return await api.request("POST", f"{ME}/messages/send", body, {**qs, "format": "metadata"}, index)


def _header(headers: list[dict[str, Any]], name: str) -> str:
    return next((str(h.get("value") or "") for h in headers if str(h.get("name", "")).lower() == name), "")


def _recipients(headers: list[dict[str, Any]], options: dict[str, Any], own: str, version: float) -> list[str]:
    from email.utils import getaddresses

    sender_only, recipients_only = bool(options.get("replyToSenderOnly")), bool(options.get("replyToRecipientsOnly"))
    reply_header = "from"
    if version >= 2.2 and any(str(h.get("name", "")).lower() == "reply-to" for h in headers):
        reply_header = "reply-to"
    to: list[str] = []
    for header in headers:
        name = str(header.get("name") or "").lower()
        for wanted, exclude_self, skip in ((reply_header, False, recipients_only), ("to", True, sender_only)):
            if name != wanted or skip:
                continue
            for display, address in getaddresses([str(header.get("value") or "")]):
                if not address or (exclude_self and address.lower() == own.lower()):
                    continue
                to.append(f"{_display(display)} <{address}>" if display else f"<{address}>")
    return to


def _display(name: str) -> str:
    """A display name with an RFC 5322 special, quoted (as n8n's ``formatDisplayName``)."""
    if any(c in name for c in '"(),:;<>@[]\\'):
        return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return name


def _format_query(simple: bool) -> dict[str, Any]:
    return {"format": "metadata", "metadataHeaders": METADATA_HEADERS} if simple else {"format": "raw"}


async def get(ctx: ExecuteContext, api: GmailApi, index: int) -> Any:
    p = api.params
    message_id = str(p.get("messageId", index))
    options = dict(p.get("options", index, {}) or {})
    simple = bool(p.get("simple", index, True))
    answer = await api.request("GET", f"{ME}/messages/{message_id}", None, _format_query(simple), index)
    if not simple:
        prefix = str(options.get("dataPropertyAttachmentsPrefixName") or "attachment_")
        return await parsed_email(ctx, api.params, answer, prefix)
    return {"json": (await api.simplified([answer], index))[0]}


async def get_all(ctx: ExecuteContext, api: GmailApi, index: int) -> list[Any]:
    p = api.params
    options = dict(p.get("options", index, {}) or {})
    qs = prepare_query(ctx, dict(p.get("filters", index, {}) or {}), index)
    endpoint = f"{ME}/messages"
    if p.get("returnAll", index, False):
        listed = await api.request_all("messages", endpoint, qs, index)
    else:
        listed = (await api.request("GET", endpoint, None, {**qs, "maxResults": p.get("limit", index, 50)}, index)).get(
            "messages"
        ) or []
    simple = bool(p.get("simple", index, True))
    query = {**qs, **_format_query(simple)}
    if p.get("returnAll", index, False):
        query["maxResults"] = 100
    else:
        query["maxResults"] = p.get("limit", index, 50)
    found = [await api.request("GET", f"{endpoint}/{entry['id']}", None, query, index) for entry in listed]
    if simple:
        return await api.simplified(found, index)
    prefix = str(options.get("dataPropertyAttachmentsPrefixName") or "attachment_")
    return [await parsed_email(ctx, api.params, answer, prefix) for answer in found]


def prepare_query(ctx: ExecuteContext, fields: dict[str, Any], index: int) -> dict[str, Any]:
    """n8n's ``prepareQuery``: ``sender``, ``readStatus`` and the received dates folded into ``q``."""
    from weft.library.google.gmail._dates import timestamp_query

    qs = dict(fields)
    if qs.get("labelIds") == "":
        del qs["labelIds"]
    if qs.get("sender"):
        qs["q"] = f"{qs['q']} from:{qs['sender']}" if qs.get("q") else f"from:{qs['sender']}"
    qs.pop("sender", None)
    status = qs.pop("readStatus", None)
    if status and status != "both":
        qs["q"] = f"{qs['q']} is:{status}" if qs.get("q") else f"is:{status}"
    for key, label in (("receivedAfter", "after"), ("receivedBefore", "before")):
        value = qs.pop(key, None)
        if value:
            qs["q"] = timestamp_query(ctx, index, qs.get("q"), value, label)
    return qs


__all__ = ["prepare_query", "reply", "run"]
