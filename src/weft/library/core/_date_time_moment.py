"""The parts of moment.js (English locale) Date & Time v1 uses: ``moment(text)``, ``moment(text, format[, strict])``,
``moment.tz``, ``moment.unix``, ``add``/``subtract``, ``format`` and ``toISOString``, on zone-aware datetimes.

A moment here is a :class:`datetime` with a ``ZoneInfo``; "local" is the host's zone, as in moment.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from weft.nodes.user_regex import UserRegex, compile_built_pattern

_MONTHS = list(calendar.month_name)[1:]
_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
_FORMAT_TOKENS = re.compile(
    r"\[[^\]]*\]|LTS|LT|LLLL|LLL|LL|L|llll|lll|ll|l|Mo|MMMM|MMM|MM|M|Do|DDDD|DDD|DD|D|dddd|ddd|dd|do|d|E|e|"
    r"Qo|Q|WW|W|ww|w|YYYYYY|YYYY|YY|Y|gggg|GGGG|A|a|HH|H|hh|h|kk|k|mm|m|ss|s|S{1,9}|ZZ|Z|X|x|zz|z"
)
_LOCALIZED = {
    "LT": "h:mm A",
    "LTS": "h:mm:ss A",
    "L": "MM/DD/YYYY",
    "LL": "MMMM D, YYYY",
    "LLL": "MMMM D, YYYY h:mm A",
    "LLLL": "dddd, MMMM D, YYYY h:mm A",
    "l": "M/D/YYYY",
    "ll": "MMM D, YYYY",
    "lll": "MMM D, YYYY h:mm A",
    "llll": "ddd, MMM D, YYYY h:mm A",
}
_ISO = re.compile(
    r"^\s*(?P<y>[+-]\d{6}|\d{4})-?(?P<mo>\d\d)(?:-?(?P<d>\d\d))?"
    r"(?:[T ](?P<h>\d\d)(?::?(?P<mi>\d\d)(?::?(?P<s>\d\d)(?:[.,](?P<f>\d+))?)?)?"
    r"\s*(?P<z>Z|[+-]\d\d(?::?\d\d)?)?)?\s*$"
)


def zone(name: str | None) -> ZoneInfo | None:
    """The zone called ``name``, ``None`` when there is none by that name."""
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _offset(text: str) -> timedelta:
    if text == "Z":
        return timedelta(0)
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    return sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))


def _wall(local: ZoneInfo, parts: dict[str, int], offset: timedelta | None) -> datetime:
    naive = datetime(parts["y"], parts.get("mo", 1), parts.get("d", 1), parts.get("h", 0), parts.get("mi", 0))
    naive += timedelta(seconds=parts.get("s", 0), milliseconds=parts.get("ms", 0))
    if offset is None:
        return naive.replace(tzinfo=local)
    return (naive - offset).replace(tzinfo=UTC).astimezone(local)


def parse_default(text: str, local: ZoneInfo) -> datetime | None:
    """``moment(text)``: ISO 8601, then RFC 2822, then a few of JavaScript ``Date``'s forms; ``None`` if invalid."""
    match = _ISO.match(text)
    if match:
        groups = match.groupdict()
        fraction = (groups["f"] or "0")[:3].ljust(3, "0")
        parts = {k: int(v) for k, v in groups.items() if v is not None and k not in ("z", "f")}
        parts["ms"] = int(fraction)
        try:
            return _wall(local, parts, _offset(groups["z"]) if groups["z"] else None)
        except ValueError:
            return None
    for pattern in ("ddd, DD MMM YYYY HH:mm:ss ZZ", "DD MMM YYYY HH:mm:ss ZZ", "MMMM D, YYYY H:mm:ss", "MMMM D, YYYY"):
        parsed = parse_format(text.replace("GMT", "+0000").replace("UTC", "+0000"), pattern, local, strict=False)
        if parsed is not None:
            return parsed
    for pattern in ("YYYY/M/D H:mm:ss", "YYYY/M/D H:mm", "YYYY/M/D", "M/D/YYYY H:mm:ss", "M/D/YYYY H:mm", "M/D/YYYY"):
        parsed = parse_format(text, pattern, local, strict=True)
        if parsed is not None:
            return parsed
    return None


_PARSE = {
    "YYYY": (r"[+-]?\d{4}", "y"),
    "YY": (r"\d\d", "yy"),
    "Y": (r"[+-]?\d+", "y"),
    "MMMM": (r"[A-Za-z]+", "month_name"),
    "MMM": (r"[A-Za-z]+\.?", "month_name"),
    "MM": (r"\d\d", "mo"),
    "M": (r"\d\d?", "mo"),
    "Do": (r"\d\d?(?:st|nd|rd|th)", "do"),
    "DD": (r"\d\d", "d"),
    "D": (r"\d\d?", "d"),
    "dddd": (r"[A-Za-z]+", None),
    "ddd": (r"[A-Za-z]+", None),
    "HH": (r"\d\d", "h"),
    "H": (r"\d\d?", "h"),
    "hh": (r"\d\d", "h12"),
    "h": (r"\d\d?", "h12"),
    "kk": (r"\d\d", "h"),
    "k": (r"\d\d?", "h"),
    "mm": (r"\d\d", "mi"),
    "m": (r"\d\d?", "mi"),
    "ss": (r"\d\d", "s"),
    "s": (r"\d\d?", "s"),
    "A": (r"[AaPp][Mm]", "ampm"),
    "a": (r"[AaPp][Mm]", "ampm"),
    "ZZ": (r"Z|[+-]\d\d:?\d\d", "z"),
    "Z": (r"Z|[+-]\d\d:?\d\d", "z"),
    "X": (r"[+-]?\d+(?:\.\d{1,3})?", "unix"),
    "x": (r"[+-]?\d+", "unix_ms"),
}


def _parse_regex(fmt: str, strict: bool) -> tuple[UserRegex, list[str | None]]:
    """The format as one pattern: a user's format of many tokens backtracks without end on the wrong text, so it
    runs on RE2 (linear time) through :mod:`weft.nodes.user_regex`."""
    pattern, position = "", 0
    names: list[str | None] = []
    for token in _FORMAT_TOKENS.finditer(fmt):
        literal = fmt[position : token.start()]
        pattern += re.escape(literal) if strict else (r"[^A-Za-z0-9]*?" if literal.strip(" ") or literal else "")
        position = token.end()
        text = token.group(0)
        if text.startswith("["):
            pattern += re.escape(text[1:-1]) if strict else r"(?:" + re.escape(text[1:-1]) + r")?"
        elif re.fullmatch(r"S{1,9}", text):
            pattern += rf"(\d{{{len(text)}}})" if strict else r"(\d+)"
            names.append("frac")
        elif text in _PARSE:
            regex, name = _PARSE[text]
            pattern += f"({regex})"
            names.append(name)
        else:
            pattern += r"\S*?"
    literal = fmt[position:]
    pattern += re.escape(literal) if strict else r"[^A-Za-z0-9]*"
    return compile_built_pattern(("" if strict else r"\s*") + pattern, fmt, whole=strict), names


def parse_format(text: str, fmt: str, local: ZoneInfo, *, strict: bool) -> datetime | None:
    """``moment(text, fmt, strict)``: fields the format does not name default to today's year, else the start."""
    regex, names = _parse_regex(fmt, strict)
    groups = regex.groups(text)
    if groups is None:
        return None
    parts: dict[str, int] = {}
    fields = {name: value for name, value in zip(names, groups, strict=True) if name and value is not None}
    if "unix" in fields:
        return datetime.fromtimestamp(float(fields["unix"]), UTC).astimezone(local)
    if "unix_ms" in fields:
        return datetime.fromtimestamp(int(fields["unix_ms"]) / 1000, UTC).astimezone(local)
    for name, value in fields.items():
        if not _read_field(parts, name, value):
            return None
    if fields.get("ampm", "").lower().startswith("p") and parts.get("h", 0) < 12:
        parts["h"] = parts.get("h", 0) + 12
    if fields.get("ampm", "").lower().startswith("a") and parts.get("h", 0) == 12:
        parts["h"] = 0
    parts.setdefault("y", datetime.now(local).year)
    try:
        return _wall(local, parts, _offset(fields["z"]) if "z" in fields else None)
    except ValueError:
        return None


def _read_field(parts: dict[str, int], name: str, value: str) -> bool:
    """One parsed field into ``parts``; ``False`` for a month name that is none."""
    if name == "month_name":
        found = [i for i, m in enumerate(_MONTHS) if m.lower().startswith(value.rstrip(".").lower()[:3])]
        if not found:
            return False
        parts["mo"] = found[0] + 1
    elif name == "yy":
        parts["y"] = int(value) + (2000 if int(value) <= 68 else 1900)
    elif name == "do":
        parts["d"] = int(re.sub(r"\D", "", value))
    elif name == "h12":
        parts["h"] = int(value) % 12
    elif name == "frac":
        parts["ms"] = int(value[:3].ljust(3, "0"))
    elif name not in ("ampm", "z"):
        parts[name] = int(value)
    return True


def parse_in_zone(value: Any, fmt: str | None, tz: ZoneInfo) -> datetime | None:
    """``moment.tz(value[, fmt], zone)``: the text read as a wall time in ``tz`` (an offset in it wins)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value / 1000, UTC).astimezone(tz)
    text = str(value)
    return parse_format(text, fmt, tz, strict=False) if fmt else parse_default(text, tz)


def add(moment: datetime, amount: float, unit: str) -> datetime:
    """``moment.add(amount, unit)``: months and years keep the wall time and clamp the day; the rest is absolute."""
    unit = unit.rstrip("s") if unit not in ("ms",) else "millisecond"
    if unit in ("year", "quarter", "month"):
        months = int(amount) * {"year": 12, "quarter": 3, "month": 1}[unit]
        index = moment.month - 1 + months
        year, month = moment.year + index // 12, index % 12 + 1
        day = min(moment.day, calendar.monthrange(year, month)[1])
        return moment.replace(year=year, month=month, day=day)
    if unit in ("week", "day"):
        days = amount * (7 if unit == "week" else 1)
        naive = moment.replace(tzinfo=None) + timedelta(days=round(days))
        return naive.replace(tzinfo=moment.tzinfo)
    seconds = {"hour": 3600, "minute": 60, "second": 1, "millisecond": 0.001}.get(unit, 0) * amount
    return (moment.astimezone(UTC) + timedelta(seconds=seconds)).astimezone(moment.tzinfo)


def iso_string(moment: datetime) -> str:
    """``toISOString()``: UTC with milliseconds."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def format_moment(moment: datetime, fmt: str | None) -> str:
    """``moment.format(fmt)`` in English; no format is ``YYYY-MM-DDTHH:mm:ssZ``."""
    fmt = fmt or "YYYY-MM-DDTHH:mm:ssZ"
    for short, long in _LOCALIZED.items():
        fmt = re.sub(rf"(?<![A-Za-z\[]){short}(?![A-Za-z])", long, fmt) if short in fmt else fmt
    return _FORMAT_TOKENS.sub(lambda match: _token(moment, match.group(0)), fmt)


def _ordinal(number: int) -> str:
    suffix = "th" if 11 <= number % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _zone_offset(moment: datetime, colon: bool) -> str:
    total = int((moment.utcoffset() or timedelta(0)).total_seconds() // 60)
    sign, total = ("-" if total < 0 else "+"), abs(total)
    return f"{sign}{total // 60:02d}{':' if colon else ''}{total % 60:02d}"


def _token(m: datetime, token: str) -> str:
    if token.startswith("["):
        return token[1:-1]
    if re.fullmatch(r"S{1,9}", token):
        return f"{m.microsecond // 1000:03d}".ljust(len(token), "0")[: len(token)]
    table = {**_date_tokens(m), **_time_tokens(m), **_week_tokens(m)}
    return str(table.get(token, token))


def _date_tokens(m: datetime) -> dict[str, str]:
    weekday = (m.weekday() + 1) % 7
    iso_year, iso_week, iso_day = m.isocalendar()
    day_of_year = m.timetuple().tm_yday
    return {
        "YYYYYY": f"{'+' if m.year >= 0 else '-'}{abs(m.year):06d}",
        "YYYY": f"{m.year:04d}",
        "YY": f"{m.year % 100:02d}",
        "Y": str(m.year),
        "Q": str((m.month - 1) // 3 + 1),
        "Qo": _ordinal((m.month - 1) // 3 + 1),
        "M": str(m.month),
        "Mo": _ordinal(m.month),
        "MM": f"{m.month:02d}",
        "MMM": _MONTHS[m.month - 1][:3],
        "MMMM": _MONTHS[m.month - 1],
        "D": str(m.day),
        "Do": _ordinal(m.day),
        "DD": f"{m.day:02d}",
        "DDD": str(day_of_year),
        "DDDD": f"{day_of_year:03d}",
        "d": str(weekday),
        "do": _ordinal(weekday),
        "dd": _DAYS[weekday][:2],
        "ddd": _DAYS[weekday][:3],
        "dddd": _DAYS[weekday],
        "e": str(weekday),
        "E": str(iso_day),
        "W": str(iso_week),
        "WW": f"{iso_week:02d}",
        "GGGG": f"{iso_year:04d}",
    }


def _time_tokens(m: datetime) -> dict[str, str]:
    hour12 = m.hour % 12 or 12
    return {
        "H": str(m.hour),
        "HH": f"{m.hour:02d}",
        "h": str(hour12),
        "hh": f"{hour12:02d}",
        "k": str(m.hour or 24),
        "kk": f"{m.hour or 24:02d}",
        "m": str(m.minute),
        "mm": f"{m.minute:02d}",
        "s": str(m.second),
        "ss": f"{m.second:02d}",
        "A": "AM" if m.hour < 12 else "PM",
        "a": "am" if m.hour < 12 else "pm",
        "Z": _zone_offset(m, True),
        "ZZ": _zone_offset(m, False),
        "X": str(int(m.timestamp())),
        "x": str(round(m.timestamp() * 1000)),
        "z": m.tzname() or "",
        "zz": m.tzname() or "",
    }


def _week_tokens(m: datetime) -> dict[str, str]:
    """Locale weeks (English: weeks start on Sunday, the week with January 1st is week 1)."""
    start = datetime(m.year, 1, 1, tzinfo=m.tzinfo)
    first_sunday = start - timedelta(days=(start.weekday() + 1) % 7)
    week = (m.replace(tzinfo=m.tzinfo) - first_sunday).days // 7 + 1
    week_year = m.year
    next_start = datetime(m.year + 1, 1, 1, tzinfo=m.tzinfo)
    if m >= next_start - timedelta(days=(next_start.weekday() + 1) % 7):
        week, week_year = 1, m.year + 1
    return {"w": str(week), "ww": f"{week:02d}", "gggg": f"{week_year:04d}"}


__all__ = ["add", "format_moment", "iso_string", "parse_default", "parse_format", "parse_in_zone", "zone"]
