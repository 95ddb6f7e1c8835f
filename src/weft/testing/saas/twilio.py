"""A fake Twilio REST API (``https://api.twilio.com/2010-04-01``), as Twilio answers: HTTP Basic auth with the
account SID and auth token (or an API key SID and secret), form-encoded ``Messages.json``/``Calls.json`` posts
answered 201 with the resource, the account for the credential test, and Twilio's error body
(``{"code", "message", "more_info", "status"}``: 21211 for an invalid ``To`` number, 20003 for bad auth). The ``To``
number ``+15005550009`` answers 429 with Twilio's 20429 body. Sids are derived from the request, so the fake keeps
no state and every case reads the same answers."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "api.twilio.com"
ACCOUNT = "AC00000000000000000000000000000001"
TOKEN = "twilio-test-token"
KEY_SID = "SK00000000000000000000000000000001"
KEY_SECRET = "twilio-test-key-secret"
RATE_LIMITED = "+15005550009"
DATE = "Thu, 30 Nov 2023 12:00:00 +0000"
_CREDENTIALS = {(ACCOUNT, TOKEN), (KEY_SID, KEY_SECRET)}


def _error(status: int, code: int, message: str, **headers: str) -> ApiReply:
    body = {"code": code, "message": message, "more_info": f"https://www.twilio.com/docs/errors/{code}",
            "status": status}  # fmt: skip
    return json_error(status, body, **headers)


def _authorized(request: ApiRequest) -> bool:
    header = request.headers.get("authorization", "")
    if not header.startswith("Basic "):
        return False
    user, _, password = base64.b64decode(header[6:]).decode("utf-8", "replace").partition(":")
    return (user, password) in _CREDENTIALS


def _sid(prefix: str, form: dict[str, str]) -> str:
    digest = hashlib.sha256("|".join(f"{k}={v}" for k, v in sorted(form.items())).encode()).hexdigest()
    return prefix + digest[:32]


def _checked(request: ApiRequest) -> dict[str, str]:
    require(_authorized(request), _error(401, 20003, "Authenticate"))
    require(request.params.get("account") == ACCOUNT, _error(404, 20404, "The requested resource was not found"))
    form = request.body if isinstance(request.body, dict) else {}
    to = str(form.get("To", ""))
    require(bool(form.get("From")), _error(400, 21603, "A 'From' phone number is required."))
    require(to != RATE_LIMITED, _error(429, 20429, "Too Many Requests", **{"Retry-After": "1"}))
    number = to.removeprefix("whatsapp:")
    valid = number.startswith("+") and number[1:].isdigit() and 8 <= len(number) <= 16
    require(valid, _error(400, 21211, f"The 'To' number {to} is not a valid phone number."))
    return {str(k): str(v) for k, v in form.items()}


def messages(request: ApiRequest) -> ApiReply:
    form = _checked(request)
    require(bool(form.get("Body")), _error(400, 21602, "Message body is required."))
    sid = _sid("SM", form)
    body: dict[str, Any] = {
        "account_sid": ACCOUNT, "api_version": "2010-04-01", "body": form["Body"], "date_created": DATE,
        "date_sent": None, "date_updated": DATE, "direction": "outbound-api", "error_code": None,
        "error_message": None, "from": form["From"], "messaging_service_sid": None, "num_media": "0",
        "num_segments": "1", "price": None, "price_unit": "USD", "sid": sid, "status": "queued",
        "subresource_uris": {"media": f"/2010-04-01/Accounts/{ACCOUNT}/Messages/{sid}/Media.json"},
        "to": form["To"], "uri": f"/2010-04-01/Accounts/{ACCOUNT}/Messages/{sid}.json",
    }  # fmt: skip
    return ApiReply(status=201, body=body)


def calls(request: ApiRequest) -> ApiReply:
    form = _checked(request)
    require(bool(form.get("Twiml") or form.get("Url")), _error(400, 21205, "Url parameter is required."))
    sid = _sid("CA", form)
    body: dict[str, Any] = {
        "account_sid": ACCOUNT, "annotation": None, "answered_by": None, "api_version": "2010-04-01",
        "caller_name": None, "date_created": None, "date_updated": None, "direction": "outbound-api",
        "duration": None, "end_time": None, "forwarded_from": None, "from": form["From"],
        "from_formatted": form["From"], "group_sid": None, "parent_call_sid": None, "phone_number_sid": None,
        "price": None, "price_unit": "USD", "queue_time": "0", "sid": sid, "start_time": None, "status": "queued",
        "subresource_uris": {"recordings": f"/2010-04-01/Accounts/{ACCOUNT}/Calls/{sid}/Recordings.json"},
        "to": form["To"], "to_formatted": form["To"], "trunk_sid": None,
        "uri": f"/2010-04-01/Accounts/{ACCOUNT}/Calls/{sid}.json",
    }  # fmt: skip
    return ApiReply(status=201, body=body)


def account(request: ApiRequest) -> ApiReply:
    require(_authorized(request), _error(401, 20003, "Authenticate"))
    require(request.params.get("account") == ACCOUNT, _error(404, 20404, "The requested resource was not found"))
    return ApiReply(body={"sid": ACCOUNT, "friendly_name": "Weft test account", "status": "active", "type": "Full"})


def install(server: FakeApiServer) -> None:
    base = r"/2010-04-01/Accounts/(?P<account>[^/]+)"
    server.route("POST", base + r"/Messages\.json", messages, host=HOST)
    server.route("POST", base + r"/Calls\.json", calls, host=HOST)
    server.route("GET", base + r"\.json", account, host=HOST)


__all__ = ["ACCOUNT", "HOST", "KEY_SECRET", "KEY_SID", "TOKEN", "install"]
