"""Convert to File's ``iCal`` operation (n8n's ICalendar ``createEvent``): one ICS event file per item, written as
the ``ics`` library (2.40) writes it — its line order, text escaping and 75-octet line folding, its defaults (an
untitled event's ``SUMMARY:undefined`` included) — with dates read as moment reads them on a UTC server.

``UID`` is the given one or a fresh nanoid; ``DTSTAMP`` is the minute the file is made (n8n's is the minute its
process loaded the library), so two runs' files differ only there, as two n8n processes' do.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item

_NANOID = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"


class IcsError(Exception):
    """An event the ``ics`` library's schema refuses (its message, and a description that names the field)."""

    def __init__(self, message: str, description: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.description = description


def _moment(value: Any) -> datetime | None:
    """``moment(value)`` on a UTC server: an ISO date, a time without offset taken as UTC; ``None`` if invalid."""
    text = str(value or "").strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _dates(parameters: dict[str, Any], all_day: bool) -> tuple[datetime, datetime]:
    """Start and end; an invalid one fails as the ics schema does (one error per date part: "12 errors occurred")."""
    start = _moment(parameters.get("start"))
    end = _moment(parameters.get("end") or parameters.get("start"))
    bad = [name for name, moment in (("Start", start), ("End", end)) if moment is None]
    if start is None or end is None:
        count = len(bad) * (3 if all_day else 6)
        raise IcsError(
            f"{count} errors occurred",
            description=f"{' and '.join(bad)} must be a date and time, such as 2024-01-15T10:30:00Z",
        )
    return start, end


def _parts(moment: datetime, all_day: bool) -> list[int]:
    parts = [moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second]
    return parts[:3] if all_day else parts


def fold_line(line: str) -> str:
    """The ``ics`` ``foldLine``: 75 characters, then 74 per continuation line (``\\r\\n\\t``)."""
    parts, length = [], 75
    while len(line) > length:
        parts.append(line[:length])
        line, length = line[length:], 74
    parts.append(line)
    return "\r\n\t".join(parts)


def format_text(text: str) -> str:
    """The ``ics`` ``formatText``: backslashes, newlines, ``;`` and ``,`` escaped."""
    text = text.replace("\\", "\\\\")
    return text.replace("\r\n", "\\n").replace("\n", "\\n").replace(";", "\\;").replace(",", "\\,")


def _date(parts: list[int]) -> str:
    if len(parts) == 3:
        return f"{parts[0]}{parts[1]:02d}{parts[2]:02d}"
    return f"{parts[0]}{parts[1]:02d}{parts[2]:02d}T{parts[3]:02d}{parts[4]:02d}{parts[5]:02d}Z"


def _contact(contact: dict[str, Any], organizer: bool) -> str:
    name = contact.get("name") or ("Organizer" if organizer else "Unnamed attendee")
    prefix = "" if organizer else ("RSVP=TRUE;" if contact.get("rsvp") else "RSVP=FALSE;")
    email = contact.get("email")
    return f"{prefix}CN={name}" + (f":mailto:{email}" if email else "")


def _lines(event: dict[str, Any]) -> list[str]:
    start, end = event["start"], event.get("end")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "CALSCALE:GREGORIAN", "PRODID:adamgibbons/ics", "METHOD:PUBLISH"]
    if event.get("calName"):
        lines.append(fold_line(f"X-WR-CALNAME:{event['calName']}"))
    lines += ["X-PUBLISHED-TTL:PT1H", "BEGIN:VEVENT", f"UID:{event['uid']}"]
    title = event.get("title")
    lines.append(fold_line(f"SUMMARY:{format_text(title) if title else 'undefined'}"))
    lines.append(f"DTSTAMP:{event['timestamp']}")
    lines.append(f"DTSTART{';VALUE=DATE' if len(start) == 3 else ''}:{_date(start)}")
    if end and (len(end) != 3 or end != start):
        lines.append(f"DTEND{';VALUE=DATE' if len(end) == 3 else ''}:{_date(end)}")
    optional: list[tuple[str, Callable[[Any], str], bool]] = [
        ("sequence", lambda v: f"SEQUENCE:{v}", False),
        ("description", lambda v: f"DESCRIPTION:{format_text(str(v))}", True),
        ("url", lambda v: f"URL:{v}", True),
        ("geo", lambda v: f"GEO:{_js(v.get('lat'))};{_js(v.get('lon'))}", True),
        ("location", lambda v: f"LOCATION:{format_text(str(v))}", True),
        ("status", lambda v: f"STATUS:{v}", True),
        ("organizer", lambda v: f"ORGANIZER;{_contact(v, True)}", True),
        ("busyStatus", lambda v: f"X-MICROSOFT-CDO-BUSYSTATUS:{v}", True),
    ]
    for key, render, fold in optional:
        if event.get(key):
            line = render(event[key])
            lines.append(fold_line(line) if fold else line)
    lines += [fold_line(f"ATTENDEE;{_contact(a, False)}") for a in event.get("attendees") or []]
    if event.get("recurrenceRule"):
        lines.append(f"RRULE:{event['recurrenceRule']}")
    return [*lines, "END:VEVENT", "END:VCALENDAR"]


def _js(value: Any) -> str:
    from weft.library.files._convert_numbers import js_number_string

    return js_number_string(value) if isinstance(value, int | float) and not isinstance(value, bool) else str(value)


def _nanoid() -> str:
    return "".join(secrets.choice(_NANOID) for _ in range(21))


def build_event(parameters: dict[str, Any], options: dict[str, Any], now: datetime | None = None) -> str:
    """The ICS text of one event from the node's parameters (``title``, ``start``, ``end``, ``allDay``) and options."""
    all_day = bool(parameters.get("allDay"))
    start, end = _dates(parameters, all_day)
    if all_day:
        end += timedelta(days=1)
    stamp = (now or datetime.now(UTC)).replace(second=0, microsecond=0)
    event: dict[str, Any] = {
        "title": parameters.get("title"),
        "start": _parts(start, all_day),
        "end": _parts(end, all_day),
        "uid": options.get("uid") or _nanoid(),
        "timestamp": stamp.strftime("%Y%m%dT%H%M%SZ"),
    }
    extra = {k: v for k, v in options.items() if k not in ("fileName", "useWorkflowTimezone", "uid")}
    event["geo"] = (extra.pop("geolocationUi", None) or {}).get("geolocationValues")
    event["organizer"] = (extra.pop("organizerUi", None) or {}).get("organizerValues")
    event["attendees"] = (extra.pop("attendeesUi", None) or {}).get("attendeeValues")
    event.update(extra)
    return "".join(line + "\r\n" for line in _lines(event))


async def ical_files(ctx: ExecuteContext, items: list[Item]) -> list[Item]:
    """One ``text/calendar`` file per input item."""
    out: list[Item] = []
    for index in range(len(items)):
        try:
            parameters = {
                name: ctx.get_node_parameter(name, index, default)
                for name, default in (("title", ""), ("start", ""), ("end", ""), ("allDay", False))
            }
            prop = ctx.get_node_parameter("binaryPropertyName", index, "data")
            options = dict(ctx.get_node_parameter("additionalFields", index, {}))
            data = build_event(parameters, options).encode("utf-8", "surrogatepass")
            entry = await ctx.prepare_binary_data(data, options.get("fileName") or "event.ics", "text/calendar")
        except (NodeError, IcsError) as error:
            if ctx.continue_on_fail():
                out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                continue
            description = getattr(error, "description", None)
            raise NodeOperationError(ctx.node.name, error.message, description=description, item_index=index) from error
        out.append({"json": {}, "binary": {prop: entry}, "pairedItem": {"item": index}})
    return out


__all__ = ["IcsError", "build_event", "fold_line", "format_text", "ical_files"]
