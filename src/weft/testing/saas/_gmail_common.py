"""What every part of the fake Gmail API (:mod:`weft.testing.saas.gmail`) shares: the token, Google's error bodies,
the checks of credentials and ids, the message lookup, pages and label changes."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, json_error, require
from weft.testing.saas._gmail_data import LABELS, MESSAGES, Message

TOKEN = "gmail-test-token"
PAGE = 3
RATE_LIMITED = "ffffffffffff0429"


def error(status: int, message: str, reason: str, state: str, **headers: str) -> ApiReply:
    detail: dict[str, Any] = {"message": message, "domain": "global", "reason": reason}
    body = {"error": {"code": status, "message": message, "errors": [detail], "status": state}}
    return json_error(status, body, **headers)


def authorized(request: ApiRequest) -> None:
    message = (
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other "
        "valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
    )
    from weft.testing.saas.google_oauth import SERVICE_ACCOUNT_TOKEN

    given = request.headers.get("authorization")
    require(
        given in (f"Bearer {TOKEN}", f"Bearer {SERVICE_ACCOUNT_TOKEN}"),
        error(401, message, "authError", "UNAUTHENTICATED"),
    )


def checked_id(value: str) -> None:
    if value == RATE_LIMITED:
        reply = error(
            429, "User-rate limit exceeded.  Retry after 2024-01-01T00:00:30.000Z", "rateLimitExceeded",
            "RESOURCE_EXHAUSTED", **{"Retry-After": "30"},
        )  # fmt: skip
        require(False, reply)
    require(
        all(c in "0123456789abcdef" for c in value),
        error(400, "Invalid id value", "invalidArgument", "INVALID_ARGUMENT"),
    )


def not_found() -> ApiReply:
    return error(404, "Requested entity was not found.", "notFound", "NOT_FOUND")


def find_message(message_id: str) -> Message:
    checked_id(message_id)
    found = next((m for m in MESSAGES if m.id == message_id), None)
    require(found is not None, not_found())
    assert found is not None
    return found


def paged(found: list[Any], request: ApiRequest) -> tuple[list[Any], str | None]:
    size = min(int(request.query.get("maxResults") or 100), PAGE)
    start = int(request.query.get("pageToken") or 0) if (request.query.get("pageToken") or "").isdigit() else 0
    page = found[start : start + size]
    return page, (f"{start + size:020d}" if start + size < len(found) else None)


def modified_labels(labels: list[str], body: dict[str, Any]) -> list[str]:
    added, removed = body.get("addLabelIds") or [], body.get("removeLabelIds") or []
    known = {str(lbl["id"]) for lbl in LABELS}
    for label in [*added, *removed]:
        require(label in known, error(400, f"Invalid label: {label}", "invalidArgument", "INVALID_ARGUMENT"))
    return [*[lbl for lbl in labels if lbl not in removed], *[lbl for lbl in added if lbl not in labels]]


__all__ = [
    "PAGE", "RATE_LIMITED", "TOKEN", "authorized", "checked_id", "error", "find_message", "modified_labels",
    "not_found", "paged",
]  # fmt: skip
