"""The threads of the fake Gmail API (:mod:`weft.testing.saas.gmail`): list (the message filters, one entry per
thread), get (every message, oldest first, in the format asked), modify, trash, untrash and delete."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._gmail_common import authorized, checked_id, modified_labels, not_found, paged
from weft.testing.saas._gmail_data import MESSAGES, Message
from weft.testing.saas._gmail_format import formatted_message
from weft.testing.saas._gmail_messages import matches


def _thread_messages(thread_id: str) -> list[Message]:
    checked_id(thread_id)
    found = sorted((m for m in MESSAGES if m.thread_id == thread_id), key=lambda m: m.internal_date)
    require(bool(found), not_found())
    return found


def list_threads(request: ApiRequest) -> ApiReply:
    authorized(request)
    ids = list(dict.fromkeys(m.thread_id for m in MESSAGES if matches(m, request)))
    page, token = paged(ids, request)
    body: dict[str, Any] = {}
    if page:
        body["threads"] = [_thread_head(thread_id) for thread_id in page]
    if token:
        body["nextPageToken"] = token
    body["resultSizeEstimate"] = len(ids)
    return ApiReply(body=body)


def _thread_head(thread_id: str) -> dict[str, Any]:
    last = _thread_messages(thread_id)[-1]
    return {"id": thread_id, "snippet": last.snippet, "historyId": last.history_id}


def get_thread(request: ApiRequest) -> ApiReply:
    authorized(request)
    messages = _thread_messages(request.params["id"])
    formatted = [formatted_message(m, request) for m in messages]
    return ApiReply(body={"id": request.params["id"], "historyId": messages[-1].history_id, "messages": formatted})


def modify_thread(request: ApiRequest) -> ApiReply:
    authorized(request)
    messages = _thread_messages(request.params["id"])
    body = request.body if isinstance(request.body, dict) else {}
    out = [{"id": m.id, "threadId": m.thread_id, "labelIds": modified_labels(m.labels, body)} for m in messages]
    return ApiReply(body={"id": request.params["id"], "messages": out})


def trash_thread(request: ApiRequest) -> ApiReply:
    authorized(request)
    messages = _thread_messages(request.params["id"])
    untrash = request.path.endswith("/untrash")
    change = {"removeLabelIds": ["TRASH"]} if untrash else {"addLabelIds": ["TRASH"]}
    out = [{"id": m.id, "threadId": m.thread_id, "labelIds": modified_labels(m.labels, change)} for m in messages]
    return ApiReply(body={"id": request.params["id"], "messages": out})


def delete_thread(request: ApiRequest) -> ApiReply:
    authorized(request)
    _thread_messages(request.params["id"])
    return ApiReply(status=204)


__all__ = ["delete_thread", "get_thread", "list_threads", "modify_thread", "trash_thread"]
