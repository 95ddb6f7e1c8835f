"""The messages of the fake Gmail API (:mod:`weft.testing.saas.gmail`): list (``labelIds``, ``includeSpamTrash``
and the ``q`` terms ``from:``, ``to:``, ``subject:``, ``is:``, ``label:``, ``after:``, ``before:`` and words), get,
delete and modify (labels)."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest
from weft.testing.saas._gmail_common import authorized, find_message, modified_labels, paged
from weft.testing.saas._gmail_data import LABELS, MESSAGES, Message
from weft.testing.saas._gmail_format import formatted_message


def matches(message: Message, request: ApiRequest) -> bool:
    labels = [v for k, v in request.query_pairs if k == "labelIds"]
    if any(label not in message.labels for label in labels):
        return False
    if request.query.get("includeSpamTrash") != "true" and {"SPAM", "TRASH"} & set(message.labels):
        return False
    if "DRAFT" in message.labels and "DRAFT" not in labels:
        return False
    return all(_term(message, term) for term in (request.query.get("q") or "").split())


def _term(message: Message, term: str) -> bool:
    field, _, value = term.partition(":")
    headers = {n.lower(): str(v).lower() for n, v in message.parsed().raw_items()}
    if not value:
        return term.lower() in (headers.get("subject", "") + " " + message.snippet.lower())
    if field == "from":
        return value.lower() in headers.get("from", "")
    if field == "to":
        return value.lower() in headers.get("to", "")
    if field == "subject":
        return value.lower() in headers.get("subject", "")
    if field == "is":
        return {"unread": "UNREAD" in message.labels, "read": "UNREAD" not in message.labels}.get(value, True)
    if field == "label":
        return any(value.lower() in (lbl.lower(), _label_name(lbl).lower()) for lbl in message.labels)
    if field == "after":
        return int(message.internal_date) // 1000 > int(value)
    if field == "before":
        return int(message.internal_date) // 1000 < int(value)
    return True


def _label_name(label_id: str) -> str:
    return next((str(lbl["name"]) for lbl in LABELS if lbl["id"] == label_id), label_id)


def list_messages(request: ApiRequest) -> ApiReply:
    authorized(request)
    found = [m for m in MESSAGES if matches(m, request)]
    page, token = paged(found, request)
    body: dict[str, Any] = {}
    if page:
        body["messages"] = [{"id": m.id, "threadId": m.thread_id} for m in page]
    if token:
        body["nextPageToken"] = token
    body["resultSizeEstimate"] = len(found)
    return ApiReply(body=body)


def get_message(request: ApiRequest) -> ApiReply:
    authorized(request)
    return ApiReply(body=formatted_message(find_message(request.params["id"]), request))


def delete_message(request: ApiRequest) -> ApiReply:
    authorized(request)
    find_message(request.params["id"])
    return ApiReply(status=204)


def modify_message(request: ApiRequest) -> ApiReply:
    authorized(request)
    message = find_message(request.params["id"])
    body = request.body if isinstance(request.body, dict) else {}
    labels = modified_labels(message.labels, body)
    return ApiReply(body={"id": message.id, "threadId": message.thread_id, "labelIds": labels})


__all__ = ["delete_message", "get_message", "list_messages", "matches", "modify_message"]
