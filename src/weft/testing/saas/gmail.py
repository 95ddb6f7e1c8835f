"""A fake Gmail API (``/gmail/v1/users/me/...`` on ``www.googleapis.com``, where n8n's Gmail node sends it, and
on ``gmail.googleapis.com``), as Gmail answers: bearer-token auth (:data:`TOKEN`, or the service account token of
:mod:`weft.testing.saas.google_oauth`), Google's error bodies (401, 400 "Invalid id value" for an id that is no
hex, 404, 409 for a label name taken), 429 with ``Retry-After`` for the id ``ffffffffffff0429``, pages of at most
three messages or threads with ``nextPageToken``, the ``raw``, ``metadata`` (``metadataHeaders``), ``full`` and
``minimal`` formats.

Seeded: five messages in three threads, one draft, Gmail's system labels and two user labels. It keeps no state
that a case reads: a sent message or a created draft or label is answered from the request, its id a hash of the
decoded mail (recipients, subject, bodies, attachments; not the random boundaries, ``Date`` or ``Message-ID``), so
a mail built differently gets another id. What was sent is kept in ``server.state["gmail"]["sent"]`` (decoded) for
tests to read.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.saas._gmail_data import DRAFTS, LABELS, MESSAGES, PROFILE, Message

TOKEN = "gmail-test-token"
PAGE = 3
RATE_LIMITED = "ffffffffffff0429"
HOSTS = ("www.googleapis.com", "gmail.googleapis.com")
_PREFIX = "/gmail/v1/users/me"


def _error(status: int, message: str, reason: str, state: str, **headers: str) -> ApiReply:
    detail: dict[str, Any] = {"message": message, "domain": "global", "reason": reason}
    body = {"error": {"code": status, "message": message, "errors": [detail], "status": state}}
    return json_error(status, body, **headers)


def _authorized(request: ApiRequest) -> None:
    message = (
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other "
        "valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
    )
    from weft.testing.saas.google_oauth import SERVICE_ACCOUNT_TOKEN

    given = request.headers.get("authorization")
    require(
        given in (f"Bearer {TOKEN}", f"Bearer {SERVICE_ACCOUNT_TOKEN}"),
        _error(401, message, "authError", "UNAUTHENTICATED"),
    )


def _checked_id(value: str) -> None:
    if value == RATE_LIMITED:
        reply = _error(
            429, "User-rate limit exceeded.  Retry after 2024-01-01T00:00:30.000Z", "rateLimitExceeded",
            "RESOURCE_EXHAUSTED", **{"Retry-After": "30"},
        )  # fmt: skip
        require(False, reply)
    require(
        all(c in "0123456789abcdef" for c in value),
        _error(400, "Invalid id value", "invalidArgument", "INVALID_ARGUMENT"),
    )


def _not_found() -> ApiReply:
    return _error(404, "Requested entity was not found.", "notFound", "NOT_FOUND")


def _message(message_id: str) -> Message:
    _checked_id(message_id)
    found = next((m for m in MESSAGES if m.id == message_id), None)
    require(found is not None, _not_found())
    assert found is not None
    return found


# --------------------------------------------------------------------------- formats


def _formatted(message: Message, request: ApiRequest, labels: list[str] | None = None) -> dict[str, Any]:
    form = request.query.get("format") or "full"
    wanted = [v for k, v in request.query_pairs if k == "metadataHeaders"]
    out: dict[str, Any] = {"id": message.id, "threadId": message.thread_id}
    out["labelIds"] = list(labels if labels is not None else message.labels)
    out["snippet"] = message.snippet
    if form == "metadata":
        headers = [h for h in _headers(message) if not wanted or h["name"].lower() in {w.lower() for w in wanted}]
        out["payload"] = {"mimeType": message.parsed().get_content_type(), "headers": headers}
    elif form == "full":
        out["payload"] = _part(message.parsed(), "")
    out["sizeEstimate"] = len(message.raw)
    if form == "raw":
        out["raw"] = base64.urlsafe_b64encode(message.raw).decode()
    out["historyId"] = message.history_id
    out["internalDate"] = message.internal_date
    return out


def _headers(message: Message) -> list[dict[str, str]]:
    return [{"name": name, "value": str(value)} for name, value in message.parsed().raw_items()]


def _part(part: EmailMessage, part_id: str) -> dict[str, Any]:
    out: dict[str, Any] = {"partId": part_id, "mimeType": part.get_content_type()}
    out["filename"] = part.get_filename() or ""
    out["headers"] = [{"name": n, "value": str(v)} for n, v in part.raw_items()]
    if part.is_multipart():
        out["body"] = {"size": 0}
        children = list(part.iter_parts())
        prefix = f"{part_id}." if part_id else ""
        out["parts"] = [_part(child, f"{prefix}{i}") for i, child in enumerate(children)]  # type: ignore[arg-type]
        return out
    data = part.get_payload(decode=True) or b""
    assert isinstance(data, bytes)
    if out["filename"]:
        out["body"] = {"attachmentId": f"ANGjdJ{hashlib.sha1(data).hexdigest()[:20]}", "size": len(data)}
    else:
        out["body"] = {"size": len(data), "data": base64.urlsafe_b64encode(data).decode()}
    return out


# --------------------------------------------------------------------------- messages


def _matches(message: Message, request: ApiRequest) -> bool:
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


def _page(found: list[Any], request: ApiRequest) -> tuple[list[Any], str | None]:
    size = min(int(request.query.get("maxResults") or 100), PAGE)
    start = int(request.query.get("pageToken") or 0) if (request.query.get("pageToken") or "").isdigit() else 0
    page = found[start : start + size]
    return page, (f"{start + size:020d}" if start + size < len(found) else None)


def list_messages(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = [m for m in MESSAGES if _matches(m, request)]
    page, token = _page(found, request)
    body: dict[str, Any] = {}
    if page:
        body["messages"] = [{"id": m.id, "threadId": m.thread_id} for m in page]
    if token:
        body["nextPageToken"] = token
    body["resultSizeEstimate"] = len(found)
    return ApiReply(body=body)


def get_message(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_formatted(_message(request.params["id"]), request))


def delete_message(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _message(request.params["id"])
    return ApiReply(status=204)


def modify_message(request: ApiRequest) -> ApiReply:
    _authorized(request)
    message = _message(request.params["id"])
    body = request.body if isinstance(request.body, dict) else {}
    labels = _modified(message.labels, body)
    return ApiReply(body={"id": message.id, "threadId": message.thread_id, "labelIds": labels})


def _modified(labels: list[str], body: dict[str, Any]) -> list[str]:
    added, removed = body.get("addLabelIds") or [], body.get("removeLabelIds") or []
    known = {str(lbl["id"]) for lbl in LABELS}
    for label in [*added, *removed]:
        require(label in known, _error(400, f"Invalid label: {label}", "invalidArgument", "INVALID_ARGUMENT"))
    return [*[lbl for lbl in labels if lbl not in removed], *[lbl for lbl in added if lbl not in labels]]


# --------------------------------------------------------------------------- sending


def _decoded(raw: Any) -> EmailMessage:
    missing = "'raw' RFC822 payload message string or uploading message via /upload/* URL required"
    require(isinstance(raw, str) and raw != "", _error(400, missing, "invalidArgument", "INVALID_ARGUMENT"))
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


def _sent_id(decoded: dict[str, Any], salt: str) -> str:
    text = json.dumps(decoded, sort_keys=True) + salt
    return "19" + hashlib.sha1(text.encode()).hexdigest()[:14]


def send_message(request: ApiRequest, sent: list[Any]) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    message = _decoded(body.get("raw"))
    decoded = summary(message)
    require(
        any(message[h] for h in ("To", "Cc", "Bcc")),
        _error(400, "Invalid To header", "invalidArgument", "FAILED_PRECONDITION"),
    )
    sent.append(decoded)
    message_id = _sent_id(decoded, "")
    thread_id = str(body.get("threadId") or message_id)
    return ApiReply(body={"id": message_id, "threadId": thread_id, "labelIds": ["SENT"]})


def get_profile(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=PROFILE)


# --------------------------------------------------------------------------- labels


def list_labels(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"labels": LABELS})


def get_label(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = next((lbl for lbl in LABELS if lbl["id"] == request.params["id"]), None)
    require(found is not None, _not_found())
    return ApiReply(body=found)


def create_label(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    name = str(body.get("name") or "")
    require(name != "", _error(400, "Invalid label name", "invalidArgument", "INVALID_ARGUMENT"))
    taken = any(str(lbl["name"]).lower() == name.lower() for lbl in LABELS)
    require(not taken, _error(409, "Label name exists or conflicts", "alreadyExists", "ALREADY_EXISTS"))
    label_id = "Label_" + str(int(hashlib.sha1(name.encode()).hexdigest()[:8], 16) % 10**6)
    out = {"id": label_id, "name": name}
    out.update({k: body[k] for k in ("messageListVisibility", "labelListVisibility") if k in body})
    return ApiReply(body=out)


def delete_label(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(any(lbl["id"] == request.params["id"] for lbl in LABELS), _not_found())
    return ApiReply(status=204)


# --------------------------------------------------------------------------- drafts


def create_draft(request: ApiRequest, sent: list[Any]) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    given = body.get("message") if isinstance(body.get("message"), dict) else {}
    assert isinstance(given, dict)
    decoded = summary(_decoded(given.get("raw")))
    sent.append({"draft": decoded})
    message_id = _sent_id(decoded, "draft")
    thread_id = str(given.get("threadId") or message_id)
    message = {"id": message_id, "threadId": thread_id, "labelIds": ["DRAFT"]}
    draft = {"id": "r" + str(int(message_id[2:], 16) % 10**18), "message": message}
    return ApiReply(body=draft)


def _draft(draft_id: str) -> dict[str, Any]:
    found = next((d for d in DRAFTS if d["id"] == draft_id), None)
    require(found is not None, _not_found())
    assert found is not None
    return found


def get_draft(request: ApiRequest) -> ApiReply:
    _authorized(request)
    draft = _draft(request.params["id"])
    message = _message(str(draft["message"]))
    return ApiReply(body={"id": draft["id"], "message": _formatted(message, request)})


def list_drafts(request: ApiRequest) -> ApiReply:
    _authorized(request)
    page, token = _page(DRAFTS, request)
    body: dict[str, Any] = {}
    if page:
        body["drafts"] = [{"id": d["id"], "message": {"id": d["message"], "threadId": d["message"]}} for d in page]
    if token:
        body["nextPageToken"] = token
    body["resultSizeEstimate"] = len(DRAFTS)
    return ApiReply(body=body)


def delete_draft(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _draft(request.params["id"])
    return ApiReply(status=204)


# --------------------------------------------------------------------------- threads


def _thread_messages(thread_id: str) -> list[Message]:
    _checked_id(thread_id)
    found = sorted((m for m in MESSAGES if m.thread_id == thread_id), key=lambda m: m.internal_date)
    require(bool(found), _not_found())
    return found


def list_threads(request: ApiRequest) -> ApiReply:
    _authorized(request)
    ids = list(dict.fromkeys(m.thread_id for m in MESSAGES if _matches(m, request)))
    page, token = _page(ids, request)
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
    _authorized(request)
    messages = _thread_messages(request.params["id"])
    formatted = [_formatted(m, request) for m in messages]
    return ApiReply(body={"id": request.params["id"], "historyId": messages[-1].history_id, "messages": formatted})


def modify_thread(request: ApiRequest) -> ApiReply:
    _authorized(request)
    messages = _thread_messages(request.params["id"])
    body = request.body if isinstance(request.body, dict) else {}
    out = [{"id": m.id, "threadId": m.thread_id, "labelIds": _modified(m.labels, body)} for m in messages]
    return ApiReply(body={"id": request.params["id"], "messages": out})


def trash_thread(request: ApiRequest) -> ApiReply:
    _authorized(request)
    messages = _thread_messages(request.params["id"])
    untrash = request.path.endswith("/untrash")
    change = {"removeLabelIds": ["TRASH"]} if untrash else {"addLabelIds": ["TRASH"]}
    out = [{"id": m.id, "threadId": m.thread_id, "labelIds": _modified(m.labels, change)} for m in messages]
    return ApiReply(body={"id": request.params["id"], "messages": out})


def delete_thread(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _thread_messages(request.params["id"])
    return ApiReply(status=204)


_ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/profile", get_profile),
    ("GET", "/messages", list_messages),
    ("POST", "/messages/send", send_message),
    ("GET", "/messages/(?P<id>[^/]+)", get_message),
    ("DELETE", "/messages/(?P<id>[^/]+)", delete_message),
    ("POST", "/messages/(?P<id>[^/]+)/modify", modify_message),
    ("GET", "/labels", list_labels),
    ("POST", "/labels", create_label),
    ("GET", "/labels/(?P<id>[^/]+)", get_label),
    ("DELETE", "/labels/(?P<id>[^/]+)", delete_label),
    ("GET", "/drafts", list_drafts),
    ("POST", "/drafts", create_draft),
    ("GET", "/drafts/(?P<id>[^/]+)", get_draft),
    ("DELETE", "/drafts/(?P<id>[^/]+)", delete_draft),
    ("GET", "/threads", list_threads),
    ("GET", "/threads/(?P<id>[^/]+)", get_thread),
    ("DELETE", "/threads/(?P<id>[^/]+)", delete_thread),
    ("POST", "/threads/(?P<id>[^/]+)/modify", modify_thread),
    ("POST", "/threads/(?P<id>[^/]+)/(?:un)?trash", trash_thread),
]


def install(server: FakeApiServer) -> None:
    sent: list[Any] = []
    server.__dict__.setdefault("state", {})["gmail"] = {"sent": sent}
    for host in HOSTS:
        for method, path, handler in _ROUTES:
            if handler in (send_message, create_draft):
                handler = functools.partial(handler, sent=sent)
            server.route(method, _PREFIX + path, handler, host=host)


__all__ = ["HOSTS", "RATE_LIMITED", "TOKEN", "install", "summary"]
