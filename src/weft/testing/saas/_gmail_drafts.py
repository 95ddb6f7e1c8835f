"""The drafts of the fake Gmail API (:mod:`weft.testing.saas.gmail`): create (answered from the request, the mail
kept in ``sent`` as ``{"draft": summary}``), get, list and delete the seeded draft."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._gmail_common import authorized, find_message, not_found, paged
from weft.testing.saas._gmail_data import DRAFTS
from weft.testing.saas._gmail_format import formatted_message
from weft.testing.saas._gmail_sending import decoded_mail, sent_id, summary


def create_draft(request: ApiRequest, sent: list[Any]) -> ApiReply:
    authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    given = body.get("message") if isinstance(body.get("message"), dict) else {}
    assert isinstance(given, dict)
    decoded = summary(decoded_mail(given.get("raw")))
    sent.append({"draft": decoded})
    message_id = sent_id(decoded, "draft")
    thread_id = str(given.get("threadId") or message_id)
    message = {"id": message_id, "threadId": thread_id, "labelIds": ["DRAFT"]}
    draft = {"id": "r" + str(int(message_id[2:], 16) % 10**18), "message": message}
    return ApiReply(body=draft)


def _draft(draft_id: str) -> dict[str, Any]:
    found = next((d for d in DRAFTS if d["id"] == draft_id), None)
    require(found is not None, not_found())
    assert found is not None
    return found


def get_draft(request: ApiRequest) -> ApiReply:
    authorized(request)
    draft = _draft(request.params["id"])
    message = find_message(str(draft["message"]))
    return ApiReply(body={"id": draft["id"], "message": formatted_message(message, request)})


def list_drafts(request: ApiRequest) -> ApiReply:
    authorized(request)
    page, token = paged(DRAFTS, request)
    body: dict[str, Any] = {}
    if page:
        body["drafts"] = [{"id": d["id"], "message": {"id": d["message"], "threadId": d["message"]}} for d in page]
    if token:
        body["nextPageToken"] = token
    body["resultSizeEstimate"] = len(DRAFTS)
    return ApiReply(body=body)


def delete_draft(request: ApiRequest) -> ApiReply:
    authorized(request)
    _draft(request.params["id"])
    return ApiReply(status=204)


__all__ = ["create_draft", "delete_draft", "get_draft", "list_drafts"]
