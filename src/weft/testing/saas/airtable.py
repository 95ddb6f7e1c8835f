"""A fake Airtable Web API on ``api.airtable.com``: records (``/v0/<base>/<table>``: list with ``pageSize``,
``offset``, ``maxRecords``, ``fields[]``, ``sort[]``, ``view`` and a small ``filterByFormula`` subset; get,
create one or many, PATCH updates and ``performUpsert``, delete) and the metadata API (``/v0/meta/bases``,
``/v0/meta/bases/<base>/tables``).

Bearer tokens ``airtable-test-token`` (personal access token), ``airtable-oauth-token`` (OAuth2) and
``airtable-legacy-key`` (the deprecated API key). Errors are Airtable's: ``{"error": {"type", "message"}}``
(403 ``INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND`` for an unknown base, table or deleted record, 422
``UNKNOWN_FIELD_NAME`` / ``INVALID_VALUE_FOR_COLUMN`` / ``INVALID_FILTER_BY_FORMULA`` / ``ROW_DOES_NOT_EXIST``),
``{"error": "NOT_FOUND"}`` for an unknown record id, 401 ``AUTHENTICATION_REQUIRED``, and 429
``RATE_LIMIT_REACHED`` (with ``Retry-After``) for the table ``Throttled``. It keeps no state: writes answer
what was written (ids derived from the request, fixed ``createdTime``) without changing what reads see.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "api.airtable.com"
TOKENS = ("airtable-test-token", "airtable-oauth-token", "airtable-legacy-key")
BASE = "appWeftFake00001"
CREATED = "2025-01-02T03:04:05.000Z"
_PEOPLE = [
    ("Ada Lovelace", "ada@example.com", 36, True, ["math"]),
    ("Alan Turing", "alan@example.com", 41, True, ["math", "cs"]),
    ("Grace Hopper", "grace@example.com", 85, False, ["cs"]),
    ("Edsger Dijkstra", "edsger@example.com", 72, True, ["cs"]),
    ("Barbara Liskov", "barbara@example.com", 84, True, ["cs"]),
    ("Ada Lovelace", "ada2@example.com", 28, False, []),
]
_FIELD_TYPES = {
    "Name": "singleLineText",
    "Email": "email",
    "Age": "number",
    "Active": "checkbox",
    "Tags": "multipleSelects",
}


def _contact(n: int) -> dict[str, Any]:
    name, email, age, active, tags = _PEOPLE[n]
    fields: dict[str, Any] = {"Name": name, "Email": email, "Age": age}
    if active:
        fields["Active"] = True
    if tags:
        fields["Tags"] = tags
    return {"id": f"recContact0000{n + 1:02d}", "createdTime": CREATED, "fields": fields}


def _item(n: int) -> dict[str, Any]:
    return {"id": f"recItem{n:09d}", "createdTime": CREATED, "fields": {"Name": f"Item {n}", "Number": n}}


TABLES: dict[str, dict[str, Any]] = {
    "tblContacts00001": {"name": "Contacts", "records": [_contact(n) for n in range(len(_PEOPLE))]},
    "tblBigTable00001": {"name": "Big Table", "records": [_item(n) for n in range(1, 231)]},
    "tblThrottled0001": {"name": "Throttled", "records": []},
}
_BIG_TYPES = {"Name": "singleLineText", "Number": "number"}
VIEWS = {"viwActiveOnly001": "Active only", "viwGrid000000001": "Grid view"}


def _error(status: int, kind: str, message: str) -> ApiReply:
    return json_error(status, {"error": {"type": kind, "message": message}})


_NO_MODEL = (
    "Invalid permissions, or the requested model was not found. Check that both your user and your token have the "
    "required permissions, and that the model names and/or ids are correct."
)


def _authorized(request: ApiRequest) -> None:
    token = request.headers.get("authorization", "").removeprefix("Bearer ")
    require(token in TOKENS, _error(401, "AUTHENTICATION_REQUIRED", "Authentication required"))


def _table(request: ApiRequest) -> tuple[str, dict[str, Any]]:
    _authorized(request)
    require(request.params["base"] == BASE, _error(403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND", _NO_MODEL))
    wanted = request.params["table"]
    for table_id, table in TABLES.items():
        if wanted in (table_id, table["name"]):
            if table["name"] == "Throttled":
                message = "Rate limit exceeded. Please try again later"
                raise_reply = json_error(429, {"errors": [{"error": "RATE_LIMIT_REACHED", "message": message}]})
                raise_reply.headers["Retry-After"] = "30"
                require(False, raise_reply)
            return table_id, table
    require(False, _error(403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND", _NO_MODEL))
    raise AssertionError


def _types(table_id: str) -> dict[str, str]:
    return _FIELD_TYPES if table_id == "tblContacts00001" else _BIG_TYPES


# ---------------------------------------------------------------------------------------------- formulas


def _split_args(text: str) -> list[str]:
    parts, depth, quote, current = [], 0, "", ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    parts.append(current.strip())
    return parts


_COMPARE = re.compile(r"^\{([^}]+)\}\s*(=|!=|>=|<=|>|<)\s*(.+)$")


def _literal(text: str) -> Any:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if text.upper() in ("TRUE()", "FALSE()"):
        return text.upper() == "TRUE()"
    try:
        return float(text)
    except ValueError:
        return None


def _formula(formula: str, types: dict[str, str]) -> Any:
    """A predicate over a record's fields for ``AND``, ``OR``, ``NOT`` and ``{Field} op literal``; None when the
    formula is beyond this fake (every record matches)."""
    text = formula.strip()
    call = re.fullmatch(r"(AND|OR|NOT)\((.*)\)", text, re.S | re.I)
    if call:
        parts = [_formula(part, types) for part in _split_args(call.group(2))]
        parts = [p for p in parts if p is not None]
        name = call.group(1).upper()
        if name == "AND":
            return lambda fields: all(p(fields) for p in parts)
        if name == "OR":
            return lambda fields: any(p(fields) for p in parts)
        return lambda fields: not parts[0](fields) if parts else True
    match = _COMPARE.match(text)
    if not match:
        return None
    field, op, literal = match.group(1), match.group(2), _literal(match.group(3))
    if field not in types:
        raise KeyError(field)
    return lambda fields: _compare(fields.get(field), op, literal)


def _compare(value: Any, op: str, literal: Any) -> bool:
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    left: Any
    right: Any
    if isinstance(literal, float) and isinstance(value, int | float) and not isinstance(value, bool):
        left, right = float(value), literal
    else:
        left, right = ("" if value is None else str(value)), ("" if literal is None else str(literal))
        if isinstance(literal, float) and literal.is_integer():
            right = str(int(literal))
    checks = {"=": left == right, "!=": left != right}
    if op in checks:
        return bool(checks[op])
    try:
        a, b = float(left), float(right)
    except (TypeError, ValueError):
        return False
    return {">": a > b, "<": a < b, ">=": a >= b, "<=": a <= b}[op]


# ---------------------------------------------------------------------------------------------- records


def _indexed(pairs: list[tuple[str, str]], name: str) -> list[str]:
    return [value for key, value in pairs if re.fullmatch(rf"{name}\[\d*\]", key)]


def _sorts(pairs: list[tuple[str, str]]) -> list[tuple[str, bool]]:
    found: dict[str, dict[str, str]] = {}
    for key, value in pairs:
        match = re.fullmatch(r"sort\[(\d+)\]\[(field|direction)\]", key)
        if match:
            found.setdefault(match.group(1), {})[match.group(2)] = value
    return [(s.get("field", ""), s.get("direction", "asc") == "desc") for _, s in sorted(found.items())]


def _filtered(request: ApiRequest, table_id: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    types = _types(table_id)
    formula = request.query.get("filterByFormula")
    if formula:
        try:
            predicate = _formula(formula, types)
        except KeyError as unknown:
            message = f"The formula for filtering records is invalid: Unknown field names: {unknown.args[0]}"
            require(False, _error(422, "INVALID_FILTER_BY_FORMULA", message))
            raise AssertionError from unknown
        if predicate is not None:
            records = [r for r in records if predicate(r["fields"])]
    if request.query.get("view") in ("viwActiveOnly001", "Active only"):
        records = [r for r in records if r["fields"].get("Active")]
    for field, descending in reversed(_sorts(request.query_pairs)):
        require(field in types, _error(422, "UNKNOWN_FIELD_NAME", f'Unknown field name: "{field}"'))
        records = sorted(records, key=_sort_by(field), reverse=descending)
    return records


def _sort_by(field: str) -> Any:
    return lambda record: _sort_key(record["fields"].get(field))


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, "")
    return (1, value) if isinstance(value, int | float) else (2, str(value))


def _list_records(request: ApiRequest) -> ApiReply:
    table_id, table = _table(request)
    records = _filtered(request, table_id, table["records"])
    if "maxRecords" in request.query:
        records = records[: int(request.query["maxRecords"])]
    size = min(int(request.query.get("pageSize") or 100), 100)
    start = int(request.query.get("offset", "itr0/").split("/")[0].removeprefix("itr") or 0)
    page = records[start : start + size]
    fields = _indexed(request.query_pairs, "fields")
    if fields:
        page = [{**r, "fields": {k: v for k, v in r["fields"].items() if k in fields}} for r in page]
    body: dict[str, Any] = {"records": page}
    if start + size < len(records):
        body["offset"] = f"itr{start + size}/rec{start + size:06d}"
    return ApiReply(body=body)


def _checked_fields(table_id: str, fields: Any, typecast: bool) -> dict[str, Any]:
    types = _types(table_id)
    require(isinstance(fields, dict), _error(422, "INVALID_REQUEST_MISSING_FIELDS", 'Could not find field "fields"'))
    out: dict[str, Any] = {}
    for name, value in fields.items():
        require(name in types, _error(422, "UNKNOWN_FIELD_NAME", f'Unknown field name: "{name}"'))
        kind = types[name]
        if kind == "number" and isinstance(value, str) and typecast:
            try:
                value = float(value) if "." in value else int(value)
            except ValueError:
                value = None
        number = isinstance(value, int | float) and not isinstance(value, bool)
        bad = kind == "number" and not (value is None or number)
        bad = bad or (kind == "checkbox" and not isinstance(value, bool | None))
        message = f'Field "{name}" cannot accept the provided value'
        require(not bad, _error(422, "INVALID_VALUE_FOR_COLUMN", message))
        if value not in (None, "", False, []):
            out[name] = value
    return out


def _new_id(seed: Any) -> str:
    return "rec" + hashlib.sha256(repr(seed).encode()).hexdigest()[:14]


def _find(table: dict[str, Any], record_id: str) -> dict[str, Any] | None:
    return next((r for r in table["records"] if r["id"] == record_id), None)


def _create(request: ApiRequest) -> ApiReply:
    table_id, _ = _table(request)
    body = request.body if isinstance(request.body, dict) else {}
    typecast = bool(body.get("typecast"))
    if "records" in body:
        records = body["records"] if isinstance(body["records"], list) else []
        made = [
            {"id": _new_id((table_id, n, r)), "createdTime": CREATED,
             "fields": _checked_fields(table_id, r.get("fields"), typecast)}
            for n, r in enumerate(records)
        ]  # fmt: skip
        return ApiReply(body={"records": made})
    fields = _checked_fields(table_id, body.get("fields"), typecast)
    return ApiReply(body={"id": _new_id((table_id, fields)), "createdTime": CREATED, "fields": fields})


def _update(request: ApiRequest) -> ApiReply:
    table_id, table = _table(request)
    body = request.body if isinstance(request.body, dict) else {}
    records: Any = body.get("records")
    message = 'You must provide an array of up to 10 record objects, each with an "id" and "fields" property'
    require(isinstance(records, list) and 0 < len(records) <= 10, _error(422, "INVALID_RECORDS", message))
    typecast = bool(body.get("typecast"))
    merge_on = (body.get("performUpsert") or {}).get("fieldsToMergeOn")
    out, created, updated = [], [], []
    for n, record in enumerate(records):
        fields = _checked_fields(table_id, record.get("fields"), typecast)
        if merge_on and not record.get("id"):
            matches = [r for r in table["records"] if all(r["fields"].get(k) == fields.get(k) for k in merge_on)]
            text = "Cannot update more than one record with the same fieldsToMergeOn values"
            require(len(matches) <= 1, _error(422, "INVALID_VALUE_FOR_COLUMN", text))
            existing = matches[0] if matches else None
        else:
            record_id = str(record.get("id") or "")
            existing = _find(table, record_id)
            require(
                existing is not None,
                _error(422, "ROW_DOES_NOT_EXIST", f"Record ID {record_id} does not exist in this table"),
            )
        if existing is None:
            new = {"id": _new_id((table_id, n, fields)), "createdTime": CREATED, "fields": fields}
            created.append(new["id"])
            out.append(new)
            continue
        updated.append(existing["id"])
        merged = {**existing["fields"], **fields}
        out.append({"id": existing["id"], "createdTime": CREATED, "fields": merged})
    answer: dict[str, Any] = {"records": out}
    if merge_on:
        answer.update(createdRecords=created, updatedRecords=updated)
    return ApiReply(body=answer)


def _one(request: ApiRequest) -> ApiReply:
    _, table = _table(request)
    found = _find(table, request.params["id"])
    if request.method == "GET":
        require(found is not None, json_error(404, {"error": "NOT_FOUND"}))
        return ApiReply(body=found)
    require(found is not None, _error(403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND", _NO_MODEL))
    return ApiReply(body={"id": request.params["id"], "deleted": True})


def _delete_many(request: ApiRequest) -> ApiReply:
    _, table = _table(request)
    ids = _indexed(request.query_pairs, "records")
    require(0 < len(ids) <= 10, _error(422, "INVALID_REQUEST_UNKNOWN", "Invalid request: parameter validation failed"))
    for record_id in ids:
        require(_find(table, record_id) is not None, _error(403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND", _NO_MODEL))
    return ApiReply(body={"records": [{"id": record_id, "deleted": True} for record_id in ids]})


# ---------------------------------------------------------------------------------------------- metadata

BASES = [
    {"id": BASE, "name": "Weft CRM", "permissionLevel": "create"},
    {"id": "appWeftFake00002", "name": "Marketing", "permissionLevel": "edit"},
    {"id": "appWeftFake00003", "name": "Archive", "permissionLevel": "read"},
]


def _bases(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"bases": BASES})


def _field_list(table_id: str) -> list[dict[str, Any]]:
    return [
        {"id": f"fld{table_id[3:8]}{n:06d}", "name": name, "type": kind}
        for n, (name, kind) in enumerate(_types(table_id).items())
    ]


def _schema(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(request.params["base"] == BASE, _error(403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND", _NO_MODEL))
    tables = [
        {"id": table_id, "name": table["name"], "primaryFieldId": _field_list(table_id)[0]["id"],
         "fields": _field_list(table_id),
         "views": [{"id": vid, "name": name, "type": "grid"} for vid, name in VIEWS.items()]}
        for table_id, table in TABLES.items()
    ]  # fmt: skip
    return ApiReply(body={"tables": tables})


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/v0/meta/bases", _bases, host=HOST)
    server.route("GET", r"/v0/meta/bases/(?P<base>[^/]+)/tables", _schema, host=HOST)
    table = r"/v0/(?P<base>app[^/]+)/(?P<table>[^/]+)"
    server.route("GET", table, _list_records, host=HOST)
    server.route("POST", table, _create, host=HOST)
    server.route("PATCH", table, _update, host=HOST)
    server.route("DELETE", table, _delete_many, host=HOST)
    server.route("*", table + r"/(?P<id>[^/]+)", _one, host=HOST)


__all__ = ["BASE", "HOST", "TABLES", "TOKENS", "install"]
