"""A fake Google Calendar API v3 (``https://www.googleapis.com/calendar/v3/...``; only these paths of the host):
events of two calendars (``primary``, owned by ``ada@weft.example``, and ``team@group.calendar.google.com``),
listed in pages of at most 4 (``nextPageToken``/``pageToken``; Google may answer fewer than ``maxResults``),
filtered by ``timeMin``/``timeMax``/``q``, a recurring event expanded into its instances with ``singleEvents``,
``orderBy=startTime`` refused without it (400, as Google), ``freeBusy``, and Google's error bodies
(``{"error": {"errors": [...], "code", "message"}}``): 404 ``notFound``, 410 ``deleted``, 400 ``timeRangeEmpty``,
429 ``rateLimitExceeded`` for the event ``rate-limited``. Bearer token ``calendar-test-token``. It keeps no state:
writes answer the written event without changing what reads see, so cases run in any order."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, Rejected, json_error, require
from weft.testing.saas.google_oauth import authorized

HOST = "www.googleapis.com"
TOKENS = ("calendar-test-token",)
OWNER = "ada@weft.example"
TEAM = "team@group.calendar.google.com"
ZONE = "Europe/Berlin"
STAMP = "2025-01-02T03:04:05.000Z"
_BASE = "/calendar/v3"
_PAGE = 4


def _error(status: int, reason: str, message: str, **headers: str) -> ApiReply:
    domain = "usageLimits" if status == 429 else "global"
    body = {"error": {"errors": [{"domain": domain, "reason": reason, "message": message}], "code": status,
                      "message": message}}  # fmt: skip
    return json_error(status, body, **headers)


def _when(text: str) -> datetime:
    found = datetime.fromisoformat(text)
    return found if found.tzinfo else found.replace(tzinfo=ZoneInfo(ZONE))


def _slot(text: str | None, zone: str | None, day: str | None = None) -> dict[str, Any]:
    if day:
        return {"date": day}
    assert text is not None
    tz = zone or ZONE
    return {"dateTime": _when(text).astimezone(ZoneInfo(tz)).isoformat(), "timeZone": tz}


def _event(eid: str, summary: str, start: str, end: str, calendar: str = "primary", **extra: Any) -> dict[str, Any]:
    organizer = OWNER if calendar == "primary" else TEAM
    event: dict[str, Any] = {
        "kind": "calendar#event", "etag": f'"{eid}-etag"', "id": eid,
        "status": "confirmed", "htmlLink": f"https://www.google.com/calendar/event?eid={eid}", "created": STAMP,
        "updated": STAMP, "summary": summary, "creator": {"email": OWNER, "self": True},
        "organizer": {"email": organizer, "self": calendar == "primary"},
        "start": _slot(start, None), "end": _slot(end, None), "iCalUID": f"{eid}@google.com", "sequence": 0,
        "reminders": {"useDefault": True}, "eventType": "default",
    }  # fmt: skip
    event.update(extra)
    return event


def _seed() -> dict[str, list[dict[str, Any]]]:
    guests = [{"email": "grace@weft.example", "responseStatus": "accepted"},
              {"email": "linus@weft.example", "responseStatus": "needsAction"}]  # fmt: skip
    primary = [
        _event("kickoff0001", "Project kickoff", "2025-03-03T09:00:00", "2025-03-03T10:00:00",
               attendees=guests, description="Plan the quarter", location="Room 1"),
        _event("standup0001", "Weekly standup", "2025-01-06T09:00:00", "2025-01-06T09:15:00",
               recurrence=["RRULE:FREQ=WEEKLY;UNTIL=20250301T000000Z"]),
        {**_event("offsite0001", "Team offsite", "2025-03-04T00:00:00", "2025-03-05T00:00:00"),
         "start": {"date": "2025-03-04"}, "end": {"date": "2025-03-05"}, "transparency": "transparent"},
    ] + [_event(f"review000{n}", f"Review {n}", f"2025-03-{4 + n:02d}T14:00:00", f"2025-03-{4 + n:02d}T15:00:00")
         for n in range(1, 8)]  # fmt: skip
    team = [_event("teamsync001", "Team sync", "2025-03-03T11:00:00", "2025-03-03T11:30:00", TEAM)]
    return {"primary": primary, TEAM: team}


EVENTS = _seed()


def _instances(master: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for day in ("2025-02-10", "2025-02-17", "2025-02-24"):
        stamp = day.replace("-", "") + "T080000Z"
        instance = _event(f"{master['id']}_{stamp}", master["summary"], f"{day}T09:00:00", f"{day}T09:15:00")
        instance.update(recurringEventId=master["id"], originalStartTime=instance["start"])
        found.append(instance)
    return found


def _start(event: dict[str, Any]) -> datetime:
    slot = event["start"]
    return _when(slot.get("dateTime") or f"{slot['date']}T00:00:00")


def _end(event: dict[str, Any]) -> datetime:
    slot = event["end"]
    return _when(slot.get("dateTime") or f"{slot['date']}T00:00:00")


def _calendar(request: ApiRequest) -> list[dict[str, Any]]:
    authorized(request, TOKENS)
    calendar = "primary" if request.params["calendar"] == OWNER else request.params["calendar"]
    require(calendar in EVENTS, _error(404, "notFound", "Not Found"))
    return EVENTS[calendar]


def _list(request: ApiRequest) -> ApiReply:
    rows = _calendar(request)
    query = request.query
    single = query.get("singleEvents") == "true"
    if query.get("orderBy") == "startTime" and not single:
        return _error(400, "invalid", "The requested ordering is not available for the particular query.")
    if single:
        rows = [i for e in rows for i in (_instances(e) if e.get("recurrence") else [e])]
    for key in ("timeMin", "timeMax"):
        if query.get(key):
            try:
                moment = datetime.fromisoformat(query[key])
            except ValueError:
                return _error(400, "badRequest", "Bad Request")
            require(moment.tzinfo is not None, _error(400, "badRequest", "Bad Request"))
            if key == "timeMin":
                rows = [e for e in rows if _end(e) > moment]
            else:
                rows = [e for e in rows if _start(e) < moment]
    if query.get("q"):
        rows = [e for e in rows if query["q"].lower() in (e["summary"] + e.get("description", "")).lower()]
    if query.get("orderBy") == "startTime":
        rows = sorted(rows, key=_start)
    size = min(int(query.get("maxResults", "250") or 250), _PAGE)
    start = int(query.get("pageToken", "p0").removeprefix("p") or 0)
    body: dict[str, Any] = {"kind": "calendar#events", "etag": '"p3list"', "summary": OWNER, "description": "",
                            "updated": STAMP, "timeZone": ZONE, "accessRole": "owner",
                            "defaultReminders": [{"method": "popup", "minutes": 10}]}  # fmt: skip
    if start + size < len(rows):
        body["nextPageToken"] = f"p{start + size}"
    body["items"] = rows[start : start + size]
    return ApiReply(body=body)


def _find(request: ApiRequest) -> dict[str, Any]:
    rows = _calendar(request)
    eid = request.params["event"]
    if eid == "rate-limited":
        raise Rejected(_error(429, "rateLimitExceeded", "Rate Limit Exceeded", **{"Retry-After": "1"}))
    require(eid != "gone0000001", _error(410, "deleted", "Resource has been deleted"))
    everything = rows + [i for e in rows if e.get("recurrence") for i in _instances(e)]
    found = next((e for e in everything if e["id"] == eid), None)
    require(found is not None, _error(404, "notFound", "Not Found"))
    assert found is not None
    return found


def _one(request: ApiRequest) -> ApiReply:
    found = _find(request)
    if request.method == "GET":
        return ApiReply(body=found)
    if request.method == "DELETE":
        return ApiReply(status=204)
    return ApiReply(body=_written(request, dict(found)))


def _instances_route(request: ApiRequest) -> ApiReply:
    found = _find(request)
    rows = _instances(found) if found.get("recurrence") else []
    if request.query.get("timeMin"):
        moment = datetime.fromisoformat(request.query["timeMin"])
        rows = [e for e in rows if _end(e) > moment]
    size = int(request.query.get("maxResults", "250") or 250)
    return ApiReply(body={"kind": "calendar#events", "summary": OWNER, "timeZone": ZONE, "items": rows[:size]})


def _slot_of(given: Any, previous: Any) -> Any:
    if not isinstance(given, dict):
        return previous
    if given.get("date"):
        return {"date": given["date"]}
    require(bool(given.get("dateTime")), _error(400, "required", "Missing time"))
    try:
        return _slot(str(given["dateTime"]), given.get("timeZone"))
    except ValueError:
        raise Rejected(_error(400, "badRequest", "Bad Request")) from None


def _written(request: ApiRequest, event: dict[str, Any]) -> dict[str, Any]:
    body = request.body if isinstance(request.body, dict) else {}
    event["start"] = _slot_of(body.get("start"), event.get("start"))
    event["end"] = _slot_of(body.get("end"), event.get("end"))
    require(_end(event) > _start(event), _error(400, "timeRangeEmpty", "The specified time range is empty."))
    for key in ("summary", "description", "location", "colorId", "visibility", "transparency", "reminders",
                "guestsCanInviteOthers", "guestsCanModify", "guestsCanSeeOtherGuests"):  # fmt: skip
        if key in body:
            event[key] = body[key]
    if body.get("attendees"):
        event["attendees"] = [
            {**a, "responseStatus": a.get("responseStatus", "needsAction")} for a in body["attendees"]
        ]
    if body.get("recurrence"):
        event["recurrence"] = body["recurrence"]
    conference = ((body.get("conferenceData") or {}).get("createRequest")) or None
    if conference and request.query.get("conferenceDataVersion") == "1":
        kind = (conference.get("conferenceSolution") or {}).get("type") or "hangoutsMeet"
        event["hangoutLink"] = "https://meet.google.com/abc-defg-hij"
        event["conferenceData"] = {
            "createRequest": {"requestId": conference.get("requestId"), "conferenceSolutionKey": {"type": kind},
                              "status": {"statusCode": "success"}},
            "entryPoints": [{"entryPointType": "video", "uri": "https://meet.google.com/abc-defg-hij",
                             "label": "meet.google.com/abc-defg-hij"}],
            "conferenceSolution": {"key": {"type": kind}, "name": "Google Meet"}, "conferenceId": "abc-defg-hij",
        }  # fmt: skip
    event["sequence"] = event.get("sequence", 0) + (1 if request.method == "PATCH" else 0)
    return event


def _create(request: ApiRequest) -> ApiReply:
    calendar = _calendar(request)
    body = request.body if isinstance(request.body, dict) else {}
    eid = str(body.get("id") or "created00001")
    organizer_calendar = "primary" if calendar is EVENTS["primary"] else TEAM
    event = _event(eid, "", "2025-01-01T00:00:00", "2025-01-01T01:00:00", organizer_calendar)
    del event["summary"]
    return ApiReply(body=_written(request, event))


def _free_busy(request: ApiRequest) -> ApiReply:
    authorized(request, TOKENS)
    body = request.body if isinstance(request.body, dict) else {}
    low, high = datetime.fromisoformat(str(body.get("timeMin"))), datetime.fromisoformat(str(body.get("timeMax")))
    zone = ZoneInfo(str(body.get("timeZone") or "UTC"))
    calendars: dict[str, Any] = {}
    for entry in body.get("items") or []:
        cid = str(entry.get("id"))
        key = "primary" if cid in ("primary", OWNER) else cid
        if key not in EVENTS:
            calendars[cid] = {"errors": [{"domain": "global", "reason": "notFound"}], "busy": []}
            continue
        busy = [e for e in EVENTS[key] if "dateTime" in e["start"] and e.get("transparency") != "transparent"
                and _start(e) < high and _end(e) > low]  # fmt: skip
        calendars[cid] = {"busy": [{"start": _start(e).astimezone(zone).isoformat(),
                                    "end": _end(e).astimezone(zone).isoformat()} for e in busy]}  # fmt: skip
    return ApiReply(body={"kind": "calendar#freeBusy", "timeMin": low.astimezone(UTC).isoformat(),
                          "timeMax": high.astimezone(UTC).isoformat(), "calendars": calendars})  # fmt: skip


def install(server: FakeApiServer) -> None:
    events = rf"{_BASE}/calendars/(?P<calendar>[^/]+)/events"
    server.route("GET", events, _list, host=HOST)
    server.route("POST", events, _create, host=HOST)
    server.route("*", rf"{events}/(?P<event>[^/]+)", _one, host=HOST)
    server.route("GET", rf"{events}/(?P<event>[^/]+)/instances", _instances_route, host=HOST)
    server.route("POST", rf"{_BASE}/freeBusy", _free_busy, host=HOST)


__all__ = ["HOST", "TOKENS", "install"]
