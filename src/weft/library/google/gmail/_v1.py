"""Gmail 1 (n8n's ``GmailV1``): messages (send, reply, get, getAll, delete), message labels (add, remove), labels
and drafts, with lists of addresses (``toList``, ``additionalFields.ccList`` …), the ``format`` option
(``resolved``: the parsed mail; ``ids``, ``minimal``, ``full``, ``metadata``, ``raw``: Gmail's answer) and
``senderName`` as the whole ``From``. A reply's ``In-Reply-To`` is the Gmail id, as n8n 1 wrote it. Under
"continue" an item's error becomes ``{error}`` as it is."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.gmail import _compose as compose
from weft.library.google.gmail import _labels
from weft.library.google.gmail._api import GmailApi
from weft.library.google.gmail._parse import parsed_email
from weft.nodes.contract import ExecuteContext

ME = "/gmail/v1/users/me"


async def run(ctx: ExecuteContext, api: GmailApi, resource: str, operation: str, index: int) -> list[Any]:
    p = api.params
    if resource == "label":
        if operation == "create":
            body = {"labelListVisibility": p.get("labelListVisibility", index, "labelShow"),
                    "messageListVisibility": p.get("messageListVisibility", index, "show"),
                    "name": p.get("name", index)}  # fmt: skip
            return [await api.request("POST", f"{ME}/labels", body, None, index)]
        return await _labels.run(ctx, api, operation, index)
    if resource == "messageLabel" and operation in ("add", "remove"):
        key = "addLabelIds" if operation == "add" else "removeLabelIds"
        endpoint = f"{ME}/messages/{p.get('messageId', index)}/modify"
        return [await api.request("POST", endpoint, {key: p.get("labelIds", index, [])}, None, index)]
    if resource == "message" and operation in ("send", "reply"):
        return [await _send(ctx, api, operation == "reply", index)]
    if resource in ("message", "draft") and operation in ("get", "getAll", "delete"):
        return await _read(ctx, api, resource, operation, index)
    if resource == "draft" and operation == "create":
        return [await _send(ctx, api, False, index, draft=True)]
    raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not known', item_index=index)


def _listed(value: Any) -> str:
    items = value if isinstance(value, list) else [] if value in (None, "") else [value]
    return "".join(f"<{email}>, " for email in items)


async def _send(ctx: ExecuteContext, api: GmailApi, is_reply: bool, index: int, *, draft: bool = False) -> Any:
    p = api.params
    fields = dict(p.get("additionalFields", index, {}) or {})
    attachments = await compose.attachments(ctx, fields, index) if fields.get("attachmentsUi") else []
    qs: dict[str, Any] = {"userId": "me", "uploadType": "media"} if fields.get("attachmentsUi") else {}
    to = _listed(fields.get("toList") if draft else p.get("toList", index, []))
    html = str(p.get("htmlMessage", index, "") or "") if p.get("includeHtml", index, False) else ""
    message = p.get("message", index, "")
    email = compose.Email(subject=str(p.get("subject", index, "") or ""), sender=str(fields.get("senderName") or ""),
                          to=to, cc=_listed(fields.get("ccList")), bcc=_listed(fields.get("bccList")),
                          body="" if message is None else str(message), html=html, attachments=attachments)  # fmt: skip
    if draft:
        return await api.request("POST", f"{ME}/drafts", {"message": {"raw": compose.encode(email)}}, qs, index)
    body: dict[str, Any] = {}
    if is_reply:
        message_id = str(p.get("messageId", index))
        found = await api.request("GET", f"{ME}/messages/{message_id}", None, {**qs, "format": "metadata"}, index)
        headers = (found.get("payload") or {}).get("headers") or []
        if not email.to:
            sender = next((str(h.get("value")) for h in headers if h.get("name") == "From"), "")
            email.to = f"<{_extract(sender)}>," if sender else ""
        email.subject = next((str(h.get("value") or "") for h in headers if h.get("name") == "Subject"), "")
        email.references = next((str(h.get("value") or "") for h in headers if h.get("name") == "References"), "")
        email.in_reply_to = message_id
        body["threadId"] = p.get("threadId", index)
        qs["format"] = "metadata"
    return await api.request("POST", f"{ME}/messages/send", {"raw": compose.encode(email), **body}, qs, index)


def _extract(value: str) -> str:
    """n8n's ``extractEmail``: the address between ``<`` and the last character."""
    return value.split("<")[1][:-1] if "<" in value else value


async def _read(ctx: ExecuteContext, api: GmailApi, resource: str, operation: str, index: int) -> list[Any]:
    p = api.params
    collection = f"{ME}/{resource}s"
    if operation == "delete":
        await api.request("DELETE", f"{collection}/{p.get('messageId', index)}", None, None, index)
        return [{"success": True}]
    fields = dict(p.get("additionalFields", index, {}) or {})
    form = str(fields.get("format") or "resolved")
    prefix = str(fields.get("dataPropertyAttachmentsPrefixName") or "attachment_")
    if operation == "get":
        return [await _one(ctx, api, resource, str(p.get("messageId", index)), form, prefix, {}, index)]
    qs = dict(fields)
    if resource == "message" and qs.get("labelIds") == "":
        del qs["labelIds"]
    key = f"{resource}s"
    if p.get("returnAll", index, False):
        listed = await api.request_all(key, collection, qs, index)
        qs["maxResults"] = 100
    else:
        qs["maxResults"] = p.get("limit", index, 10)
        listed = (await api.request("GET", collection, None, qs, index)).get(key) or []
    if form == "ids":
        return list(listed)
    return [await _one(ctx, api, resource, str(entry["id"]), form, prefix, qs, index) for entry in listed]


async def _one(
    ctx: ExecuteContext, api: GmailApi, resource: str, item_id: str, form: str, prefix: str, qs: dict[str, Any],
    index: int,
) -> Any:  # fmt: skip
    query = {**qs, "format": "raw" if form == "resolved" else form}
    answer = await api.request("GET", f"{ME}/{resource}s/{item_id}", None, query, index)
    if form != "resolved":
        return answer
    if resource == "message":
        return await parsed_email(ctx, api.params, answer, prefix)
    item = await parsed_email(ctx, api.params, answer.get("message") or {}, prefix)
    item["json"]["messageId"] = item["json"].get("id")
    item["json"]["id"] = answer.get("id")
    return item


__all__ = ["run"]
