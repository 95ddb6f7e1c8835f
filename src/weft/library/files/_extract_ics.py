"""Extract from File's ``fromIcs``: an ICS calendar as the object ts-ics 1.2 (``icsCalendarToObject``) makes of it.

Calendar ``version``/``prodId``/``method``, ``timezones`` and ``events``; each event's properties in file order
under ts-ics's names (``stamp``, ``start``, ``end`` as ``{date, type[, local]}``, ``categories`` as a list,
``recurrenceRule``, ``duration``, ``organizer``), then ``alarms`` and ``attendees``. Texts are left escaped and
unknown properties dropped, as ts-ics does (``SEQUENCE`` and ``X-WR-CALNAME`` among them). A date with a ``TZID``
is converted with the IANA zone of that name (ts-ics expands the file's own VTIMEZONE rules when it has them:
Weft uses them only for zones Python does not know). Date-only ``UNTIL`` values are read as n8n 2.41 reads them.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_EVENT = {
    "LAST-MODIFIED": "lastModified", "CATEGORIES": "categories", "CREATED": "created", "DESCRIPTION": "description",
    "DTSTAMP": "stamp", "DTSTART": "start", "LOCATION": "location", "RRULE": "recurrenceRule", "SUMMARY": "summary",
    "UID": "uid", "TRANSP": "timeTransparent", "URL": "url", "DTEND": "end", "DURATION": "duration", "GEO": "geo",
    "CLASS": "class", "ORGANIZER": "organizer", "PRIORITY": "priority", "SEQ": "sequence", "STATUS": "status",
    "ATTACH": "attach", "RECURRENCE-ID": "recurrenceId", "ATTENDEE": "attendee", "COMMENT": "comment",
}  # fmt: skip
_ALARM = {
    "ACTION": "action", "DESCRIPTION": "description", "DURATION": "duration", "REPEAT": "repeat",
    "SUMMARY": "summary", "TRIGGER": "trigger", "ATTACH": "attachment", "ATTENDEE": "attendee",
}  # fmt: skip
_RULE = {
    "BYDAY": "byDay", "BYHOUR": "byHour", "BYMINUTE": "byMinute", "BYMONTH": "byMonth", "BYMONTHDAY": "byMonthday",
    "BYSECOND": "bySecond", "BYSETPOS": "bySetPos", "BYWEEKNO": "byWeekNo", "BYYEARDAY": "byYearday",
    "COUNT": "count", "FREQ": "frequency", "INTERVAL": "interval", "UNTIL": "until", "WKST": "workweekStart",
}  # fmt: skip
_CALENDAR = {"METHOD": "method", "PRODID": "prodId", "VERSION": "version"}
_DATES = ("stamp", "start", "end", "created", "lastModified")
_NUMBER_LISTS = ("bySecond", "byMinute", "byHour", "byMonthday", "byYearday", "byWeekNo", "bySetPos")


class IcsParseError(Exception):
    """ts-ics's error for a line without a ``:``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _block(name: str) -> re.Pattern[str]:
    return re.compile(f"BEGIN:{name}([\\s\\S]*?)END:{name}")


def _markers(name: str) -> re.Pattern[str]:
    return re.compile(f"BEGIN:{name}|END:{name}")


def unfold(text: str) -> list[str]:
    """Lines, continuation lines (starting with a space or tab) joined, empty lines dropped."""
    raw = [line for line in re.split(r"\r\n|\r|\n", text) if line != ""]
    lines: list[str] = []
    for line in raw:
        if lines and line[:1] in (" ", "\t"):
            lines[-1] += line.lstrip()
        else:
            lines.append(line)
    return lines


def parse_line(line: str) -> tuple[str, dict[str, str], str]:
    """``NAME;K=V;…:value`` → name, parameters, value (the first ``:`` outside quotes ends the name)."""
    quoted, colon = False, None
    for index, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted:
            colon = index
            break
    if colon is None:
        raise IcsParseError(f"Line not valid: {line}")
    head, value = line[:colon], line[colon + 1 :]
    name, *params = head.split(";")
    options: dict[str, str] = {}
    for param in params:
        key, *rest = param.split("=")
        text = "=".join(rest)
        options[key] = text[1:-1] if text.startswith('"') and text.endswith('"') and len(text) > 1 else text
    return name, options, value


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


_STAMP_FIELDS = ((0, 4), (4, 6), (6, 8), (9, 11), (11, 13), (13, 15))


def _utc_parts(text: str) -> datetime | None:
    try:
        year, month, day, hour, minute, second = (int(text[a:b]) for a, b in _STAMP_FIELDS)
        return datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError:
        return None


def _offset(zone: str, moment: datetime) -> tuple[str, timedelta] | None:
    try:
        delta = moment.astimezone(ZoneInfo(zone)).utcoffset()
    except (ZoneInfoNotFoundError, ValueError):
        return None
    if delta is None:
        return None
    minutes = int(abs(delta.total_seconds()) // 60)
    return f"{'-' if delta.total_seconds() < 0 else '+'}{minutes // 60:02d}{minutes % 60:02d}", delta


def ics_date(value: str, options: dict[str, str]) -> dict[str, Any]:
    """ts-ics's date object: a DATE at local (UTC) midnight, a DATE-TIME read as UTC and moved out of its TZID."""
    if options.get("VALUE") == "DATE":
        try:
            day = datetime(int(value[0:4]), int(value[4:6]), int(value[6:8]), tzinfo=UTC)
        except ValueError:
            return {"date": None, "type": "DATE"}
        return {"date": _iso(day), "type": "DATE"}
    kind = options.get("VALUE") or "DATE-TIME"
    moment = _utc_parts(value)
    zone = options.get("TZID")
    found = _offset(zone, moment) if zone and moment is not None else None
    if moment is None or found is None:
        return {"date": _iso(moment), "type": kind}
    offset, delta = found
    local = {"date": _iso(moment), "timezone": zone, "tzoffset": offset}
    return {"date": _iso(moment - delta), "type": kind, "local": local}


def ics_duration(text: str) -> dict[str, Any]:
    """``-P1DT2H30M`` → ``{before, days, weeks, hours, minutes, seconds}`` as ts-ics splits it."""
    out: dict[str, Any] = {}
    if text.startswith("-"):
        out["before"], text = True, text[1:]
    date_part, _, time_part = text[1:].partition("T")
    for unit, key in (("D", "days"), ("W", "weeks")):
        if unit in date_part:
            number, date_part = date_part.split(unit, 1)
            out[key] = _js_number(number)
    for unit, key in (("H", "hours"), ("M", "minutes"), ("S", "seconds")):
        if unit in time_part:
            number, time_part = time_part.split(unit, 1)
            out[key] = _js_number(number)
    return out


def _js_number(text: str) -> Any:
    from weft.nodes.values import js_to_number

    number = js_to_number(text)
    return None if isinstance(number, float) and number != number else number


def _weekday(text: str) -> dict[str, Any]:
    return {"day": text} if len(text) == 2 else {"day": text[-2:], "occurence": _js_number(text[:-2])}


def ics_rule(text: str) -> dict[str, Any]:
    """An ``RRULE`` value as ts-ics's recurrence object."""
    out: dict[str, Any] = {}
    for part in text.split(";"):
        key, *rest = part.split("=")
        name, value = _RULE.get(key), "=".join(rest)
        if name is None:
            continue
        if name == "until":
            out[name] = ics_date(value, {})
        elif name in _NUMBER_LISTS:
            out[name] = [_js_number(v) for v in value.split(",")]
        elif name == "byMonth":
            out[name] = [_js_number(v) - 1 for v in value.split(",")]
        elif name == "byDay":
            out[name] = [_weekday(d) for d in value.split(",")]
        elif name in ("count", "interval"):
            out[name] = _js_number(value)
        else:
            out[name] = value
    return out


def _contact(value: str, options: dict[str, str], organizer: bool) -> dict[str, Any]:
    def mail(text: str | None) -> str | None:
        return None if text is None else re.sub("mailto:", "", text, flags=re.I)

    if organizer:
        sent_by = mail(options.get("SENT-BY"))
        fields = {"name": options.get("CN"), "dir": options.get("DIR"), "sentBy": sent_by, "email": mail(value)}
    else:
        fields = {
            "email": mail(value), "delegatedFrom": mail(options.get("DELEGATED-FROM")), "dir": options.get("DIR"),
            "member": mail(options.get("MEMBER")), "name": options.get("CN"), "partstat": options.get("PARTSTAT"),
            "role": options.get("ROLE"), "sentBy": mail(options.get("SENT-BY")),
        }  # fmt: skip
    return {k: v for k, v in fields.items() if v is not None}


def _alarm(block: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    attendees, attachments = [], []
    for line in unfold(_markers("VALARM").sub("", block)):
        name, options, value = parse_line(line)
        key = _ALARM.get(name)
        if key == "trigger":
            related = {"related": options["RELATED"]} if "RELATED" in options else {}
            if options.get("VALUE") in ("DATE-TIME", "DATE"):
                out[key] = {"type": "absolute", "value": ics_date(value, options), "options": related}
            else:
                out[key] = {"type": "relative", "value": ics_duration(value), "options": related}
        elif key == "duration":
            out[key] = ics_duration(value)
        elif key == "repeat":
            out[key] = _js_number(value)
        elif key == "attachment":
            attachment = {"type": "uri", "url": value}
            attachments.append(attachment | ({"formatType": options["FMTTYPE"]} if "FMTTYPE" in options else {}))
        elif key == "attendee":
            attendees.append(_contact(value, options, False))
        elif key:
            out[key] = value
    if attachments:
        out["attachments"] = attachments
    if attendees:
        out["attendees"] = attendees
    return out


def _event(block: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    attendees = []
    for line in unfold(_block("VALARM").sub("", _markers("VEVENT").sub("", block))):
        name, options, value = parse_line(line)
        key = _EVENT.get(name)
        if key is None:
            continue
        if key in _DATES:
            out[key] = ics_date(value, options)
        elif key == "categories":
            out[key] = value.split(",")
        elif key == "recurrenceRule":
            out[key] = ics_rule(value)
        elif key == "duration":
            out[key] = ics_duration(value)
        elif key == "organizer":
            out[key] = _contact(value, options, True)
        elif key == "sequence":
            out[key] = _js_number(value)
        elif key == "attendee":
            attendees.append(_contact(value, options, False))
        else:
            out[key] = value
    alarms = [_alarm(match.group(0)) for match in _block("VALARM").finditer(block)]
    if alarms:
        out["alarms"] = alarms
    if attendees:
        out["attendees"] = attendees
    return out


_ZONE_PROPS = {
    "COMMENT": "comment", "DTSTART": "start", "RDATE": "recurrenceDate", "RRULE": "recurrenceRule",
    "TZNAME": "name", "TZOFFSETFROM": "offsetFrom", "TZOFFSETTO": "offsetTo",
}  # fmt: skip


def _zone_prop(block: str, kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    for line in unfold(_markers(kind).sub("", block)):
        name, options, value = parse_line(line)
        key = _ZONE_PROPS.get(name)
        if key == "start":
            out[key] = _iso(_utc_parts(value))
        elif key == "recurrenceRule":
            out[key] = ics_rule(value)
        elif key == "recurrenceDate":
            out[key] = ics_date(value, options)
        elif key:
            out[key] = value
    return out


def _timezone(block: str) -> dict[str, Any]:
    body = _markers("VTIMEZONE").sub("", block)
    out: dict[str, Any] = {"props": []}
    for line in unfold(_block("DAYLIGHT").sub("", _block("STANDARD").sub("", body))):
        name, _, value = parse_line(line)
        if name == "TZID":
            out["id"] = value
        elif name == "LAST-MODIFIED":
            out["lastModified"] = _iso(_utc_parts(value))
        elif name == "TZURL":
            out["url"] = value
    for kind in ("STANDARD", "DAYLIGHT"):
        out["props"] += [_zone_prop(m.group(0), kind) for m in _block(kind).finditer(body)]
    return out


def parse_ics(node_name: str, text: str) -> Any:
    """The calendar object of an ICS text (``node_name`` for errors' sake; a bad line raises
    :class:`IcsParseError` with ts-ics's message)."""
    text = re.sub(r"(^|\r?\n)(RRULE[^\r\n]*?\bUNTIL=)(\d{8})(?=;|\r?\n|$)", r"\1\2\3T000000Z", text)
    body = _markers("VCALENDAR").sub("", text)
    out: dict[str, Any] = {}
    for line in unfold(_block("VTIMEZONE").sub("", _block("VEVENT").sub("", body))):
        name, _, value = parse_line(line)
        if name in _CALENDAR:
            out[_CALENDAR[name]] = value
    zones = [_timezone(match.group(0)) for match in _block("VTIMEZONE").finditer(body)]
    if zones:
        out["timezones"] = zones
    events = [_event(match.group(0)) for match in _block("VEVENT").finditer(body)]
    if events:
        out["events"] = events
    return out


__all__ = ["IcsParseError", "ics_date", "ics_duration", "ics_rule", "parse_ics", "parse_line", "unfold"]
