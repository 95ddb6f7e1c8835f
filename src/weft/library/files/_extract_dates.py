"""SheetJS's ``fuzzydate`` for the date-like text it types as dates when it reads delimited text or HTML tables,
on a UTC server, and ``datenum`` (the Excel serial number of a date).

Recognised, as SheetJS recognises them: ISO date-times (``2024-01-15T10:30:00[.5][Z]``, ``2024-01-15 10:30``),
times (``10:30``, ``10:30:15.5``, ``1:30 pm``) and the numeric dates V8's legacy parser reads (``2024-01-15``,
``1/15/2024``, ``2024/1/5``, ``1-15-2024``, two-digit years, an optional time), days past a month's end rolled
over as V8 rolls them. Text with letters (month names) is not a date, as in SheetJS.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta

_EPOCH = datetime(1899, 12, 30)
_EPOCH_MS = -2209161600000  # Date.UTC(1899, 11, 30)
_ISO = re.compile(r"^(\d+)-(\d+)-(\d+)[T ](\d+):(\d+)(?::(\d+))?(\.\d+)?Z?$")
_TIME24 = re.compile(r"^([01]?\d|2[0-3])(?::([0-5]?\d)(?::([0-5]?\d))?(\.\d+)?)?$")
_TIME12 = re.compile(r"^(0?\d|1[0-2])(?::([0-5]?\d)(?::([0-5]?\d))?(\.\d+)?)?\s+([ap])m?$")
_NUMERIC = re.compile(r"^(\d{1,4})([-/])(\d{1,2})\2(\d{1,4})(?:[ T]+(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$")


def _milli(fraction: str | None) -> int:
    return int((fraction + "0000")[1:4]) if fraction else 0


def _time(hour: int, minute: str | None, second: str | None, fraction: str | None) -> datetime:
    moment = datetime(1899, 12, 31, hour, int(minute or 0), int(second or 0))
    return moment + timedelta(milliseconds=_milli(fraction))


def _numeric(match: re.Match[str]) -> datetime | None:
    first, _, second, third, hour, minute, sec = match.groups()
    if len(first) > 2 or int(first) > 31:
        year, month, day = int(first), int(second), int(third)
    else:
        month, day, year = int(first), int(second), int(third)
        if len(third) <= 2:
            year += 2000 if year < 50 else 1900
    if not (1 <= month <= 12 and 1 <= day <= 31) or year > 9999:
        return None
    moment = datetime(year, month, 1) + timedelta(days=day - 1)
    if hour is not None:
        if int(hour) > 23 or int(minute) > 59 or int(sec or 0) > 59:
            return None
        moment += timedelta(hours=int(hour), minutes=int(minute), seconds=int(sec or 0))
    return moment


def fuzzy_date(text: str) -> datetime | None:
    """The date SheetJS reads in ``text`` (naive, UTC), or ``None``."""
    iso = _ISO.match(text)
    if iso and iso.group(6) is not None:
        year, month, day, hour, minute, second = (int(g) for g in iso.groups()[:6])
        try:
            return datetime(year, month, day, hour, minute, second) + timedelta(milliseconds=_milli(iso.group(7)))
        except ValueError:
            return None
    lower = re.sub(r"\s+", " ", text.lower()).strip()
    if match := _TIME12.match(lower):
        hour = int(match.group(1)) % 12 + (12 if match.group(5) == "p" else 0)
        return _time(hour, match.group(2), match.group(3), match.group(4))
    if match := _TIME24.match(lower):
        return _time(int(match.group(1)), match.group(2), match.group(3), match.group(4))
    if iso:
        year, month, day, hour, minute = (int(g) for g in iso.groups()[:5])
        try:
            return datetime(year, month, day, hour, minute) + timedelta(milliseconds=_milli(iso.group(7)))
        except ValueError:
            return None
    match = _NUMERIC.match(text.strip())
    moment = _numeric(match) if match else None
    if moment is None or not 0 <= moment.year - 1900 <= 8099:
        return None
    return moment


def date_number(moment: datetime) -> float | int:
    """SheetJS ``datenum``: days since 1899-12-30 (one less before 1900-03-01, for Excel's 1900 leap day)."""
    days = (moment - _EPOCH) / timedelta(days=1)
    days = days - 1 if days < 60 else days
    return int(days) if float(days).is_integer() else days


_PDRE1 = re.compile(r"^(\d+):(\d+)(:\d+)?(\.\d+)?$")
_PDRE2 = re.compile(r"^(\d+)-(\d+)-(\d+)$")
_PDRE3 = re.compile(r"^(\d+)-(\d+)-(\d+)[T ](\d+):(\d+)(:\d+)?(\.\d+)?$")


def _utc(year: int, month: int, day: int, *time: int) -> datetime | None:
    """JavaScript ``Date.UTC``: years 0-99 are 1900-1999; months and days past their end roll over."""
    year += 1900 if 0 <= year <= 99 else 0
    year, month = year + month // 12, month % 12
    try:
        moment = datetime(year, month + 1, 1) + timedelta(days=day - 1)
    except (ValueError, OverflowError):
        return None
    hour, minute, second, milli = (*time, 0, 0, 0, 0)[:4]
    return moment + timedelta(hours=hour, minutes=minute, seconds=second, milliseconds=milli)


def parse_date(text: str) -> datetime | None:
    """SheetJS ``parseDate`` (an HTML table's date cell): its own patterns, else V8's ``new Date(text)``."""
    if m := _PDRE1.match(text):
        seconds = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + (int(m.group(3)[1:]) if m.group(3) else 0)
        return datetime(1899, 12, 31) + timedelta(seconds=seconds, milliseconds=_milli(m.group(4)))
    if m := _PDRE2.match(text):
        return _utc(int(m.group(1)), int(m.group(2)) - 1, int(m.group(3)))
    if m := _PDRE3.match(text):
        second = int(m.group(6)[1:]) if m.group(6) else 0
        parts = (int(m.group(4)), int(m.group(5)), second, _milli(m.group(7)))
        return _utc(int(m.group(1)), int(m.group(2)) - 1, int(m.group(3)), *parts)
    iso = _ISO.match(text)
    if iso and iso.group(6) is not None:
        return fuzzy_date(text)
    match = _NUMERIC.match(text.strip())
    return _numeric(match) if match else None


def html_date_value(text: str) -> float | int | str | None:
    """What an HTML table's date-like cell becomes in n8n's JSON: an ISO string (``null`` for a date V8 cannot
    read), or the serial number 60 itself (Excel's 29 February 1900)."""
    moment = parse_date(text)
    if moment is None:
        return None
    serial = date_number(moment)
    if 60 <= serial < 61:
        return serial
    # numdate: the serial number back to a Date, whose time JavaScript truncates to the millisecond
    days = float(serial if serial > 60 else serial + 1)
    millis = math.trunc(days * 24 * 60 * 60 * 1000 + _EPOCH_MS)  # in JavaScript's order of float operations
    moment = datetime(1970, 1, 1) + timedelta(milliseconds=millis)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


__all__ = ["date_number", "fuzzy_date", "html_date_value", "parse_date"]
