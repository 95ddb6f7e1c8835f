"""A fake Supabase project (PostgREST at ``https://weft.supabase.example/rest/v1``) for the Supabase node.

Tables ``people`` (5 rows) and ``numbers`` (2,345 rows, for paging) in schema ``public``, ``secrets`` in
``private`` (``Accept-Profile``/``Content-Profile``). Filters as PostgREST reads them: ``col=op.value`` (eq, neq,
gt, gte, lt, lte, like, ilike with ``*``, is), ``or=(…)``/``and=(…)`` groups with quoted components, ``order``,
``limit``, ``offset``. Writes answer the rows they would write (``Prefer: return=representation``) and change
nothing, so recorded cases stay independent. Errors are PostgREST's bodies: an unknown table (404, PGRST205), an
unknown column (400, 42703), an unknown schema (406, PGRST106), a wrong key (401).
"""

from __future__ import annotations

import re
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "weft.supabase.example"
KEY = "supabase-service-key"
PEOPLE = [
    {"id": 1, "name": "Ada", "age": 36, "city": "London"},
    {"id": 2, "name": "Grace", "age": 85, "city": "Arlington"},
    {"id": 3, "name": "Linus", "age": 54, "city": "Portland"},
    {"id": 4, "name": "Barbara", "age": 84, "city": "Boston"},
    {"id": 5, "name": "Ken", "age": 80, "city": "Berkeley, CA"},
]
TABLES: dict[str, dict[str, list[dict[str, Any]]]] = {
    "public": {"people": PEOPLE, "numbers": [{"id": i, "square": i * i} for i in range(1, 2346)]},
    "private": {"secrets": [{"id": 1, "secret": "loom"}]},
}
_OPS = ("eq", "neq", "gt", "gte", "lt", "lte", "like", "ilike", "is", "fts", "plfts", "phfts", "wfts")


def _error(status: int, code: str, message: str, hint: str | None = None) -> ApiReply:
    return json_error(status, {"code": code, "details": None, "hint": hint, "message": message})


def _split(text: str) -> list[str]:
    """Split a group's body on commas outside quotes and parentheses."""
    parts, depth, quoted, current = [], 0, False, ""
    for i, char in enumerate(text):
        if char == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and char in "()":
            depth += 1 if char == "(" else -1
        elif not quoted and depth == 0 and char == ",":
            parts.append(current)
            current = ""
            continue
        current += char
    return [*parts, current]


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return text


def _compare(value: Any, op: str, wanted: str) -> bool:
    if op == "is":
        return {"null": value is None, "true": value is True, "false": value is False}.get(wanted, False)
    if op in ("like", "ilike"):
        pattern = "^" + re.escape(wanted).replace(r"\*", ".*").replace("%", ".*") + "$"
        return re.match(pattern, str(value), re.IGNORECASE if op == "ilike" else 0) is not None
    if op in ("fts", "plfts", "phfts", "wfts"):
        return wanted.lower() in str(value).lower()
    other: Any = wanted
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            other = float(wanted)
        except ValueError:
            return False
    result: bool = {"eq": value == other, "neq": value != other}.get(op, False)
    if op in ("gt", "gte", "lt", "lte"):
        result = {"gt": value > other, "gte": value >= other, "lt": value < other, "lte": value <= other}[op]
    return result


class _Columns(Exception):
    def __init__(self, column: str) -> None:
        self.column = column


def _condition(row: dict[str, Any], text: str) -> bool:
    """``col.op.value`` inside a group (the column may be quoted)."""
    if text.startswith(("or(", "and(")):
        kind, body = text.split("(", 1)
        return _group(row, kind, body[:-1])
    match = re.match(r'^("(?:[^"\\]|\\.)*"|[^.]+)\.(not\.)?(\w+)\.(.*)$', text, re.DOTALL)
    if not match or match.group(3) not in _OPS:
        raise _Columns(text)
    column = _unquote(match.group(1))
    if column not in row:
        raise _Columns(column)
    held = _compare(row[column], match.group(3), _unquote(match.group(4)))
    return not held if match.group(2) else held


def _group(row: dict[str, Any], kind: str, body: str) -> bool:
    results = [_condition(row, part) for part in _split(body)]
    return any(results) if kind == "or" else all(results)


def _matches(row: dict[str, Any], pairs: list[tuple[str, str]]) -> bool:
    for key, value in pairs:
        if key in ("select", "order", "limit", "offset", "columns", "on_conflict"):
            continue
        if key in ("or", "and"):
            if not _group(row, key, value[1:-1]):
                return False
            continue
        if not _condition(row, f"{key}.{value}"):
            return False
    return True


def _table(request: ApiRequest) -> tuple[list[dict[str, Any]], str] | ApiReply:
    if request.headers.get("apikey") != KEY or request.headers.get("authorization") != f"Bearer {KEY}":
        return json_error(401, {"message": "Invalid API key", "hint": "Double check your Supabase `anon` or "
                                "`service_role` API key."})  # fmt: skip
    profile = request.headers.get("accept-profile") or request.headers.get("content-profile") or "public"
    if profile not in TABLES:
        return _error(406, "PGRST106", "The schema must be one of the following: public, private")
    name = request.params["table"]
    if name not in TABLES[profile]:
        hint = "Perhaps you meant the table 'public.people'"
        return _error(404, "PGRST205", f"Could not find the table '{profile}.{name}' in the schema cache", hint)
    return TABLES[profile][name], name


def _select(request: ApiRequest, rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]] | ApiReply:
    try:
        found = [row for row in rows if _matches(row, request.query_pairs)]
    except _Columns as bad:
        return _error(400, "42703", f"column {name}.{bad.column} does not exist")
    order = request.query.get("order")
    if order:
        column, _, direction = order.partition(".")
        found.sort(key=lambda row: _order_key(row.get(column)), reverse=direction.startswith("desc"))
    offset = int(request.query.get("offset") or 0)
    limit = request.query.get("limit")
    return found[offset : offset + int(limit)] if limit is not None else found[offset:]


def _order_key(value: Any) -> tuple[bool, Any]:
    return value is None, value


def rows(request: ApiRequest) -> ApiReply:
    table = _table(request)
    if isinstance(table, ApiReply):
        return table
    data, name = table
    if request.method == "POST":
        body = request.body if isinstance(request.body, list) else [request.body]
        return ApiReply(status=201, body=[{"id": 1000 + i, **record} for i, record in enumerate(body)])
    found = _select(request, data, name)
    if isinstance(found, ApiReply):
        return found
    if request.method == "PATCH":
        changes = request.body if isinstance(request.body, dict) else {}
        unknown = [key for key in changes if data and key not in data[0]]
        if unknown:
            return _error(400, "PGRST204", f"Could not find the '{unknown[0]}' column of '{name}' in the schema cache")
        return ApiReply(body=[{**row, **changes} for row in found])
    return ApiReply(body=found)


def root(request: ApiRequest) -> ApiReply:
    table = _table(ApiRequest(**{**request.__dict__, "params": {"table": "people"}}))
    if isinstance(table, ApiReply):
        return table
    return ApiReply(body={"swagger": "2.0", "paths": {"/": {}, "/people": {}, "/numbers": {}}, "definitions": {}})


def install(server: FakeApiServer) -> None:
    server.route("*", r"/rest/v1/(?P<table>[^/]+)", rows, host=HOST)
    server.route("GET", r"/rest/v1/", root, host=HOST)


__all__ = ["HOST", "KEY", "install"]
