"""A fake Mailchimp Marketing API 3.0 on :data:`HOST` (data center ``us6``), and the OAuth2 metadata endpoint on
``login.mailchimp.com``, as Mailchimp answers: ``apikey <key>`` or Bearer auth, members addressed by email or
by the MD5 of the lowercase email, Mailchimp's problem bodies (``{"type", "title", "status", "detail",
"instance"}``), ``count``/``offset`` pages, ``fields`` projections, and 429 with ``Retry-After`` for the
campaign id ``rate-limited``. Seeded data only; writes answer as Mailchimp does, built from the request, and
change nothing, so every run answers the same."""

from __future__ import annotations

import hashlib
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "us6.api.mailchimp.com"
API_KEY = "0123456789abcdef0123456789abcdef-us6"
OAUTH_TOKEN = "mailchimp-oauth-token-0001"
LIST_ID = "a1b2c3d4e5"
CATEGORY = "f00dcafe01"
_TIME = "2024-05-01T10:00:00+00:00"
_DOCS = "https://mailchimp.com/developer/marketing/docs/errors/"


def _hash(email: str) -> str:
    return hashlib.md5(email.lower().encode()).hexdigest()


def _member(number: int, email: str, first: str, last: str, status: str = "subscribed") -> dict[str, Any]:
    return {
        "id": _hash(email),
        "email_address": email,
        "unique_email_id": f"u{number:09d}",
        "contact_id": f"c{number:09d}",
        "full_name": f"{first} {last}",
        "web_id": 500 + number,
        "email_type": "html",
        "status": status,
        "merge_fields": {"FNAME": first, "LNAME": last},
        "interests": {"ab12cd34ef": number % 2 == 1},
        "ip_signup": "",
        "timestamp_signup": "",
        "ip_opt": "192.0.2.1",
        "timestamp_opt": f"2024-0{number}-01T08:00:00+00:00",
        "member_rating": 2,
        "last_changed": f"2024-0{number}-02T08:00:00+00:00",
        "language": "en",
        "vip": False,
        "location": {"latitude": 0, "longitude": 0, "country_code": "", "timezone": ""},
        "tags_count": 1,
        "tags": [{"id": 101, "name": "customer"}],
        "list_id": LIST_ID,
    }


MEMBERS = [
    _member(1, "ada@example.com", "Ada", "Lovelace"),
    _member(2, "alan@example.com", "Alan", "Turing"),
    _member(3, "grace@example.com", "Grace", "Hopper", "unsubscribed"),
    _member(4, "edsger@example.com", "Edsger", "Dijkstra"),
    _member(5, "barbara@example.com", "Barbara", "Liskov", "pending"),
]


def _campaign(number: int, title: str, status: str) -> dict[str, Any]:
    return {
        "id": f"c4mp{number:06d}",
        "web_id": 9000 + number,
        "type": "regular",
        "create_time": f"2024-0{number}-01T09:00:00+00:00",
        "status": status,
        "emails_sent": 0 if status != "sent" else 120,
        "send_time": f"2024-0{number}-02T09:00:00+00:00" if status == "sent" else "",
        "recipients": {"list_id": LIST_ID, "list_name": "Weft news", "recipient_count": 4},
        "settings": {"subject_line": f"{title}!", "title": title, "from_name": "Weft", "reply_to": "news@example.com"},
        "tracking": {"opens": True, "html_clicks": True, "text_clicks": False},
        "resendable": status == "sent",
    }


CAMPAIGNS = [_campaign(1, "Launch", "sent"), _campaign(2, "Release 0.5", "save"), _campaign(3, "Survey", "sent")]
INTERESTS = [
    {"category_id": CATEGORY, "list_id": LIST_ID, "id": f"1nt{n:07d}", "name": name, "subscriber_count": str(n)}
    for n, name in enumerate(("Engine", "Nodes", "AI agents", "Docs"), start=1)
]


def _problem(status: int, title: str, detail: str, **headers: str) -> ApiReply:
    body = {"type": _DOCS, "title": title, "status": status, "detail": detail, "instance": "00000000-fake"}
    return json_error(status, body, **headers)


def _not_found() -> ApiReply:
    return _problem(404, "Resource Not Found", "The requested resource could not be found.")


def _authorized(request: ApiRequest) -> None:
    given = request.headers.get("authorization")
    denied = _problem(
        401, "API Key Invalid", "Your API key may be invalid, or you've attempted to access the wrong datacenter."
    )
    require(given in (f"apikey {API_KEY}", f"Bearer {OAUTH_TOKEN}"), denied)


def _list(request: ApiRequest) -> None:
    _authorized(request)
    require(request.params.get("list") == LIST_ID, _not_found())


def _project(row: dict[str, Any], fields: list[str], prefix: str) -> dict[str, Any]:
    """Mailchimp's ``fields``: only the dotted paths named (under ``prefix``)."""
    kept: dict[str, Any] = {}
    for path in fields:
        parts = path.removeprefix(prefix).split(".") if path.startswith(prefix) else []
        source, target = row, kept
        for number, part in enumerate(parts):
            if not isinstance(source, dict) or part not in source:
                break
            if number == len(parts) - 1:
                target[part] = source[part]
            else:
                source, target = source[part], target.setdefault(part, {})
    return kept


def _page(request: ApiRequest, rows: list[dict[str, Any]], prop: str) -> dict[str, Any]:
    count = min(int(request.query.get("count") or 10), 1000)
    offset = int(request.query.get("offset") or 0)
    chunk = rows[offset : offset + count]
    fields = [f for f in (request.query.get("fields") or "").split(",") if f and f != "*"]
    if fields:
        chunk = [_project(row, fields, f"{prop}.") for row in chunk]
    return {prop: chunk, "total_items": len(rows)}


def metadata(request: ApiRequest) -> ApiReply:
    require(request.headers.get("authorization") == f"OAuth {OAUTH_TOKEN}", json_error(401, {"error": "invalid_token"}))
    return ApiReply(body={"dc": "us6", "role": "owner", "accountname": "Weft", "user_id": 42,
                          "login_url": "https://login.mailchimp.com", "api_endpoint": f"https://{HOST}"})  # fmt: skip


def ping(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"lists": [{"id": LIST_ID, "name": "Weft news"}], "total_items": 1})


def _find(request: ApiRequest) -> dict[str, Any]:
    _list(request)
    given = request.params["member"].lower()
    found = next((m for m in MEMBERS if given in (m["id"], m["email_address"])), None)
    require(found is not None, _not_found())
    return dict(found or {})


def _body(request: ApiRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


def list_members(request: ApiRequest) -> ApiReply:
    _list(request)
    rows = MEMBERS
    if request.query.get("status"):
        rows = [m for m in rows if m["status"] == request.query["status"]]
    page = _page(request, rows, "members")
    return ApiReply(body={**page, "list_id": LIST_ID})


def _built(body: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    member = {**base, "email_address": body.get("email_address", base["email_address"])}
    member["id"] = _hash(str(member["email_address"]))
    for key in ("status", "email_type", "language", "vip", "ip_signup", "ip_opt", "timestamp_opt", "timestamp_signup"):
        if key in body:
            member[key] = body[key]
    member["merge_fields"] = {**member["merge_fields"], **(body.get("merge_fields") or {})}
    member["interests"] = {**member["interests"], **(body.get("interests") or {})}
    if body.get("location"):
        member["location"] = {**member["location"], **body["location"]}
    if body.get("tags"):
        member["tags"] = [{"id": 200 + n, "name": str(t)} for n, t in enumerate(body["tags"])]
        member["tags_count"] = len(member["tags"])
    member["last_changed"] = _TIME
    return member


def create_member(request: ApiRequest) -> ApiReply:
    _list(request)
    body = _body(request)
    email = str(body.get("email_address") or "")
    require("@" in email, _problem(400, "Invalid Resource", "Please provide a valid email address."))
    exists = any(m["email_address"] == email.lower() for m in MEMBERS)
    detail = f"{email} is already a list member. Use PUT to insert or update list members."
    require(not exists, _problem(400, "Member Exists", detail))
    statuses = ("subscribed", "unsubscribed", "cleaned", "pending", "transactional")
    require(
        body.get("status") in statuses,
        _problem(400, "Invalid Resource", "The resource submitted could not be validated."),
    )
    base = _member(6, email, "", "", str(body["status"]))
    base.update(merge_fields={}, interests={}, tags=[], tags_count=0, full_name="")
    return ApiReply(body=_built(body, base))


def get_member(request: ApiRequest) -> ApiReply:
    member = _find(request)
    fields = [f for f in (request.query.get("fields") or "").split(",") if f]
    if fields:
        member = _project(member, fields, "")
    for field in [f for f in (request.query.get("exclude_fields") or "").split(",") if f]:
        member.pop(field, None)
    return ApiReply(body=member)


def put_member(request: ApiRequest) -> ApiReply:
    _list(request)
    given = request.params["member"].lower()
    found = next((m for m in MEMBERS if given in (m["id"], m["email_address"])), None)
    body = _body(request)
    if found is None:
        require(
            "status" in body or "status_if_new" in body,
            _problem(400, "Invalid Resource", "The resource submitted could not be validated."),
        )
        found = _member(7, given, "", "", str(body.get("status") or body.get("status_if_new")))
    return ApiReply(body=_built(body, dict(found)))


def member_action(request: ApiRequest) -> ApiReply:
    _find(request)
    if request.params["action"] == "tags":
        tags = _body(request).get("tags")
        require(isinstance(tags, list) and bool(tags), _problem(400, "Invalid Resource", "Tags are required."))
    return ApiReply(status=204)


def list_campaigns(request: ApiRequest) -> ApiReply:
    _authorized(request)
    rows = CAMPAIGNS
    if request.query.get("status"):
        rows = [c for c in rows if c["status"] == request.query["status"]]
    return ApiReply(body=_page(request, rows, "campaigns"))


def _campaign_of(request: ApiRequest) -> dict[str, Any]:
    _authorized(request)
    if request.params["id"] == "rate-limited":
        detail = "You have exceeded the limit of 10 simultaneous connections."
        require(False, _problem(429, "Too Many Requests", detail, **{"Retry-After": "2"}))
    found = next((c for c in CAMPAIGNS if c["id"] == request.params["id"]), None)
    require(found is not None, _not_found())
    return dict(found or {})


def campaign(request: ApiRequest) -> ApiReply:
    found = _campaign_of(request)
    return ApiReply(status=204) if request.method == "DELETE" else ApiReply(body=found)


def campaign_action(request: ApiRequest) -> ApiReply:
    found = _campaign_of(request)
    action = request.params["action"]
    if action == "send":
        require(found["status"] == "save", _problem(400, "Bad Request", "Your Campaign is not ready to send."))
        return ApiReply(status=204)
    if action == "create-resend":
        require(bool(found["resendable"]), _problem(400, "Bad Request", "This campaign cannot be resent."))
    copy = {**found, "id": found["id"][:-1] + "9", "status": "save", "emails_sent": 0, "send_time": "",
            "create_time": _TIME, "resendable": False}  # fmt: skip
    copy["settings"] = {**found["settings"], "title": found["settings"]["title"] + " (copy 01)"}
    return ApiReply(body=copy)


def interests(request: ApiRequest) -> ApiReply:
    _list(request)
    require(request.params["category"] == CATEGORY, _not_found())
    page = _page(request, INTERESTS, "interests")
    return ApiReply(body={**page, "list_id": LIST_ID, "category_id": CATEGORY})


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/oauth2/metadata", metadata, host="login.mailchimp.com")
    lists, member = r"/3\.0/lists/(?P<list>[^/]+)", r"/members/(?P<member>[^/]+)"
    routes = [
        ("GET", r"/3\.0/?", ping), ("GET", r"/3\.0/lists", ping),
        ("GET", lists + "/members", list_members), ("POST", lists + "/members", create_member),
        ("GET", lists + member, get_member), ("PUT", lists + member, put_member),
        ("POST", lists + member + r"/(?P<action>tags|actions/delete-permanent)", member_action),
        ("GET", r"/3\.0/campaigns", list_campaigns), ("*", r"/3\.0/campaigns/(?P<id>[^/]+)", campaign),
        ("POST", r"/3\.0/campaigns/(?P<id>[^/]+)/actions/(?P<action>send|replicate|create-resend)", campaign_action),
        ("GET", lists + r"/interest-categories/(?P<category>[^/]+)/interests", interests),
    ]  # fmt: skip
    for method, pattern, handler in routes:
        server.route(method, pattern, handler, host=HOST)


__all__ = ["API_KEY", "HOST", "LIST_ID", "OAUTH_TOKEN", "install"]
