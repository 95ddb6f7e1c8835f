"""A fake HighLevel (GoHighLevel / LeadConnector) API: version 1 on ``rest.gohighlevel.com/v1`` (an API key as
``Authorization: Bearer``, errors ``{"msg": …}``) and version 2 on ``services.leadconnectorhq.com`` (an OAuth2
access token, the ``Version: 2021-07-28`` header, errors ``{"statusCode", "message", "error"}``). Contacts and
opportunities come in pages of at most :data:`PAGE` with ``meta`` (``total``, ``startAfterId``, ``startAfter``,
the last item's id and creation time in ms); a page with ``startAfterId`` needs no ``locationId`` (n8n asks next
pages with nothing else). The id :data:`RATE_LIMITED` answers 429 with ``Retry-After``. Seeded data only; writes
answer as HighLevel does, built from the request, and change nothing, so every run answers the same."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, require
from weft.testing.saas._high_level_data import (
    _NOW,
    ACCESS_TOKEN,
    CALENDAR,
    CLIENT_ID,
    CLIENT_SECRET,
    CONTACTS,
    LOCATION,
    OPPORTUNITIES,
    PIPELINE,
    REFRESH_TOKEN,
    STAGES,
    TASKS,
    USER,
    V1_HOST,
    V2_HOST,
    _authorized,
    _body,
    _contact,
    _find,
    _invalid,
    _not_found,
    _opportunity,
    _task,
    _v1_error,
    _v2,
    _v2_error,
    list_contacts,
    list_opportunities,
)

# ------------------------------------------------------------------ contacts


def _new_contact(request: ApiRequest, body: dict[str, Any], base: dict[str, Any] | None) -> dict[str, Any]:
    contact = dict(base or _contact(9, "New", "Contact", "", []))
    contact.update({k: v for k, v in body.items() if k not in ("customField", "customFields", "locationId")})
    contact["email"] = body.get("email", contact["email"] if base else None)
    contact["phone"] = body.get("phone", contact["phone"] if base else None)
    contact["contactName"] = f"{contact.get('firstName') or ''} {contact.get('lastName') or ''}".strip().lower()
    contact["dateUpdated"] = _NOW
    if base is None:
        contact["dateAdded"] = _NOW
    if "customFields" in body:
        contact["customFields"] = [
            {"id": f.get("id"), "value": f.get("field_value")} for f in body["customFields"] if isinstance(f, dict)
        ]
    if "customField" in body:
        contact["customField"] = [{"id": k, "value": v} for k, v in body["customField"].items()]
    if isinstance(body.get("tags"), list):
        contact["tags"] = body["tags"]
    return contact


def create_contact(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _body(request)
    require(bool(body.get("email") or body.get("phone")), _invalid(request, "email or phone is required"))
    require(body.get("tags") is None or isinstance(body["tags"], list), _invalid(request, "tags must be an array"))
    if _v2(request):
        require(body.get("locationId") == LOCATION, _invalid(request, "locationId must be a valid id"))
    existing = next((c for c in CONTACTS if body.get("email") and c["email"] == str(body["email"]).lower()), None)
    contact = _new_contact(request, body, existing)
    if _v2(request):
        return ApiReply(status=201, body={"new": existing is None, "contact": contact, "traceId": "hl-trace-0001"})
    return ApiReply(body={"contact": contact})


def get_contact(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"contact": _find(request, CONTACTS, request.params["id"], "Contact")})


def update_contact(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = _find(request, CONTACTS, request.params["id"], "Contact")
    contact = _new_contact(request, _body(request), found)
    if _v2(request):
        return ApiReply(body={"succeded": True, "contact": contact, "traceId": "hl-trace-0001"})
    return ApiReply(body={"contact": contact})


def delete_contact(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(request, CONTACTS, request.params["id"], "Contact")
    return ApiReply(body={"succeded": True} if _v2(request) else {})


def lookup_contact(request: ApiRequest) -> ApiReply:
    """Version 1: contacts by ``email`` or ``phone``; none is a 422 as the API answers."""
    _authorized(request)
    email, phone = request.query.get("email") or "", request.query.get("phone") or ""
    require(bool(email or phone), _v1_error(422, "email or phone is required"))
    found = [c for c in CONTACTS if (email and c["email"] == email.lower()) or (phone and c["phone"] == phone)]
    require(bool(found), _v1_error(422, "Contact not found"))
    return ApiReply(body={"contacts": found})


def add_note(request: ApiRequest) -> ApiReply:
    _authorized(request)
    created = _contact(9, "New", "Contact", "", [])  # the contact a create answers
    contact = _find(request, [*CONTACTS, created], request.params["id"], "Contact")
    body = _body(request)
    require(isinstance(body.get("body"), str) and bool(body["body"]), _invalid(request, "body must be a string"))
    note = {"id": "hlNote0000000001", "body": body["body"], "userId": body.get("userId"),
            "contactId": contact["id"], "dateAdded": _NOW}  # fmt: skip
    return ApiReply(status=201, body={"note": note})


def install_contacts(server: FakeApiServer) -> None:
    for host, tail in ((V1_HOST, ""), (V2_HOST, "/?")):
        prefix = "/v1" if host == V1_HOST else ""
        server.route("GET", rf"{prefix}/contacts{tail}", list_contacts, host=host)
        server.route("GET", rf"{prefix}/contacts/(?P<id>[^/]+){tail}", get_contact, host=host)
        server.route("PUT", rf"{prefix}/contacts/(?P<id>[^/]+){tail}", update_contact, host=host)
        server.route("DELETE", rf"{prefix}/contacts/(?P<id>[^/]+){tail}", delete_contact, host=host)
    server.route("POST", r"/v1/contacts", create_contact, host=V1_HOST)
    server.route("GET", r"/v1/contacts/lookup", lookup_contact, host=V1_HOST)
    server.route("POST", r"/contacts/upsert/?", create_contact, host=V2_HOST)
    server.route("POST", r"/contacts/(?P<id>[^/]+)/notes/?", add_note, host=V2_HOST)


# ------------------------------------------------------------------ opportunities


def _v1_pipeline(request: ApiRequest) -> None:
    if not _v2(request):
        require(request.params.get("pipeline") == PIPELINE, _not_found(request, "Pipeline"))


def _opportunity_fields(request: ApiRequest, body: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    found = dict(base)
    renamed = {"title": "name", "stageId": "pipelineStageId"}
    for key, value in body.items():
        if key not in ("email", "phone", "locationId"):
            found[renamed.get(key, key)] = value
    found["updatedAt"] = _NOW
    return found


def create_opportunity(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _v1_pipeline(request)
    body = _body(request)
    v2 = _v2(request)
    name = body.get("name" if v2 else "title")
    require(isinstance(name, str) and bool(name), _invalid(request, f"{'name' if v2 else 'title'} is required"))
    require(body.get("status") in ("open", "won", "lost", "abandoned"), _invalid(request, "status is invalid"))
    if v2:
        require(body.get("locationId") == LOCATION, _invalid(request, "locationId must be a valid id"))
        require(body.get("pipelineId") == PIPELINE, _invalid(request, "pipelineId must be a valid id"))
        require(bool(body.get("contactId")), _invalid(request, "contactId should not be empty"))
    else:
        require(body.get("stageId") in STAGES, _v1_error(422, "stageId is invalid"))
        require(bool(body.get("email") or body.get("phone") or body.get("contactId")),
                _v1_error(422, "Either email, phone or contactId is required"))  # fmt: skip
    base = {**_opportunity(1, str(name), "open", 0, 0), "id": "hlOpportunity900", "createdAt": _NOW}
    found = _opportunity_fields(request, body, base)
    return ApiReply(status=201, body={"opportunity": found} if v2 else found)


def get_opportunity(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _v1_pipeline(request)
    found = _find(request, OPPORTUNITIES, request.params["id"], "Opportunity")
    return ApiReply(body={"opportunity": found} if _v2(request) else found)


def update_opportunity(request: ApiRequest) -> ApiReply:
    """Version 1 needs ``title`` and ``status`` (n8n fills them in from the opportunity)."""
    _authorized(request)
    _v1_pipeline(request)
    found = _find(request, OPPORTUNITIES, request.params["id"], "Opportunity")
    body = _body(request)
    if not _v2(request):
        require(bool(body.get("title")) and bool(body.get("status")), _v1_error(422, "title and status are required"))
    updated = _opportunity_fields(request, body, found)
    return ApiReply(body={"opportunity": updated} if _v2(request) else updated)


def delete_opportunity(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _v1_pipeline(request)
    _find(request, OPPORTUNITIES, request.params["id"], "Opportunity")
    return ApiReply(body={"succeded": True} if _v2(request) else {})


def install_opportunities(server: FakeApiServer) -> None:
    one = r"/v1/pipelines/(?P<pipeline>[^/]+)/opportunities"
    server.route("GET", one, list_opportunities, host=V1_HOST)
    server.route("POST", one, create_opportunity, host=V1_HOST)
    server.route("GET", one + r"/(?P<id>[^/]+)", get_opportunity, host=V1_HOST)
    server.route("PUT", one + r"/(?P<id>[^/]+)", update_opportunity, host=V1_HOST)
    server.route("DELETE", one + r"/(?P<id>[^/]+)", delete_opportunity, host=V1_HOST)
    server.route("POST", r"/opportunities/?", create_opportunity, host=V2_HOST)
    server.route("GET", r"/opportunities/(?P<id>[^/]+)/?", get_opportunity, host=V2_HOST)
    server.route("PUT", r"/opportunities/(?P<id>[^/]+)/?", update_opportunity, host=V2_HOST)
    server.route("DELETE", r"/opportunities/(?P<id>[^/]+)/?", delete_opportunity, host=V2_HOST)
    server.route("GET", r"/opportunities/search/?", list_opportunities, host=V2_HOST)


# ------------------------------------------------------------------ tasks


def _contact_tasks(request: ApiRequest) -> list[dict[str, Any]]:
    contact = _find(request, CONTACTS, request.params["contact"], "Contact")
    return [dict(t) for t in TASKS if t["contactId"] == contact["id"]]


def _v1_task(task: dict[str, Any]) -> dict[str, Any]:
    """Version 1's task shape (``description``, ``status``)."""
    found = {k: v for k, v in task.items() if k not in ("body", "completed")}
    found["description"] = task.get("body")
    found["status"] = "completed" if task.get("completed") else "incompleted"
    return found


def _task_reply(request: ApiRequest, task: dict[str, Any], status: int = 200) -> ApiReply:
    return ApiReply(status=status, body={"task": task} if _v2(request) else _v1_task(task))


def list_tasks(request: ApiRequest) -> ApiReply:
    _authorized(request)
    tasks = _contact_tasks(request)
    return ApiReply(body={"tasks": tasks if _v2(request) else [_v1_task(t) for t in tasks]})


def _due(request: ApiRequest, body: dict[str, Any]) -> None:
    due = body.get("dueDate")
    valid = isinstance(due, str)
    if valid:
        try:
            datetime.fromisoformat(str(due).replace("Z", "+00:00"))
        except ValueError:
            valid = False
    require(valid, _invalid(request, "dueDate must be a valid ISO 8601 date string"))


def create_task(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _contact_tasks(request)
    body = _body(request)
    require(isinstance(body.get("title"), str) and bool(body["title"]), _invalid(request, "title should not be empty"))
    _due(request, body)
    task = {**_task(9, str(body["title"]), bool(body.get("completed"))), "contactId": request.params["contact"]}
    task.update({k: v for k, v in body.items() if k in ("dueDate", "assignedTo", "body", "completed")})
    if "description" in body:
        task["body"] = body["description"]
    if body.get("status") == "completed":
        task["completed"] = True
    return _task_reply(request, task, 201 if _v2(request) else 200)


def get_task(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return _task_reply(request, _find(request, _contact_tasks(request), request.params["id"], "Task"))


def update_task(request: ApiRequest) -> ApiReply:
    """Version 1 needs ``title`` and ``dueDate`` (n8n fills them in from the task)."""
    _authorized(request)
    task = _find(request, _contact_tasks(request), request.params["id"], "Task")
    body = _body(request)
    if not _v2(request):
        require(bool(body.get("title")), _v1_error(422, "title is required"))
        _due(request, body)
    elif "dueDate" in body and body["dueDate"] is not None:
        _due(request, body)
    task.update({k: v for k, v in body.items() if k in ("title", "dueDate", "assignedTo", "body", "completed")})
    if "description" in body:
        task["body"] = body["description"]
    if "status" in body:
        task["completed"] = body["status"] == "completed"
    return _task_reply(request, task)


def delete_task(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(request, _contact_tasks(request), request.params["id"], "Task")
    return ApiReply(body={"succeded": True} if _v2(request) else {})


def install_tasks(server: FakeApiServer) -> None:
    for host, prefix, tail in ((V1_HOST, "/v1", ""), (V2_HOST, "", "/?")):
        tasks = rf"{prefix}/contacts/(?P<contact>[^/]+)/tasks"
        server.route("GET", tasks + tail, list_tasks, host=host)
        server.route("POST", tasks + tail, create_task, host=host)
        server.route("GET", tasks + r"/(?P<id>[^/]+)" + tail, get_task, host=host)
        server.route("PUT", tasks + r"/(?P<id>[^/]+)" + tail, update_task, host=host)
        server.route("DELETE", tasks + r"/(?P<id>[^/]+)" + tail, delete_task, host=host)


# ------------------------------------------------------------------ calendars and OAuth2


def book_appointment(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _body(request)
    require(body.get("calendarId") == CALENDAR, _invalid(request, "calendarId must be a valid id"))
    require(body.get("locationId") == LOCATION, _invalid(request, "locationId must be a valid id"))
    require(bool(body.get("contactId")), _invalid(request, "contactId should not be empty"))
    require(
        isinstance(body.get("startTime"), str) and bool(body["startTime"]), _invalid(request, "startTime is required")
    )
    event = {"id": "hlEvent000000001", "calendarId": CALENDAR, "locationId": LOCATION,
             "contactId": body["contactId"], "startTime": body["startTime"], "endTime": body.get("endTime"),
             "title": body.get("title", "Appointment"), "appointmentStatus": body.get("appointmentStatus", "new"),
             "assignedUserId": body.get("assignedUserId", USER), "address": body.get("address", ""),
             "isRecurring": False}  # fmt: skip
    return ApiReply(status=201, body=event)


def free_slots(request: ApiRequest) -> ApiReply:
    """Slots of each day between ``startDate`` and ``endDate`` (ms), at most three days."""
    _authorized(request)
    require(request.params["calendar"] == CALENDAR, _not_found(request, "Calendar"))
    start, end = request.query.get("startDate") or "", request.query.get("endDate") or ""
    require(
        start.isdigit() and end.isdigit(),
        _v2_error(422, ["startDate and endDate must be numbers"], "Unprocessable Entity"),
    )
    body: dict[str, Any] = {}
    day = int(start) - int(start) % 86_400_000
    while day <= int(end) and len(body) < 3:
        date = datetime.fromtimestamp(day / 1000, UTC).strftime("%Y-%m-%d")
        body[date] = {"slots": [f"{date}T09:00:00-04:00", f"{date}T10:00:00-04:00"]}
        day += 86_400_000
    body["traceId"] = "hl-trace-0001"
    return ApiReply(body=body)


def token(request: ApiRequest) -> ApiReply:
    """The token endpoint: a ``refresh_token`` grant with the client in the body (the credential's ``body``)."""
    form = request.body if isinstance(request.body, dict) else {}
    require(form.get("client_id") == CLIENT_ID and form.get("client_secret") == CLIENT_SECRET,
            ApiReply(status=401, body={"error": "invalid_client", "error_description": "Invalid client"}))  # fmt: skip
    invalid = ApiReply(status=400, body={"error": "invalid_grant", "error_description": "Invalid refresh token"})
    require(form.get("grant_type") == "refresh_token" and form.get("refresh_token") == REFRESH_TOKEN, invalid)
    grant = {"access_token": ACCESS_TOKEN, "token_type": "Bearer", "expires_in": 86399,
             "refresh_token": REFRESH_TOKEN, "scope": "contacts.readonly", "userType": "Location",
             "locationId": LOCATION, "userId": USER}  # fmt: skip
    return ApiReply(body=grant)


def custom_values(request: ApiRequest) -> ApiReply:
    """Version 1's custom values (the API key credential's test request)."""
    _authorized(request)
    return ApiReply(body={"customValues": [{"id": "hlValue000000001", "name": "Company", "value": "Weft"}]})


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/v1/custom-values/?", custom_values, host=V1_HOST)
    install_contacts(server)
    install_opportunities(server)
    install_tasks(server)
    server.route("POST", r"/calendars/events/appointments/?", book_appointment, host=V2_HOST)
    server.route("GET", r"/calendars/(?P<calendar>[^/]+)/free-slots/?", free_slots, host=V2_HOST)
    server.route("POST", r"/oauth/token", token, host=V2_HOST)
