"""How n8n's MySQL node writes SQL: identifiers (``escapeSqlIdentifier``), Query Parameters (``$1`` → ``?``,
``$1:name`` → an identifier) and the values mysql2 puts in for each ``?`` (``sqlstring.escape``).

Values are escaped client-side, as mysql2's ``connection.format`` does before its text-protocol query: a string
becomes ``'…'`` with quotes, backslashes and control characters backslash-escaped, so a value cannot end its
literal (the connection refuses ``NO_BACKSLASH_ESCAPES``, under which that escaping would not hold: see
:mod:`._mysql_client`). Identifiers are wrapped in backticks; n8n's parser cuts a name at dots and backticks, so
no backtick can get inside one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from weft.errors import WeftError
from weft.nodes.values import js_number_repr
from weft.workflow.jsjson import js_json

_ESCAPES = {"\0": "\\0", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\x1a": "\\Z", '"': '\\"', "'": "\\'"}
_ESCAPES["\\"] = "\\\\"
_TO_ESCAPE = re.compile("[\0\b\t\n\r\x1a\"'\\\\]")


class QueryError(WeftError, ValueError):
    """A query's parameters do not fit it (n8n's ``Parameter $N referenced in query but no replacement …``)."""


def escape_identifier(identifier: str) -> str:
    """n8n's ``escapeSqlIdentifier``: each dot-separated part in backticks (parts already in backticks kept)."""
    parts = re.findall(r"(`[^`]*`|[^.`]+)", identifier)
    out: list[str] = []
    for part in parts:
        trimmed = part.strip()
        out.append(trimmed if trimmed.startswith("`") and trimmed.endswith("`") else f"`{trimmed}`")
    return ".".join(out)


def escape_string(text: str) -> str:
    return "'" + _TO_ESCAPE.sub(lambda m: _ESCAPES[m.group(0)], text) + "'"


def escape_value(value: Any) -> str:
    """``sqlstring.escape``: ``NULL``, ``true``/``false``, numbers, ``'text'``, arrays as lists, objects as
    ```key` = value`` pairs."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number_repr(value)
    if isinstance(value, str):
        return escape_string(value)
    if isinstance(value, list):
        return ", ".join(f"({escape_value(v)})" if isinstance(v, list) else escape_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"`{str(k).replace('`', '``')}` = {escape_value(v)}" for k, v in value.items())
    return escape_string(js_json(value))


def format_query(query: str, values: Sequence[Any]) -> str:
    """mysql2's ``connection.format``: each ``?`` (``??`` an identifier) replaced by the next value, in one pass."""
    position = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal position
        if position >= len(values):
            return match.group(0)
        value = values[position]
        position += 1
        if match.group(0) == "??":
            return ", ".join(f"`{str(v).replace('`', '``')}`" for v in (value if isinstance(value, list) else [value]))
        return escape_value(value)

    return re.sub(r"\?\??", replace, query)


def _inside_quotes(query: str, index: int) -> bool:
    before = query[:index]
    return before.count("'") % 2 != 0 or before.count('"') % 2 != 0


def prepare_query(query: str, version: float, replacements: list[Any]) -> tuple[str, list[Any]]:
    """n8n's ``prepareQueryAndReplacements``: ``$N`` → ``?`` (its value appended), ``$N:name`` → an identifier.

    From version 2.5 (``prepareSafeQuery``) placeholders inside quotes are left alone and a missing value is an
    error; before, every ``$N`` is replaced in order of appearance (``prepareQueryLegacy``)."""
    pattern = re.compile(r"\$(\d+)(?::name)?")
    if version < 2.5:
        values: list[Any] = []
        for found in [m.group(0) for m in pattern.finditer(query)]:
            index = int(found[1:].removesuffix(":name")) - 1
            value = replacements[index] if 0 <= index < len(replacements) else None
            if found.endswith(":name"):  # the first occurrence, as JavaScript's String.replace
                query = query.replace(found, escape_identifier(_js_text(value)), 1)
            else:
                query = query.replace(found, "?", 1)
                values.append(value)
        return query, values
    matches = [m for m in pattern.finditer(query) if not _inside_quotes(query, m.start())]
    for match in matches:
        index = int(match.group(1)) - 1
        if index < 0 or index >= len(replacements):
            raise QueryError(
                f"Parameter ${match.group(1)} referenced in query but no replacement value provided at index "
                f"{index + 1}"
            )
    for match in reversed(matches):
        index = int(match.group(1)) - 1
        text = escape_identifier(_js_text(replacements[index])) if match.group(0).endswith(":name") else "?"
        query = query.replace(match.group(0), text, 1)  # n8n's String.replace: the first occurrence
    ordered = sorted((m for m in matches if not m.group(0).endswith(":name")), key=lambda m: int(m.group(1)))
    return query, [replacements[int(m.group(1)) - 1] for m in ordered]


def _js_text(value: Any) -> str:
    from weft.nodes.values import js_string

    return js_string(value)


_END_OF_STATEMENT = re.compile(r";(?=(?:[^'\\]|'[^']*?'|\\[\s\S])*?$)")


def split_statements(query: str, filter_empty: bool = True) -> list[str]:
    """n8n's ``splitQueryToStatements``: newlines removed, split at ``;`` outside single quotes."""
    statements = [s.strip() for s in _END_OF_STATEMENT.split(query.replace("\n", ""))]
    return [s for s in statements if s] if filter_empty else statements


__all__ = [
    "QueryError",
    "escape_identifier",
    "escape_string",
    "escape_value",
    "format_query",
    "prepare_query",
    "split_statements",
]
