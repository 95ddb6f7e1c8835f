"""A fake Brevo (formerly Sendinblue) API v3 on ``api.brevo.com``, as Brevo answers: the key in the ``api-key``
header, errors ``{"code", "message"}`` (``unauthorized``, ``document_not_found``, ``duplicate_parameter``,
``invalid_parameter``, ``missing_parameter``), ``201``/``204`` for writes, contacts by id or e-mail in offset
pages (``limit`` at most 1000, ``offset``; :data:`CONTACTS` holds more than one page), and 429 with Brevo's
``x-sib-ratelimit-*`` headers for the address :data:`RATE_LIMITED`. Seeded data only; writes answer as Brevo does
and change nothing, so every run answers the same."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, require

HOST = "api.brevo.com"
API_KEY = "xkeysib-fake-0001"
RATE_LIMITED = "ratelimited@example.com"
MAX_LIMIT = 1000
TEMPLATES = (1, 2)
_NOW = "2024-06-01T12:00:00.000+02:00"


def _contact(number: int, email: str, first: str = "", last: str = "") -> dict[str, Any]:
    contact: dict[str, Any] = {
        "email": email,
        "id": number,
        "emailBlacklisted": False,
        "smsBlacklisted": False,
        "createdAt": f"2024-01-{1 + number % 28:02d}T10:00:00.000+01:00",
        "modifiedAt": f"2024-02-{1 + number % 28:02d}T10:00:00.000+01:00",
        "attributes": {"FIRSTNAME": first, "LASTNAME": last} if first else {},
        "listIds": [2] if first else [],
    }
    return contact


NAMED = [
    _contact(1, "ada@example.com", "Ada", "Lovelace"),
    _contact(2, "alan@example.com", "Alan", "Turing"),
    _contact(3, "grace@example.com", "Grace", "Hopper"),
]
#: 1003 contacts: the named ones, then plain ones, so ``returnAll`` needs two pages of 1000.
CONTACTS = NAMED + [_contact(n, f"bulk{n:04d}@example.com") for n in range(4, 1004)]
ATTRIBUTES: list[dict[str, Any]] = [
    {"name": "FIRSTNAME", "category": "normal", "type": "text"},
    {"name": "LASTNAME", "category": "normal", "type": "text"},
    {"name": "SMS", "category": "normal", "type": "text"},
    {"name": "VIP", "category": "normal", "type": "boolean"},
    {"name": "PLAN", "category": "category", "type": "category",
     "enumeration": [{"value": 1, "label": "Free"}, {"value": 2, "label": "Pro"}]},
    {"name": "ORDER_ID", "category": "transactional", "type": "id"},
    {"name": "TOTAL", "category": "calculated", "calculatedValue": "SUM[ORDER_PRICE]"},
    {"name": "COMPANY", "category": "global", "calculatedValue": "\"Weft\""},
]  # fmt: skip
SENDERS = [
    {"id": 1, "name": "Weft Team", "email": "team@weft.example", "active": True, "ips": []},
    {"id": 2, "name": "Weft Alerts", "email": "alerts@weft.example", "active": True, "ips": []},
    {"id": 3, "name": "Old Sender", "email": "old@weft.example", "active": False, "ips": []},
]


def _error(status: int, code: str, message: str, **headers: str) -> ApiReply:
    return ApiReply(status=status, body={"code": code, "message": message}, headers=dict(headers))


def _authorized(request: ApiRequest) -> None:
    require(request.headers.get("api-key") == API_KEY, _error(401, "unauthorized", "Key not found"))


def _rate_limited(value: Any) -> None:
    headers = {"x-sib-ratelimit-limit": "10", "x-sib-ratelimit-remaining": "0", "x-sib-ratelimit-reset": "10"}
    require(value != RATE_LIMITED, _error(429, "too_many_requests", "The expected rate limit is exceeded.", **headers))


def _body(request: ApiRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


def _no_content() -> ApiReply:
    return ApiReply(status=204)


def _find_contact(identifier: str) -> dict[str, Any]:
    _rate_limited(identifier)
    found = next((c for c in CONTACTS if identifier in (str(c["id"]), c["email"])), None)
    require(found is not None, _error(404, "document_not_found", "Contact does not exist"))
    assert found is not None
    return found


def account(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"email": "owner@weft.example", "firstName": "Weft", "lastName": "Owner",
                          "companyName": "Weft", "plan": [{"type": "free", "credits": 300}]})  # fmt: skip


def list_contacts(request: ApiRequest) -> ApiReply:
    _authorized(request)
    limit_text, offset_text = request.query.get("limit") or "50", request.query.get("offset") or "0"
    require(limit_text.isdigit() and offset_text.isdigit(), _error(400, "invalid_parameter", "Invalid limit or offset"))
    limit, offset = int(limit_text), int(offset_text)
    require(limit <= MAX_LIMIT, _error(400, "out_of_range", f"Limit exceeds max value {MAX_LIMIT}"))
    found = CONTACTS
    since = request.query.get("modifiedSince")
    if since:
        found = [c for c in found if c["modifiedAt"][:10] >= since[:10]]
    if request.query.get("sort", "desc") == "desc":
        found = list(reversed(found))
    return ApiReply(body={"contacts": found[offset : offset + limit], "count": len(found)})


def get_contact(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = _find_contact(request.params["id"])
    return ApiReply(body={**found, "statistics": {}})


def create_contact(request: ApiRequest) -> ApiReply:
    """A new contact's id; an existing one is updated with ``updateEnabled`` (204), else a 400."""
    _authorized(request)
    body = _body(request)
    email = body.get("email")
    require(isinstance(email, str) and "@" in email, _error(400, "invalid_parameter", "Invalid email address"))
    _rate_limited(email)
    attributes = body.get("attributes")
    if attributes is not None:
        require(isinstance(attributes, dict), _error(400, "invalid_parameter", "attributes should be an object"))
        unknown = [name for name in attributes if name not in {a["name"] for a in ATTRIBUTES}]
        require(not unknown, _error(400, "invalid_parameter", f"Attribute {', '.join(unknown)} does not exist"))
    existing = next((c for c in CONTACTS if c["email"] == str(email).lower()), None)
    if existing is not None:
        require(
            body.get("updateEnabled") is True,
            _error(
                400, "duplicate_parameter", "Unable to create contact, email is already associated with another Contact"
            ),
        )
        return _no_content()
    return ApiReply(status=201, body={"id": 2001})


def update_contact(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find_contact(request.params["id"])
    attributes = _body(request).get("attributes", {})
    require(isinstance(attributes, dict), _error(400, "invalid_parameter", "attributes should be an object"))
    return _no_content()


def delete_contact(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find_contact(request.params["id"])
    return _no_content()


def list_attributes(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"attributes": ATTRIBUTES})


def _attribute(request: ApiRequest) -> dict[str, Any] | None:
    category, name = request.params["category"], request.params["name"]
    categories = ("normal", "transactional", "category", "calculated", "global")
    require(category in categories, _error(400, "invalid_parameter", "Invalid attribute category"))
    return next((a for a in ATTRIBUTES if a["name"] == name.upper() and a["category"] == category), None)


def create_attribute(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(_attribute(request) is None, _error(400, "invalid_parameter", "Attribute name already exists"))
    body, category = _body(request), request.params["category"]
    if category in ("calculated", "global"):
        require(bool(body.get("value")), _error(400, "missing_parameter", "value is missing"))
    else:
        require(bool(body.get("type")), _error(400, "missing_parameter", "type is missing"))
    if category == "category":
        enumeration = body.get("enumeration")
        require(
            isinstance(enumeration, list) and bool(enumeration),
            _error(400, "missing_parameter", "enumeration is missing"),
        )
    return ApiReply(status=201)


def update_attribute(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(_attribute(request) is not None, _error(404, "document_not_found", "Attribute does not exist"))
    return _no_content()


def delete_attribute(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(_attribute(request) is not None, _error(404, "document_not_found", "Attribute does not exist"))
    return _no_content()


def list_senders(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"senders": SENDERS})


def create_sender(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _body(request)
    require(bool(body.get("name")), _error(400, "missing_parameter", "name is missing"))
    require(
        isinstance(body.get("email"), str) and "@" in body["email"],
        _error(400, "invalid_parameter", "email is not valid"),
    )
    return ApiReply(status=201, body={"id": 9, "spfError": False, "dkimError": False})


def delete_sender(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = next((s for s in SENDERS if str(s["id"]) == request.params["id"]), None)
    require(found is not None, _error(404, "document_not_found", "Sender ID does not exist"))
    return _no_content()


def _check_addresses(body: dict[str, Any]) -> None:
    to = body.get("to")
    require(isinstance(to, list) and bool(to), _error(400, "missing_parameter", "to is missing"))
    assert isinstance(to, list)
    for key in ("to", "cc", "bcc"):
        for entry in body.get(key) or []:
            email = entry.get("email") if isinstance(entry, dict) else None
            require(isinstance(email, str) and "@" in email, _error(400, "invalid_parameter", f"{key} is not valid"))
            _rate_limited(email)


def _check_attachments(body: dict[str, Any]) -> None:
    for entry in body.get("attachment") or []:
        ok = isinstance(entry, dict) and isinstance(entry.get("name"), str) and isinstance(entry.get("content"), str)
        require(ok, _error(400, "invalid_parameter", "attachment is not valid"))
        try:
            base64.b64decode(entry["content"], validate=True)
        except binascii.Error:
            require(False, _error(400, "invalid_parameter", "attachment content is not base64"))
        require("." in entry["name"], _error(400, "invalid_parameter", "Attachment name must have an extension"))


def send_email(request: ApiRequest) -> ApiReply:
    """A transactional e-mail: a known template, or an active sender with a subject and content."""
    _authorized(request)
    body = _body(request)
    _check_addresses(body)
    _check_attachments(body)
    if "templateId" in body:
        require(body["templateId"] in TEMPLATES, _error(400, "invalid_parameter", "Template ID does not exist"))
    else:
        sender = body.get("sender")
        email = sender.get("email") if isinstance(sender, dict) else None
        require(email is not None, _error(400, "missing_parameter", "sender is missing"))
        active = {s["email"] for s in SENDERS if s["active"]}
        require(email in active, _error(400, "invalid_parameter", f"Sender {email} is not valid. Validate your sender"))
        require(bool(body.get("subject")), _error(400, "missing_parameter", "subject is missing"))
        content = body.get("htmlContent") or body.get("textContent")
        require(bool(content), _error(400, "missing_parameter", "htmlContent or textContent is missing"))
    return ApiReply(status=201, body={"messageId": "<202406011200.00000000001@smtp-relay.mailin.fr>"})


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/v3/account", account, host=HOST)
    server.route("GET", r"/v3/contacts", list_contacts, host=HOST)
    server.route("POST", r"/v3/contacts", create_contact, host=HOST)
    server.route("GET", r"/v3/contacts/(?P<id>[^/]+)", get_contact, host=HOST)
    server.route("PUT", r"/v3/contacts/(?P<id>[^/]+)", update_contact, host=HOST)
    server.route("DELETE", r"/v3/contacts/(?P<id>[^/]+)", delete_contact, host=HOST)
    server.route("GET", r"/v3/contacts/attributes", list_attributes, host=HOST)
    attribute = r"/v3/contacts/attributes/(?P<category>[^/]+)/(?P<name>[^/]+)"
    server.route("POST", attribute, create_attribute, host=HOST)
    server.route("PUT", attribute, update_attribute, host=HOST)
    server.route("DELETE", attribute, delete_attribute, host=HOST)
    server.route("GET", r"/v3/senders", list_senders, host=HOST)
    server.route("POST", r"/v3/senders", create_sender, host=HOST)
    server.route("DELETE", r"/v3/senders/(?P<id>[^/]+)", delete_sender, host=HOST)
    server.route("POST", r"/v3/smtp/email", send_email, host=HOST)
