"""Column values as n8n's Postgres node returns them: node-postgres's text parsers (``pg-types``) per type OID,
with n8n's overrides by node version.

Weft reads every value as PostgreSQL's text and parses it here, so the JSON is what n8n gives: ``bigint`` and
``numeric`` are strings (numbers with the option ``largeNumbersOutput: numbers``), ``json``/``jsonb`` parsed,
timestamps ISO strings in UTC with milliseconds (a JavaScript ``Date``), ``date`` an ISO timestamp before version
2.7 and ``YYYY-MM-DD`` from 2.7, ``bytea`` a Node Buffer's JSON, arrays parsed element by element.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

Parser = Callable[[str], Any]

_INT_TYPES = {21, 23, 26}
_FLOAT_TYPES = {700, 701}
_BIGINT, _NUMERIC, _DATE, _TIMESTAMP, _TIMESTAMPTZ = 20, 1700, 1082, 1114, 1184
_TIMESTAMP_RE = re.compile(
    r"^(\d{1,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?(?::?\d{2})?)?( BC)?$"
)


def js_float(text: str) -> float | int | None:
    """JavaScript ``parseFloat`` of a PostgreSQL float, as JSON gives it (``NaN`` and infinities become ``null``)."""
    number = float(text)
    if not math.isfinite(number):
        return None
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


def _bool(text: str) -> bool:
    return text in ("t", "true", "TRUE", "y", "yes", "on", "1")


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_timestamp(text: str) -> str:
    """A JavaScript Date's JSON for a ``timestamp``/``timestamptz`` (no zone: the process's zone, UTC); else ``text``
    (``infinity``)."""
    match = _TIMESTAMP_RE.match(text)
    if not match or match.group(9):
        return text
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    fraction = match.group(7) or ""
    micro = int((fraction[1:] + "000000")[:6]) if fraction else 0
    moment = datetime(year, month, day, hour, minute, second, micro, tzinfo=UTC)
    zone = match.group(8)
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0), seconds=int(digits[4:6] or 0))
        moment -= sign * offset
    return _iso(moment)


def parse_date_as_timestamp(text: str) -> str:
    """``date`` before version 2.7: a Date at local (UTC) midnight."""
    return parse_timestamp(text + " 00:00:00") if re.match(r"^\d+-\d{2}-\d{2}$", text) else text


def _bytea(text: str) -> dict[str, Any]:
    data = bytes.fromhex(text[2:]) if text.startswith("\\x") else text.encode()
    return {"type": "Buffer", "data": list(data)}


def _point(text: str) -> dict[str, Any] | str:
    match = re.match(r"^\(([^,]+),([^)]+)\)$", text)
    if not match:
        return text
    return {"x": js_float(match.group(1)), "y": js_float(match.group(2))}


_INTERVAL = re.compile(
    r"(?:(-?\d+) years?)?\s*(?:(-?\d+) mons?)?\s*(?:(-?\d+) days?)?\s*(?:(-)?(\d+):(\d{2}):(\d{2})(?:\.(\d+))?)?"
)


def _interval(text: str) -> dict[str, Any]:
    """``postgres-interval``'s object: only the parts that are not zero."""
    match = _INTERVAL.fullmatch(text.strip())
    if not match:
        return {}
    years, months, days, negative, hours, minutes, seconds, fraction = match.groups()
    sign = -1 if negative else 1
    out: dict[str, Any] = {}
    for key, value in (("years", years), ("months", months), ("days", days)):
        if value and int(value):
            out[key] = int(value)
    for key, value in (("hours", hours), ("minutes", minutes), ("seconds", seconds)):
        if value and int(value):
            out[key] = sign * int(value)
    if fraction and int(fraction):
        out["milliseconds"] = sign * float("0." + fraction) * 1000
    return out


def parse_array(text: str, element: Parser) -> Any:
    """``postgres-array``: a PostgreSQL array literal (``{1,2,NULL}``, nested, quoted) with each element parsed."""
    if text.startswith("["):  # explicit bounds: "[0:1]={1,2}"
        text = text[text.index("=") + 1 :]
    value, _ = _array_at(text, 0, element)
    return value


def _array_at(text: str, pos: int, element: Parser) -> tuple[list[Any], int]:
    out: list[Any] = []
    pos += 1  # the "{"
    while pos < len(text):
        char = text[pos]
        if char == "}":
            return out, pos + 1
        if char == ",":
            pos += 1
        elif char == "{":
            nested, pos = _array_at(text, pos, element)
            out.append(nested)
        elif char == '"':
            pos, raw = _quoted(text, pos)
            out.append(element(raw))
        else:
            end = pos
            while end < len(text) and text[end] not in ",}":
                end += 1
            raw = text[pos:end]
            out.append(None if raw == "NULL" else element(raw))
            pos = end
    return out, pos


def _quoted(text: str, pos: int) -> tuple[int, str]:
    chars: list[str] = []
    pos += 1
    while text[pos] != '"':
        if text[pos] == "\\":
            pos += 1
        chars.append(text[pos])
        pos += 1
    return pos + 1, "".join(chars)


def _string(text: str) -> str:
    return text


_BASE: dict[int, Parser] = {
    16: _bool,
    17: _bytea,
    114: json.loads,
    3802: json.loads,
    600: _point,
    1186: _interval,
    **{oid: int for oid in _INT_TYPES},
    **{oid: js_float for oid in _FLOAT_TYPES},
}
#: Array type OID → its element's OID (the arrays pg-types parses).
_ARRAYS = {
    1000: 16,
    1005: 21,
    1007: 23,
    1028: 26,
    1016: 20,
    1021: 700,
    1022: 701,
    1231: 1700,
    1014: 25,
    1015: 25,
    1008: 25,
    1009: 25,
    2951: 25,
    199: 114,
    3807: 3802,
    1001: 17,
    1182: _DATE,
    1115: _TIMESTAMP,
    1185: _TIMESTAMPTZ,
    1187: 1186,
}


def parsers_for(node_version: float, large_numbers: str) -> Callable[[int], Parser]:
    """The parser of each type OID for a node version and ``largeNumbersOutput`` (``text`` or ``numbers``)."""
    table: dict[int, Parser] = dict(_BASE)
    table[_TIMESTAMP] = table[_TIMESTAMPTZ] = parse_timestamp
    table[_DATE] = _string if node_version >= 2.7 else parse_date_as_timestamp
    if large_numbers == "numbers":
        table[_BIGINT] = lambda text: int(float(text)) if abs(float(text)) >= 2**53 else int(text)
        table[_NUMERIC] = js_float
    for array_oid, element_oid in _ARRAYS.items():
        element = table.get(element_oid, _string)
        if array_oid in (1016, 1231):  # pg-types keeps big numbers in arrays as strings
            element = _string
        table[array_oid] = _array_parser(element)

    def lookup(oid: int) -> Parser:
        return table.get(oid, _string)

    return lookup


def _array_parser(element: Parser) -> Parser:
    return lambda text: parse_array(text, element)


__all__ = ["Parser", "js_float", "parse_array", "parse_timestamp", "parsers_for"]
