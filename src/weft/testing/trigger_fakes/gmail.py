"""Gmail's message list and messages (``users/me/messages``, ``…/messages/<id>``, ``…/labels``) for the Gmail
Trigger's tests: the test delivers messages into :attr:`GmailState.messages`; a list honours ``after:<seconds>``
in ``q`` (inclusive, as Gmail's day-less ``after:`` with seconds is) and ``maxResults``, newest first."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "www.googleapis.com"
TOKEN = "gmail-trigger-token"
LABELS = [{"id": "INBOX", "name": "INBOX"}, {"id": "UNREAD", "name": "UNREAD"}, {"id": "DRAFT", "name": "DRAFT"}]


@dataclass
class GmailState:
    messages: list[dict[str, Any]] = field(default_factory=list)
    lists: list[dict[str, str]] = field(default_factory=list)
    """The queries of the list calls, in order."""
    fail_list: bool = False

    def deliver(self, message_id: str, seconds: int, subject: str, labels: list[str] | None = None) -> None:
        self.messages.append(
            {"id": message_id, "seconds": seconds, "subject": subject, "labels": labels or ["INBOX", "UNREAD"]}
        )


def _unauthorized() -> ApiReply:
    error = {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}
    return json_error(401, {"error": error})


def _message(entry: dict[str, Any], fmt: str) -> dict[str, Any]:
    base = {
        "id": entry["id"],
        "threadId": entry["id"],
        "labelIds": entry["labels"],
        "snippet": f"Body of {entry['subject']}",
        "sizeEstimate": 1024,
        "historyId": "1000",
        "internalDate": str(entry["seconds"] * 1000),
    }
    if fmt == "raw":
        mime = f"From: Ada <ada@example.com>\r\nTo: bob@example.com\r\nSubject: {entry['subject']}\r\n\r\nHello\r\n"
        return {**base, "raw": base64.urlsafe_b64encode(mime.encode()).decode().rstrip("=")}
    headers = [
        {"name": "From", "value": "Ada <ada@example.com>"},
        {"name": "To", "value": "bob@example.com"},
        {"name": "Subject", "value": entry["subject"]},
    ]
    return {**base, "payload": {"mimeType": "text/plain", "headers": headers}}


def install(server: FakeApiServer, token: str = TOKEN) -> GmailState:
    state = GmailState()

    def authorized(request: ApiRequest) -> bool:
        return request.headers.get("authorization") == f"Bearer {token}"

    def listing(request: ApiRequest) -> ApiReply:
        if not authorized(request):
            return _unauthorized()
        state.lists.append(dict(request.query))
        if state.fail_list:
            return json_error(500, {"error": {"code": 500, "message": "Backend Error", "status": "INTERNAL"}})
        after = re.search(r"after:(\d+)", request.query.get("q", ""))
        found = [m for m in state.messages if after is None or m["seconds"] >= int(after.group(1))]
        found.sort(key=lambda m: m["seconds"], reverse=True)
        found = found[: int(request.query.get("maxResults", "100"))]
        body: dict[str, Any] = {"resultSizeEstimate": len(found)}
        if found:
            body["messages"] = [{"id": m["id"], "threadId": m["id"]} for m in found]
        return ApiReply(body=body)

    def one(request: ApiRequest) -> ApiReply:
        if not authorized(request):
            return _unauthorized()
        for entry in state.messages:
            if entry["id"] == request.params["id"]:
                return ApiReply(body=_message(entry, request.query.get("format", "full")))
        return json_error(
            404, {"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND"}}
        )

    def labels(request: ApiRequest) -> ApiReply:
        return ApiReply(body={"labels": LABELS}) if authorized(request) else _unauthorized()

    server.route("GET", r"/gmail/v1/users/me/messages", listing, host=HOST)
    server.route("GET", r"/gmail/v1/users/me/messages/(?P<id>[^/]+)", one, host=HOST)
    server.route("GET", r"/gmail/v1/users/me/labels", labels, host=HOST)
    return state


def credential_data(token: str = TOKEN) -> dict[str, Any]:
    return {
        "clientId": "gmail-client.apps.googleusercontent.com",
        "clientSecret": "gmail-secret",
        "oauthTokenData": {"access_token": token, "token_type": "Bearer"},
    }
