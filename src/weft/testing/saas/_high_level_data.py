"""The fake HighLevel API's seeded data and its conventions (:mod:`weft.testing.saas.high_level` serves them): hosts,
credentials, contacts, opportunities and tasks, both versions' error bodies, the checks every route makes, and the
pages of at most :data:`PAGE` items with their ``meta``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require

V1_HOST = "rest.gohighlevel.com"
V2_HOST = "services.leadconnectorhq.com"
API_KEY = "hl-fake-api-key-0001"
ACCESS_TOKEN = "hl-fake-oauth-token-0001"
REFRESH_TOKEN = "hl-fake-refresh-token-0001"
CLIENT_ID = "hl-fake-client"
CLIENT_SECRET = "hl-fake-client-secret"
LOCATION = "hlLocation000001"
PIPELINE = "hlPipeline000001"
STAGES = ("hlStage000000001", "hlStage000000002")
CALENDAR = "hlCalendar000001"
USER = "hlUser0000000001"
RATE_LIMITED = "hlRateLimited001"
PAGE = 2
_NOW = "2024-06-01T12:00:00.000Z"


def _ms(iso: str) -> int:
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def _contact(number: int, first: str, last: str, phone: str, tags: list[str]) -> dict[str, Any]:
    return {
        "id": f"hlContact{number:07d}",
        "locationId": LOCATION,
        "firstName": first,
        "lastName": last,
        "contactName": f"{first} {last}".lower(),
        "email": f"{first.lower()}@example.com",
        "phone": phone,
        "type": "lead",
        "source": "fake",
        "tags": tags,
        "dnd": False,
        "dateAdded": f"2024-01-0{number}T09:00:00.000Z",
        "dateUpdated": f"2024-02-0{number}T09:00:00.000Z",
        "customFields": [],
    }


CONTACTS = [
    _contact(1, "Ada", "Lovelace", "+14155550101", ["vip"]),
    _contact(2, "Alan", "Turing", "+14155550102", []),
    _contact(3, "Grace", "Hopper", "+14155550103", ["navy", "vip"]),
    _contact(4, "Edsger", "Dijkstra", "+14155550104", []),
    _contact(5, "Barbara", "Liskov", "+14155550105", ["mit"]),
]


def _opportunity(number: int, name: str, status: str, stage: int, value: int) -> dict[str, Any]:
    contact = CONTACTS[number - 1]
    return {
        "id": f"hlOpportunity{number:03d}",
        "name": name,
        "monetaryValue": value,
        "pipelineId": PIPELINE,
        "pipelineStageId": STAGES[stage],
        "assignedTo": USER,
        "status": status,
        "source": "fake",
        "lastStatusChangeAt": f"2024-03-0{number}T10:00:00.000Z",
        "createdAt": f"2024-03-0{number}T10:00:00.000Z",
        "updatedAt": f"2024-03-0{number}T10:00:00.000Z",
        "contactId": contact["id"],
        "contact": {"id": contact["id"], "name": f"{contact['firstName']} {contact['lastName']}",
                    "email": contact["email"], "phone": contact["phone"], "tags": contact["tags"]},
    }  # fmt: skip


OPPORTUNITIES = [
    _opportunity(1, "Analytical engine", "open", 0, 1000),
    _opportunity(2, "Enigma", "won", 1, 2500),
    _opportunity(3, "Compiler", "open", 1, 1800),
    _opportunity(4, "Shortest paths", "lost", 0, 700),
    _opportunity(5, "Substitution", "open", 0, 1200),
]


def _task(number: int, title: str, completed: bool) -> dict[str, Any]:
    return {
        "id": f"hlTask{number:010d}",
        "title": title,
        "body": f"Task {number}",
        "assignedTo": USER,
        "dueDate": f"2024-07-0{number}T15:30:00.000Z",
        "completed": completed,
        "contactId": CONTACTS[0]["id"],
    }


TASKS = [_task(1, "Call back", False), _task(2, "Send notes", True), _task(3, "Book a demo", False)]

# ------------------------------------------------------------------ errors and checks


def _v1_error(status: int, message: str, **headers: str) -> ApiReply:
    return ApiReply(status=status, body={"msg": message}, headers=dict(headers))


def _v2_error(status: int, message: Any, error: str, **headers: str) -> ApiReply:
    return ApiReply(status=status, body={"statusCode": status, "message": message, "error": error}, headers=headers)


def _v2(request: ApiRequest) -> bool:
    return request.host == V2_HOST


def _not_found(request: ApiRequest, what: str) -> ApiReply:
    if _v2(request):
        return _v2_error(404, f"{what} not found", "Not Found")
    return _v1_error(404, f"{what} not found")


def _authorized(request: ApiRequest) -> None:
    auth = request.headers.get("authorization")
    if not _v2(request):
        require(auth == f"Bearer {API_KEY}", _v1_error(401, "Api key is invalid."))
        return
    require(auth == f"Bearer {ACCESS_TOKEN}", _v2_error(401, "Invalid JWT", "Unauthorized"))
    require(request.headers.get("version") == "2021-07-28", _v2_error(400, "Version header is missing", "Bad Request"))


def _invalid(request: ApiRequest, message: str) -> ApiReply:
    if _v2(request):
        return _v2_error(422, [message], "Unprocessable Entity")
    return _v1_error(422, message)


def _find(request: ApiRequest, found: list[dict[str, Any]], item_id: str, what: str) -> dict[str, Any]:
    if item_id == RATE_LIMITED:
        reply = _v2_error(429, "Too Many Requests", "Too Many Requests", **{"Retry-After": "10"})
        require(False, reply if _v2(request) else _v1_error(429, "Too many requests", **{"Retry-After": "10"}))
    match = next((item for item in found if item["id"] == item_id), None)
    require(match is not None, _not_found(request, what))
    assert match is not None
    return dict(match)


def _body(request: ApiRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


# ------------------------------------------------------------------ pages


def _page(request: ApiRequest, found: list[dict[str, Any]], key: str, created: str) -> ApiReply:
    """``{key: [...], meta}``: at most :data:`PAGE` after ``startAfterId``."""
    after = request.query.get("startAfterId")
    start = next((i + 1 for i, item in enumerate(found) if item["id"] == after), 0) if after else 0
    limit = request.query.get("limit")
    size = min(int(limit), PAGE) if limit and limit.isdigit() and int(limit) > 0 else PAGE
    page = found[start : start + size]
    last = page[-1] if page else None
    meta: dict[str, Any] = {
        "total": len(found),
        "currentPage": start // PAGE + 1,
        "nextPage": start // PAGE + 2 if start + size < len(found) else None,
        "prevPage": start // PAGE if start else None,
        "startAfterId": last["id"] if last else None,
        "startAfter": _ms(last[created]) if last else None,
    }
    return ApiReply(body={key: page, "meta": meta})


def _matches(item: dict[str, Any], text: str, *fields: str) -> bool:
    return not text or any(text.lower() in str(item.get(name) or "").lower() for name in fields)


def list_contacts(request: ApiRequest) -> ApiReply:
    _authorized(request)
    if _v2(request) and not request.query.get("startAfterId"):
        require(request.query.get("locationId") == LOCATION, _invalid(request, "locationId must be a valid id"))
    query = request.query.get("query") or ""
    found = [c for c in CONTACTS if _matches(c, query, "contactName", "email", "phone")]
    if request.query.get("order") == "desc":
        found = list(reversed(found))
    return _page(request, found, "contacts", "dateAdded")


def list_opportunities(request: ApiRequest) -> ApiReply:
    _authorized(request)
    v2 = _v2(request)
    if v2 and not request.query.get("startAfterId"):
        require(request.query.get("location_id") == LOCATION, _invalid(request, "location_id must be a valid id"))
    if not v2:
        require(request.params.get("pipeline") == PIPELINE, _not_found(request, "Pipeline"))
    query = request.query.get("q" if v2 else "query") or ""
    found = [o for o in OPPORTUNITIES if _matches(o, query, "name")]
    status = request.query.get("status")
    stage = request.query.get("pipeline_stage_id" if v2 else "stageId")
    found = [o for o in found if (not status or status == "all" or o["status"] == status)]
    found = [o for o in found if not stage or o["pipelineStageId"] == stage]
    start, end = request.query.get("startDate"), request.query.get("endDate")
    if start and start.isdigit():
        found = [o for o in found if _ms(o["createdAt"]) >= int(start)]
    if end and end.isdigit():
        found = [o for o in found if _ms(o["createdAt"]) <= int(end)]
    reply = _page(request, found, "opportunities", "createdAt")
    if v2:
        reply.body["aggregations"] = {}
    return reply
