"""pg-promise's query formatting, as n8n's Postgres node uses it (``pgp.as.format`` and ``helpers.concat``).

n8n builds every query as text with pg-promise variables and values: ``$1`` is a value, ``$1:name`` (or ``$1~``)
an identifier, ``$1:csv`` / ``$1:list`` a comma-separated list of values (an object's values), ``$1:json`` a JSON
literal, ``$1:raw`` (``$1^``) text as it is and ``$1:value`` (``$1#``) an escaped value without quotes. Values are
escaped as pg-promise escapes them: a string becomes a standard string literal with its quotes doubled (the
server's ``standard_conforming_strings`` must be on, which :mod:`._postgres_client` checks), an identifier is
double-quoted with its double quotes doubled, so neither can end its literal early (tested as an attacker would).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any

from weft.nodes.values import js_number_repr
from weft.workflow.jsjson import js_json

_VARIABLE = re.compile(r"\$([1-9][0-9]{0,4})(?![0-9])(\^|~|#|:raw|:alias|:name|:json|:csv|:list|:value)?")
_RAW = ("^", ":raw")
_NAME = ("~", ":name")
_VALUE = ("#", ":value")
_CSV = (":csv", ":list")


class FormatError(ValueError):
    """A query's variables do not fit its values (pg-promise's ``RangeError`` / ``TypeError``)."""


def format_query(query: str, values: Sequence[Any], *, partial: bool = False) -> str:
    """``pgp.as.format(query, values, {partial})``: ``query`` with every ``$N`` variable replaced."""

    def replace(match: re.Match[str]) -> str:
        index = int(match.group(1))
        if index > len(values):
            if partial:
                return match.group(0)
            raise FormatError(f"Variable ${index} out of range. Parameters array length: {len(values)}")
        return format_value(values[index - 1], match.group(2) or "")

    return _VARIABLE.sub(replace, query)


def format_value(value: Any, modifier: str = "") -> str:
    """One value as pg-promise writes it for ``modifier`` (``""``, ``:name``, ``:csv``, ``:json``, ``:raw`` …)."""
    if modifier in _NAME:
        return as_name(value)
    if modifier == ":alias":
        return ".".join(as_name(part) for part in str(value).split("."))
    if modifier in _CSV:
        return as_csv(value)
    if modifier == ":json":
        return "null" if value is None else _text(js_json(value))
    raw = modifier in _RAW or modifier in _VALUE
    if value is None:
        return "null"
    if isinstance(value, str):
        if modifier in _RAW:
            return value
        return _safe(value) if modifier in _VALUE else _text(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return as_number(value)
    if isinstance(value, list):
        return as_array(value)
    text = js_json(value)
    return text if raw else _text(text)


def as_number(value: float | int) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "'NaN'" if math.isnan(value) else ("'+Infinity'" if value > 0 else "'-Infinity'")
    return js_number_repr(value)


def as_array(values: list[Any]) -> str:
    """``array[…]`` of the formatted elements (nested arrays too); an empty array is ``'{}'``."""
    if not values:
        return "'{}'"
    return "array[" + ",".join(format_value(v) for v in values) + "]"


def as_csv(values: Any) -> str:
    if isinstance(values, list):
        return ",".join(format_value(v) for v in values)
    if isinstance(values, dict):
        return ",".join(format_value(v) for v in values.values())
    return format_value(values)


def as_name(name: Any) -> str:
    """An SQL identifier: ``"name"`` with inner double quotes doubled; ``*`` stays; lists and objects' keys join."""
    if isinstance(name, list):
        return ",".join(as_name(n) for n in name)
    if isinstance(name, dict):
        return ",".join(as_name(n) for n in name)
    if not isinstance(name, str) or name == "":
        raise FormatError(f"Invalid sql name: {json.dumps(name)}")
    if name.strip() == "*":
        return "*"
    return '"' + name.replace('"', '""') + '"'


def concat(queries: Sequence[tuple[str, Sequence[Any], bool]]) -> str:
    """``pgp.helpers.concat``: each ``(query, values, partial)`` formatted, trimmed of ``;`` and spaces, joined."""
    parts = [_clean(format_query(q, v, partial=p)) for q, v, p in queries]
    return ";".join(p for p in parts if p)


def _clean(query: str) -> str:
    return re.sub(r"^[\s;]*|[\s;]*$", "", query)


def _safe(text: str) -> str:
    return text.replace("'", "''")


def _text(text: str) -> str:
    if "\x00" in text:  # PostgreSQL strings cannot hold NUL; refusing beats a truncated literal
        raise FormatError("A value holds a NUL character (\\u0000), which PostgreSQL text cannot store")
    return "'" + _safe(text) + "'"


__all__ = ["FormatError", "as_array", "as_csv", "as_name", "as_number", "concat", "format_query", "format_value"]
