"""A fake HubSpot API on ``api.hubapi.com``: the legacy contacts (``/contacts/v1``: create-or-update by email,
profile, all contacts paged by ``vid-offset``, recently updated, delete, list add/remove), companies
(``/companies/v2``: create, get, update, paged by ``offset``, recently modified, by domain; delete over
``/crm/v3``), deals (``/deals/v1``), engagements (``/engagements/v1``), tickets (``/crm-objects/v1``) and the CRM
search API (``/crm/v3/objects/<type>/search``, paged by ``paging.next.after``).

Credentials: the API key ``hubspot-test-key`` (query ``hapikey``), the private-app token ``hubspot-app-token``
or the OAuth2 token ``hubspot-oauth-token`` (Bearer). Errors are HubSpot's ``{"status": "error", "message",
"correlationId", "category"}``: 404 ``OBJECT_NOT_FOUND`` (``resource not found``; ``contact does not exist`` for
contacts), 401 ``INVALID_AUTHENTICATION``, 429 ``RATE_LIMITS`` for the company or deal id ``429``. Contacts
created by a new email are kept per server (their vid derives from the email), so a case that creates its own
email reads it back; seeded records never change (an update of one answers as if done, reads stay the same).
"""

from __future__ import annotations

import hashlib
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "api.hubapi.com"
API_KEY = "hubspot-test-key"
TOKENS = ("hubspot-app-token", "hubspot-oauth-token")
PORTAL = 62515
STAMP = 1735787045000  # 2025-01-02T03:04:05Z
ISO = "2025-01-02T03:04:05.000Z"
CORRELATION = "00000000-aaaa-4bbb-8ccc-000000000001"
FIRST = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Ken", "Margaret", "Linus", "Guido"]
LAST = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Thompson", "Hamilton", "Torvalds", "Rossum"]


def _error(status: int, message: str, category: str, **extra: Any) -> ApiReply:
    body = {"status": "error", "message": message, "correlationId": CORRELATION, "category": category, **extra}
    return json_error(status, body)


def _not_found() -> ApiReply:
    return _error(404, "resource not found", "OBJECT_NOT_FOUND")


def _authorized(request: ApiRequest) -> None:
    token = request.headers.get("authorization", "").removeprefix("Bearer ")
    ok = request.query.get("hapikey") == API_KEY or token in TOKENS
    message = "Authentication credentials not found. This API supports OAuth 2.0 authentication."
    require(ok, _error(401, message, "INVALID_AUTHENTICATION"))


def _seed_contact(n: int) -> dict[str, Any]:
    first, last = FIRST[n % 10], LAST[(n * 7) % 10]
    return {"vid": 1000 + n, "firstname": first, "lastname": last, "email": f"{first.lower()}{n}@example.com",
            "company": "Analytical Engines" if n % 3 == 0 else "Bletchley", "lifecyclestage": "lead"}  # fmt: skip


CONTACTS = {1000 + n: _seed_contact(n) for n in range(1, 131)}
BY_EMAIL = {c["email"]: vid for vid, c in CONTACTS.items()}


def _props(values: dict[str, Any], keep: list[str] | None = None) -> dict[str, Any]:
    return {k: {"value": str(v), "versions": []} for k, v in values.items() if k != "vid" and (not keep or k in keep)}


def _contact(values: dict[str, Any], keep: list[str] | None = None) -> dict[str, Any]:
    vid = values["vid"]
    props = _props({**values, "lastmodifieddate": STAMP, "createdate": STAMP}, keep)
    for p in props.values():
        p.pop("versions")
    return {"vid": vid, "canonical-vid": vid, "merged-vids": [], "portal-id": PORTAL, "is-contact": True,
            "properties": props, "form-submissions": [], "list-memberships": [],
            "identity-profiles": [{"vid": vid, "saved-at-timestamp": STAMP, "deleted-changed-timestamp": 0,
                                   "identities": [{"type": "EMAIL", "value": values.get("email"),
                                                   "timestamp": STAMP, "is-primary": True}]}]}  # fmt: skip


def _listed(values: dict[str, Any], keep: list[str]) -> dict[str, Any]:
    found = _contact(values, keep or ["firstname", "lastname", "lastmodifieddate", "company"])
    found.pop("list-memberships")
    return found


def _new_vid(email: str) -> int:
    return 500000 + int(hashlib.sha256(email.encode()).hexdigest()[:6], 16) % 400000


COMPANIES = {
    str(5000 + n): {"name": name, "domain": domain, "industry": industry}
    for n, (name, domain, industry) in enumerate(
        [("Analytical Engines", "engines.example", "COMPUTER_HARDWARE"), ("Bletchley", "bletchley.example", "DEFENSE"),
         ("Harvard Mark", "mark.example", "COMPUTER_HARDWARE"), ("Mathematisch Centrum", "cwi.example", "RESEARCH"),
         ("Bletchley Labs", "bletchley.example", "RESEARCH")], start=1)
}  # fmt: skip
DEALS = {
    str(7000 + n): {"dealname": f"Deal {n}", "amount": str(1000 * n), "dealstage": "appointmentscheduled"
                    if n % 2 else "closedwon", "pipeline": "default"}
    for n in range(1, 8)
}  # fmt: skip
ENGAGEMENTS = {str(9000 + n): ("NOTE" if n % 2 else "TASK", f"Engagement {n}") for n in range(1, 6)}
TICKETS = {"8001": "Printer on fire", "8002": "Cannot log in"}


def _v1_object(kind: str, object_id: str, values: dict[str, Any]) -> dict[str, Any]:
    props = _props({**values, "createdate": STAMP, "hs_lastmodifieddate": STAMP})
    key = "companyId" if kind == "company" else "dealId"
    body: dict[str, Any] = {"portalId": PORTAL, key: int(object_id), "isDeleted": False, "properties": props}
    if kind == "deal":
        body["associations"] = {"associatedVids": [], "associatedCompanyIds": [], "associatedDealIds": []}
    return body


def _page(found: list[Any], start: int, size: int) -> tuple[list[Any], bool]:
    return found[start : start + size], start + size < len(found)


def _body(request: ApiRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


def _number(text: str | None, default: int) -> int:
    try:
        return int(text) if text else default
    except ValueError:
        return default


def _search_match(values: dict[str, Any], groups: list[Any]) -> bool:
    if not groups:
        return True
    for group in groups:
        ok = True
        for rule in group.get("filters") or []:
            have = str(values.get(rule.get("propertyName"), ""))
            want = str(rule.get("value", ""))
            op = rule.get("operator", "EQ")
            checks = {"EQ": have == want, "NEQ": have != want, "CONTAINS_TOKEN": want.lower() in have.lower(),
                      "HAS_PROPERTY": bool(have), "GT": have > want, "LT": have < want}  # fmt: skip
            ok = ok and checks.get(op, False)
        if ok:
            return True
    return False


def install(server: FakeApiServer) -> None:
    created: dict[int, dict[str, Any]] = {}

    def contact_values(vid: int) -> dict[str, Any] | None:
        return created.get(vid) or CONTACTS.get(vid)

    def upsert(request: ApiRequest) -> ApiReply:
        _authorized(request)
        email = request.params["email"]
        message = f"Email address {email} is invalid"
        invalid = {"isValid": False, "message": message, "error": "INVALID_EMAIL", "name": "email"}
        require("@" in email, _error(400, "Property values were not valid", "VALIDATION_ERROR",
                                     validationResults=[invalid]))  # fmt: skip
        updates = {p.get("property"): p.get("value") for p in _body(request).get("properties") or []}
        vid = BY_EMAIL.get(email) or _new_vid(email)
        is_new = vid not in CONTACTS  # not from what earlier requests created: cases run in any order
        if is_new:  # a seeded contact never changes
            created[vid] = {"vid": vid, "email": email, **{k: v for k, v in updates.items() if k}}
        return ApiReply(body={"vid": vid, "isNew": is_new})

    def profile(request: ApiRequest) -> ApiReply:
        _authorized(request)
        values = contact_values(_number(request.params["vid"], -1))
        if request.method == "DELETE":
            require(values is not None, _not_found())
            return ApiReply(body={"vid": int(request.params["vid"]), "deleted": True, "reason": "OK"})
        require(values is not None, _error(404, "contact does not exist", "OBJECT_NOT_FOUND"))
        assert values is not None
        keep = [v for k, v in request.query_pairs if k in ("property", "properties")]
        return ApiReply(body=_contact(values, keep or None))

    def all_contacts(request: ApiRequest) -> ApiReply:
        _authorized(request)
        keep = [v for k, v in request.query_pairs if k in ("property", "properties")]
        size = min(_number(request.query.get("count"), 20), 100)
        start = _number(request.query.get("vidOffset") or request.query.get("timeOffset"), 0)
        ordered = sorted(CONTACTS.values(), key=lambda c: c["vid"])
        rest = [c for c in ordered if c["vid"] > start]
        page, more = _page(rest, 0, size)
        body: dict[str, Any] = {"contacts": [_listed(c, keep) for c in page], "has-more": more,
                                "vid-offset": page[-1]["vid"] if page else start}  # fmt: skip
        if "recent" in request.path:
            body["time-offset"] = STAMP
        return ApiReply(body=body)

    def list_members(request: ApiRequest) -> ApiReply:
        _authorized(request)
        require(request.params["list"] in ("11", "12"), _error(404, "list does not exist", "OBJECT_NOT_FOUND"))
        body = _body(request)
        vids = [v for v in body.get("vids") or [] if contact_values(int(v or 0))]
        emails = [e for e in body.get("emails") or [] if e in BY_EMAIL]
        invalid = [v for v in body.get("vids") or [] if not contact_values(int(v or 0))]
        answer = {"updated": vids + [BY_EMAIL[e] for e in emails], "discarded": [], "invalidVids": invalid,
                  "invalidEmails": [e for e in body.get("emails") or [] if e not in BY_EMAIL]}  # fmt: skip
        return ApiReply(body=answer)

    server.route("POST", r"/contacts/v1/contact/createOrUpdate/email/(?P<email>[^/]+)", upsert, host=HOST)
    server.route("*", r"/contacts/v1/contact/vid/(?P<vid>[^/]+)(/profile)?", profile, host=HOST)
    server.route("GET", r"/contacts/v1/lists/(all/contacts/all|recently_updated/contacts/recent)", all_contacts,
                 host=HOST)  # fmt: skip
    server.route("POST", r"/contacts/v1/lists/(?P<list>[^/]+)/(add|remove)", list_members, host=HOST)
    server.route("PUT", r"/crm-associations/v1/associations/create-batch", _associate, host=HOST)
    _install_objects(server)


def _associate(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(status=204, text="")


def _throttled(object_id: str) -> None:
    require(object_id != "429", json_error(429, {"status": "error", "message": "You have reached your secondly limit.",
                                                 "errorType": "RATE_LIMIT", "correlationId": CORRELATION,
                                                 "policyName": "SECONDLY", "category": "RATE_LIMITS"},
                                           **{"Retry-After": "1"}))  # fmt: skip


def _named(request: ApiRequest) -> dict[str, Any]:
    return {p.get("name"): p.get("value") for p in _body(request).get("properties") or [] if p.get("name")}


def _new_id(seed: Any) -> str:
    return str(20000 + int(hashlib.sha256(repr(seed).encode()).hexdigest()[:6], 16) % 70000)


def _companies(request: ApiRequest) -> ApiReply:
    _authorized(request)
    if request.method == "POST":
        values = _named(request)
        return ApiReply(body=_v1_object("company", _new_id(values), values))
    keep = [v for k, v in request.query_pairs if k == "properties"]
    size = min(_number(request.query.get("limit") or request.query.get("count"), 100), 250)
    start = _number(request.query.get("offset"), 0)
    found = [{**_v1_object("company", cid, c)} for cid, c in COMPANIES.items()]
    for company in found:
        company["properties"] = {k: v for k, v in company["properties"].items() if not keep or k in keep}
    page, more = _page(found, start, min(size, 2))
    key = "results" if "recent" in request.path else "companies"
    return ApiReply(body={key: page, "has-more": more, "hasMore": more, "offset": start + len(page)})


def _one(kind: str, records: dict[str, dict[str, Any]]) -> Any:
    """The route of one v1 company or deal: get it, update it (``PUT``) or delete it."""

    def answer(request: ApiRequest) -> ApiReply:
        _authorized(request)
        record_id = request.params["id"]
        _throttled(record_id)
        values = records.get(record_id)
        require(values is not None, _not_found())
        assert values is not None
        if request.method == "DELETE":
            return ApiReply(status=204, text="")
        if request.method == "PUT":
            values = {**values, **_named(request)}
        return ApiReply(body=_v1_object(kind, record_id, values))

    return answer


def _by_domain(request: ApiRequest) -> ApiReply:
    _authorized(request)
    domain = request.params["domain"]
    keep = (_body(request).get("requestOptions") or {}).get("properties") or ["domain", "name"]
    found = [_v1_object("company", cid, c) for cid, c in COMPANIES.items() if c["domain"] == domain]
    for company in found:
        company["properties"] = {k: v for k, v in company["properties"].items() if k in keep}
    limit = _number(str(_body(request).get("limit") or ""), 100)
    page, more = _page(found, 0, limit)
    return ApiReply(body={"results": page, "hasMore": more, "offset": {"companyId": 0, "isPrimary": True}})


def _deals(request: ApiRequest) -> ApiReply:
    _authorized(request)
    if request.method == "POST":
        values = _named(request)
        deal = _v1_object("deal", _new_id(values), values)
        deal["associations"].update(_body(request).get("associations") or {})
        return ApiReply(body=deal)
    size = min(_number(request.query.get("limit") or request.query.get("count"), 100), 250)
    start = _number(request.query.get("offset"), 0)
    found = [_v1_object("deal", did, d) for did, d in DEALS.items()]
    page, more = _page(found, start, min(size, 3))
    key = "results" if "recent" in request.path else "deals"
    return ApiReply(body={key: page, "hasMore": more, "offset": start + len(page)})


def _search(request: ApiRequest) -> ApiReply:
    _authorized(request)
    kind = request.params["kind"]
    body = _body(request)
    rows = [(str(vid), c) for vid, c in CONTACTS.items()] if kind == "contacts" else list(DEALS.items())
    found = [(oid, v) for oid, v in rows if _search_match(v, body.get("filterGroups") or [])]
    start = _number(str(body.get("after") or ""), 0)
    size = min(_number(str(body.get("limit") or ""), 10), 5)
    page = found[start : start + size]
    default = ["email", "firstname", "lastname"] if kind == "contacts" else ["dealname", "amount", "dealstage"]
    keep = body.get("properties") or default
    results = [
        {"id": oid, "properties": {**{k: str(v[k]) for k in keep if k in v}, "createdate": ISO,
                                   "hs_object_id": oid, "lastmodifieddate": ISO},
         "createdAt": ISO, "updatedAt": ISO, "archived": False}
        for oid, v in page
    ]  # fmt: skip
    answer: dict[str, Any] = {"total": len(found), "results": results}
    if start + size < len(found):
        answer["paging"] = {"next": {"after": str(start + size), "link": "?after=" + str(start + size)}}
    return ApiReply(body=answer)


def _engagement_body(eid: str) -> dict[str, Any]:
    kind, text = ENGAGEMENTS[eid]
    return {"engagement": {"id": int(eid), "portalId": PORTAL, "active": True, "createdAt": STAMP,
                           "lastUpdated": STAMP, "type": kind, "timestamp": STAMP},
            "associations": {"contactIds": [1001], "companyIds": [], "dealIds": [], "ownerIds": [],
                             "workflowIds": [], "ticketIds": []},
            "attachments": [], "metadata": {"body": text}}  # fmt: skip


def _engagements(request: ApiRequest) -> ApiReply:
    _authorized(request)
    size = min(_number(request.query.get("limit"), 100), 250)
    start = _number(request.query.get("offset"), 0)
    page, more = _page(sorted(ENGAGEMENTS), start, min(size, 2))
    return ApiReply(body={"results": [_engagement_body(e) for e in page], "hasMore": more,
                          "offset": start + len(page)})  # fmt: skip


def _new_engagement(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _body(request)
    engagement = body.get("engagement") or {}
    require(engagement.get("type") in ("EMAIL", "TASK", "MEETING", "CALL", "NOTE"),
            _error(400, "Invalid engagement type", "VALIDATION_ERROR"))  # fmt: skip
    made = {"id": int(_new_id(body)), "portalId": PORTAL, "active": True, "createdAt": STAMP, "lastUpdated": STAMP,
            "timestamp": STAMP, **engagement}  # fmt: skip
    links = {key: [int(v) for v in body.get("associations", {}).get(key) or []]
             for key in ("contactIds", "companyIds", "dealIds", "ownerIds", "workflowIds", "ticketIds")}  # fmt: skip
    return ApiReply(body={"engagement": made, "associations": links, "attachments": [],
                          "metadata": body.get("metadata") or {}})  # fmt: skip


def _engagement(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(request.params["id"] in ENGAGEMENTS, _not_found())
    if request.method == "DELETE":
        return ApiReply(status=204, text="")
    return ApiReply(body=_engagement_body(request.params["id"]))


def _ticket(request: ApiRequest) -> ApiReply:
    _authorized(request)
    ticket_id = request.params["id"]
    require(ticket_id in TICKETS, _not_found())
    if request.method == "DELETE":
        return ApiReply(status=204, text="")
    props = {"subject": TICKETS[ticket_id], "hs_pipeline": "0", "hs_pipeline_stage": "1"}
    properties = {k: {"value": v, "timestamp": STAMP, "source": "API", "sourceId": None} for k, v in props.items()}
    return ApiReply(body={"objectType": "TICKET", "portalId": PORTAL, "objectId": int(ticket_id),
                          "properties": properties, "isDeleted": False})  # fmt: skip


def _install_objects(server: FakeApiServer) -> None:
    server.route("*", r"/companies/v2/companies(/paged|/recent/modified)?", _companies, host=HOST)
    server.route("*", r"/companies/v2/companies/(?P<id>\d+)", _one("company", COMPANIES), host=HOST)
    server.route("DELETE", r"/crm/v3/objects/companies/(?P<id>[^/]+)", _one("company", COMPANIES), host=HOST)
    server.route("POST", r"/companies/v2/domains/(?P<domain>[^/]+)/companies", _by_domain, host=HOST)
    server.route("*", r"/deals/v1/deal(/paged|/recent/created)?", _deals, host=HOST)
    server.route("*", r"/deals/v1/deal/(?P<id>\d+)", _one("deal", DEALS), host=HOST)
    server.route("POST", r"/crm/v3/objects/(?P<kind>contacts|deals)/search", _search, host=HOST)
    server.route("GET", r"/engagements/v1/engagements/paged", _engagements, host=HOST)
    server.route("POST", r"/engagements/v1/engagements", _new_engagement, host=HOST)
    server.route("*", r"/engagements/v1/engagements/(?P<id>\d+)", _engagement, host=HOST)
    server.route("*", r"/crm-objects/v1/objects/tickets/(?P<id>\d+)", _ticket, host=HOST)


__all__ = ["API_KEY", "HOST", "TOKENS", "install"]
