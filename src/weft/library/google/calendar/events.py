"""Each Google Calendar operation as n8n's ``GoogleCalendar.execute`` runs it (``qs`` is the run's query, shared
by all items as in n8n)."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, unquote

from weft.errors import NodeApiError, NodeOperationError
from weft.library.google.calendar.times import add_next_occurrence, compact_utc, local_day, utc_text
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.values import js_string

CREDENTIAL = "googleCalendarOAuth2Api"
_API = "https://www.googleapis.com"
#: Body fields shared by create and update: (field, body key).
_FIELDS = (("color", "colorId"), ("description", "description"), ("guestsCanInviteOthers", "guestsCanInviteOthers"),
           ("guestsCanModify", "guestsCanModify"), ("guestsCanSeeOtherGuests", "guestsCanSeeOtherGuests"),
           ("id", "id"), ("location", "location"), ("summary", "summary"), ("showMeAs", "transparency"),
           ("visibility", "visibility"))  # fmt: skip
HINT = (
    "Some events repeat far into the future. To return less of them, add a 'Before' date or change the "
    "'Recurring Event Handling' option."
)


@dataclass
class Run:
    """The run's API, parameters, timezone and shared query; ``index`` is the current item."""

    api: ApiRequests
    scope: RoutingScope
    timezone: str
    version: float
    qs: dict[str, Any] = field(default_factory=dict)
    hints: list[str] = field(default_factory=list)
    index: int = 0

    def get(self, name: str, *default: Any, extract: bool = False) -> Any:
        return self.scope.parameter(name, self.index, *default, extract_value=extract)

    def calendar(self) -> str:
        """``encodeURIComponentOnce`` of the calendar's id."""
        return quote(unquote(js_string(self.get("calendar", "", extract=True))), safe="-_.!~*'()")

    async def call(self, method: str, resource: str, body: dict[str, Any] | None = None,
                   qs: dict[str, Any] | None = None) -> Any:  # fmt: skip
        """``googleApiRequest``."""
        options: dict[str, Any] = {"headers": {"Content-Type": "application/json"}, "method": method,
                                   "qs": dict(qs or {}), "url": f"{_API}{resource}", "json": True}  # fmt: skip
        if body:
            options["body"] = body
        return await self.api.request(CREDENTIAL, options, self.index)

    async def call_all(self, resource: str, qs: dict[str, Any]) -> list[Any]:
        """``googleApiRequestAllItems`` over ``items`` (pages of 100 by ``pageToken``; sets both in ``qs``)."""
        found: list[Any] = []
        qs["maxResults"] = 100
        while True:
            page = await self.call("GET", resource, None, qs)
            qs["pageToken"] = page.get("nextPageToken")
            if qs["pageToken"] is None:
                del qs["pageToken"]
            found.extend(page.get("items") or [])
            if page.get("nextPageToken") in (None, ""):
                return found

    async def call_with_retries(self, resource: str, qs: dict[str, Any]) -> Any:
        """``googleApiRequestWithRetries``: a 403 or 429 retried up to 10 times, waiting 1 s, 2 s, 4 s, …"""
        for attempt in range(11):
            try:
                return await self.call("GET", resource, None, qs)
            except NodeApiError as error:
                if attempt == 10 or error.http_code not in (403, 429):
                    raise
                await asyncio.sleep(2**attempt)
        return None


def _attendees(entries: list[Any]) -> list[dict[str, str]]:
    return [{"email": email.strip()} for entry in entries for email in str(entry).split(",")]


def _recurrence(run: Run, fields: dict[str, Any]) -> list[str]:
    if fields.get("rrule"):
        return [f"RRULE:{fields['rrule']}"]
    if fields.get("repeatHowManyTimes") and fields.get("repeatUntil"):
        message = "You can set either 'Repeat How Many Times' or 'Repeat Until' but not both"
        raise NodeOperationError(run.api.ctx.node.name, message, item_index=run.index)
    parts = []
    if fields.get("repeatFrecuency"):
        parts.append(f"FREQ={str(fields['repeatFrecuency']).upper()};")
    if fields.get("repeatHowManyTimes"):
        parts.append(f"COUNT={js_string(fields['repeatHowManyTimes'])};")
    if fields.get("repeatUntil"):
        parts.append(f"UNTIL={compact_utc(fields['repeatUntil'])}Z")
    return [f"RRULE:{''.join(parts)}"] if parts else []


def _common(run: Run, fields: dict[str, Any], body: dict[str, Any]) -> None:
    for option in ("maxAttendees", "sendNotifications", "sendUpdates"):
        if fields.get(option):
            run.qs[option] = fields[option]
    if fields.get("attendees"):
        body["attendees"] = _attendees(fields["attendees"])


def _rest(run: Run, fields: dict[str, Any], body: dict[str, Any]) -> None:
    for option, key in _FIELDS:
        if fields.get(option):
            body[key] = fields[option]
    if not run.get("useDefaultReminders", True):
        reminders = (run.get("remindersUi", {}) or {}).get("remindersValues")
        body["reminders"] = {"useDefault": False, **({"overrides": reminders} if reminders else {})}


async def create(run: Run) -> Any:
    calendar = run.calendar()
    start, end = run.get("start"), run.get("end")
    fields = run.get("additionalFields", {}) or {}
    body: dict[str, Any] = {}
    _common(run, fields, body)
    tz = run.timezone
    body = {"start": {"dateTime": utc_text(start, tz), "timeZone": tz},
            "end": {"dateTime": utc_text(end, tz), "timeZone": tz}, **body}  # fmt: skip
    _rest(run, fields, body)
    if fields.get("allday") == "yes":
        body["start"], body["end"] = {"date": local_day(start, tz)}, {"date": local_day(end, tz)}
    body["recurrence"] = _recurrence(run, fields)
    conference = (fields.get("conferenceDataUi") or {}).get("conferenceDataValues")
    if fields.get("conferenceDataUi") and conference:
        run.qs["conferenceDataVersion"] = 1
        solution = {"type": conference.get("conferenceSolution")}
        body["conferenceData"] = {"createRequest": {"requestId": str(uuid.uuid4()), "conferenceSolution": solution}}
    return await run.call("POST", f"/calendar/v3/calendars/{calendar}/events", body, run.qs)


async def delete(run: Run) -> Any:
    calendar, event = run.calendar(), js_string(run.get("eventId"))
    options = run.get("options", {}) or {}
    if options.get("sendUpdates"):
        run.qs["sendUpdates"] = options["sendUpdates"]
    await run.call("DELETE", f"/calendar/v3/calendars/{calendar}/events/{event}")
    return {"success": True}


async def get(run: Run) -> Any:
    calendar, event = run.calendar(), js_string(run.get("eventId"))
    options = run.get("options", {}) or {}
    tz = run.get("options.timeZone", "", extract=True)
    if options.get("maxAttendees"):
        run.qs["maxAttendees"] = options["maxAttendees"]
    if tz:
        run.qs["timeZone"] = tz
    found = await run.call("GET", f"/calendar/v3/calendars/{calendar}/events/{event}", None, run.qs)
    if not found:
        return found
    if run.version >= 1.3 and options.get("returnNextInstance") and found.get("recurrence"):
        qs = {"timeMin": now_iso(), "maxResults": 1}
        instances = await run.call(
            "GET", f"/calendar/v3/calendars/{calendar}/events/{found.get('id')}/instances", None, qs
        )
        first = (instances or {}).get("items") or []
        return [first[0]] if first else [found]
    return add_next_occurrence([found])


async def update(run: Run) -> Any:
    calendar, event = run.calendar(), js_string(run.get("eventId"))
    if run.version >= 1.3 and run.get("modifyTarget", "instance") == "event":
        instance = await run.call("GET", f"/calendar/v3/calendars/{calendar}/events/{event}", None, run.qs)
        event = js_string(instance.get("recurringEventId"))
    fields = run.get("updateFields", {}) or {}
    zone = fields.get("timezone")
    if run.version > 1 and zone is None:
        zone = run.timezone
    zone_name = str(zone or "")
    body: dict[str, Any] = {}
    for option in ("maxAttendees", "sendNotifications", "sendUpdates"):
        if fields.get(option):
            run.qs[option] = fields[option]
    for key in ("start", "end"):
        if fields.get(key):
            body[key] = {"dateTime": utc_text(fields[key], zone_name), "timeZone": zone, "date": None}
    if fields.get("attendees"):
        body["attendees"] = _attendees(fields["attendees"])
    if fields.get("attendeesUi"):
        values = fields["attendeesUi"].get("values") or {}
        body["attendees"] = []
        if values.get("mode") == "add":
            current = await run.call("GET", f"/calendar/v3/calendars/{calendar}/events/{event}")
            body["attendees"].extend((current or {}).get("attendees") or [])
        body["attendees"].extend(_attendees(values.get("attendees") or []))
    _rest(run, fields, body)
    if fields.get("allday") == "yes" and fields.get("start") and fields.get("end"):
        body["start"] = {"date": local_day(fields["start"], zone_name), "dateTime": None}
        body["end"] = {"date": local_day(fields["end"], zone_name), "dateTime": None}
    recurrence = _recurrence(run, fields)
    if recurrence:
        body["recurrence"] = recurrence
    return await run.call("PATCH", f"/calendar/v3/calendars/{calendar}/events/{event}", body, run.qs)


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{datetime.now(UTC).microsecond // 1000:03d}Z"


__all__ = ["CREDENTIAL", "HINT", "Run", "create", "delete", "get", "now_iso", "update"]
