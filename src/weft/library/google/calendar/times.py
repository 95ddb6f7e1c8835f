"""The date handling of n8n's Google Calendar node (moment-timezone's): a date in the workflow's timezone as UTC
(``moment.tz(date, zone).utc().format()``), its local calendar day, ``addTimezoneToDate`` and
``addNextOccurrence`` (the next instance of a recurring event after now)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

INVALID = "Invalid date"


def parse(text: Any, zone: str) -> datetime | None:
    """A date as moment's ``moment.tz(text, zone)`` reads it: its own offset if it has one, else ``zone``'s time."""
    if isinstance(text, datetime):
        found = text
    elif isinstance(text, date):
        found = datetime(text.year, text.month, text.day)
    else:
        try:
            found = datetime.fromisoformat(str(text).strip().replace(" ", "T", 1))
        except ValueError:
            return None
    if found.tzinfo is None:
        found = found.replace(tzinfo=_zone(zone))
    return found


def _zone(zone: str) -> Any:
    try:
        return ZoneInfo(zone) if zone else UTC
    except (ValueError, KeyError):
        return UTC


def utc_text(text: Any, zone: str) -> str:
    """``moment.tz(text, zone).utc().format()``: ``2025-03-04T15:00:00Z``."""
    found = parse(text, zone)
    return found.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if found else INVALID


def local_day(text: Any, zone: str) -> str:
    """``moment.tz(text, zone).utc(true).format('YYYY-MM-DD')``: the day in ``zone``."""
    found = parse(text, zone)
    return found.astimezone(_zone(zone)).strftime("%Y-%m-%d") if found else INVALID


def compact_utc(text: Any) -> str:
    """``moment(text).utc().format('YYYYMMDDTHHmmss')`` (a date without offset read in UTC, as on n8n's hosts)."""
    found = parse(text, "UTC")
    return found.astimezone(UTC).strftime("%Y%m%dT%H%M%S") if found else INVALID


def add_timezone(text: str, zone: str) -> str:
    """n8n's ``addTimezoneToDate``: a date ending in ``Z`` or ``+hh:mm`` as it is, else read in ``zone``, as UTC."""
    if text.endswith("Z") or re.search(r"\+\d{2}:\d{2}$", text):
        return text
    return utc_text(text, zone)


def add_next_occurrence(items: list[Any], now: datetime | None = None) -> list[Any]:
    """n8n's ``addNextOccurrence``: each recurring event (an ``RRULE``) still running gets ``nextOccurrence``."""
    from dateutil.rrule import rrulestr

    moment = now or datetime.now(UTC)
    for item in items:
        rules = item.get("recurrence") if isinstance(item, dict) else None
        rule = next((r for r in rules or [] if str(r).upper().startswith("RRULE")), None)
        if rule is None:
            continue
        try:
            start = parse(item["start"].get("dateTime") or item["end"].get("date"), "UTC")
            end = parse(item["end"].get("dateTime") or item["end"].get("date"), "UTC")
            if start is None or end is None:
                continue
            start, end = start.astimezone(UTC), end.astimezone(UTC)
            parsed = rrulestr(f"DTSTART:{start.strftime('%Y%m%dT%H%M%S')}Z\n{rule}")
            until = getattr(parsed, "_until", None)
            if until is not None and until < moment:
                continue
            following = parsed.after(moment, inc=False)
        except (ValueError, KeyError, AttributeError, TypeError):
            continue
        if following is not None:
            stamp = "%Y-%m-%dT%H:%M:%SZ"
            start_zone, end_zone = item["start"].get("timeZone"), item["end"].get("timeZone")
            item["nextOccurrence"] = {
                "start": {"dateTime": following.strftime(stamp), "timeZone": start_zone},
                "end": {"dateTime": (following + (end - start)).strftime(stamp), "timeZone": end_zone},
            }
    return items


__all__ = ["INVALID", "add_next_occurrence", "add_timezone", "compact_utc", "local_day", "parse", "utc_text"]
