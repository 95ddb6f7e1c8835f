"""Gmail's draft operations (n8n's ``GmailV2`` ``draft`` branch and ``v2/utils/draft.ts``): create, delete, get,
getAll."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.gmail import _compose as compose
from weft.library.google.gmail._api import GmailApi
from weft.library.google.gmail._parse import parsed_email
from weft.nodes.contract import ExecuteContext

DRAFTS = "/gmail/v1/users/me/drafts"
_ID = ["Message-ID"]


async def run(ctx: ExecuteContext, api: GmailApi, operation: str, index: int) -> list[Any]:
    p = api.params
    if operation == "create":
        return [await create(ctx, api, index)]
    if operation == "delete":
        await api.request("DELETE", f"{DRAFTS}/{p.get('messageId', index)}", None, None, index)
        return [{"success": True}]
    options = dict(p.get("options", index, {}) or {})
    prefix = str(options.get("dataPropertyAttachmentsPrefixName") or "attachment_")
    if operation == "get":
        return [await _draft(ctx, api, str(p.get("messageId", index)), prefix, {"format": "raw"}, index)]
    if operation == "getAll":
        qs = dict(options)
        if p.get("returnAll", index, False):
            listed = await api.request_all("drafts", DRAFTS, qs, index)
            qs["maxResults"] = 100
        else:
            qs["maxResults"] = p.get("limit", index, 50)
            listed = (await api.request("GET", DRAFTS, None, qs, index)).get("drafts") or []
        qs["format"] = "raw"
        return [await _draft(ctx, api, str(entry["id"]), prefix, qs, index) for entry in listed]
    raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not known', item_index=index)


async def _draft(ctx: ExecuteContext, api: GmailApi, draft_id: str, prefix: str, qs: dict[str, Any], index: int) -> Any:
    answer = await api.request("GET", f"{DRAFTS}/{draft_id}", None, qs, index)
    item = await parsed_email(ctx, api.params, answer.get("message") or {}, prefix)
    item["json"]["messageId"] = item["json"].get("id")
    item["json"]["id"] = answer.get("id")
    return item


async def create(ctx: ExecuteContext, api: GmailApi, index: int) -> Any:
    p = api.params
    options = dict(p.get("options", index, {}) or {})
    fields: dict[str, str] = {}
    for option, field_name, key in (("sendTo", "To", "to"), ("ccList", "CC", "cc"), ("bccList", "BCC", "bcc"),
                                    ("replyTo", "ReplyTo", "reply_to")):  # fmt: skip
        if options.get(option):
            fields[key] = compose.emails_input(ctx, options[option], field_name, index)
    thread_id = (
        options.get("threadId") if isinstance(options.get("threadId"), str) and options.get("threadId") else None
    )
    attachments = await compose.attachments(ctx, options, index) if options.get("attachmentsUi") else []
    qs = {"userId": "me", "uploadType": "media"} if attachments else {}
    text, html = compose.email_body(p.get("emailType", index), p.get("message", index, ""))
    subject = p.get("subject", index)
    email = compose.Email(subject="" if subject is None else str(subject), sender=str(options.get("fromAlias") or ""),
                          body=text, html=html, attachments=attachments, **fields)  # fmt: skip
    if thread_id:
        await _thread_headers(api, email, thread_id, index)
    message: dict[str, Any] = {"raw": compose.encode(email)}
    if thread_id:
        message["threadId"] = thread_id
    return await api.request("POST", DRAFTS, {"message": message}, qs, index)


async def _thread_headers(api: GmailApi, email: compose.Email, thread_id: str, index: int) -> None:
    """n8n's ``addThreadHeadersToEmail``: reply to the thread's last message (its ``Message-ID``)."""
    thread = await api.request(
        "GET", f"/gmail/v1/users/me/threads/{thread_id}", None, {"format": "metadata", "metadataHeaders": _ID},
        index,
    )  # fmt: skip
    messages = thread.get("messages") or []
    if not messages:
        return
    headers = (messages[-1].get("payload") or {}).get("headers") or []
    found = next((h.get("value") for h in headers if str(h.get("name", "")).lower() == "message-id"), None)
    if found:
        email.in_reply_to = str(found)  # n8n sets `references`, which its encoder never reads


__all__ = ["run"]
