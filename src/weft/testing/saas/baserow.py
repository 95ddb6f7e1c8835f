"""A fake Baserow (``https://baserow.weft.example``) for the Baserow node.

Login ``ada@weft.example``/``loom-password`` answers a fixed JWT at ``POST /api/user/token-auth/``; the database
token ``baserow-db-token`` is sent as ``Token <token>``. Table 11 ``People`` has fields 101 ``Name``, 102 ``Age``,
103 ``City`` and 5 rows; table 12 ``Numbers`` (field 201 ``Square``) has 250 rows, for paging (``page``/``size``,
``next``/``previous`` links as Baserow writes them). Filters ``filter__field_<id>__<op>`` (equal, not_equal,
contains, higher_than, lower_than, empty, not_empty) with ``filter_type`` AND/OR, ``search`` and ``order_by``.
Writes answer the row they would write and change nothing, so recorded cases stay independent. Errors are
Baserow's bodies (``{"error": "ERROR_…", "detail": …}``); table 13 answers 429 as a throttled request does.
"""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "baserow.weft.example"
USER, PASSWORD, JWT, DB_TOKEN = "ada@weft.example", "loom-password", "fake-baserow-jwt", "baserow-db-token"
FIELDS = {
    11: [{"id": 101, "name": "Name", "primary": True}, {"id": 102, "name": "Age"}, {"id": 103, "name": "City"}],
    12: [{"id": 201, "name": "Square", "primary": True}],
}
PEOPLE = [("Ada", "36", "London"), ("Grace", "85", "Arlington"), ("Linus", "54", "Portland")]
PEOPLE += [("Barbara", "84", "Boston"), ("Ken", "80", "Berkeley")]
ROWS: dict[int, list[dict[str, Any]]] = {
    11: [
        {"id": i, "order": f"{i}.00000000000000000000", "field_101": n, "field_102": a, "field_103": c}
        for i, (n, a, c) in enumerate(PEOPLE, 1)
    ],
    12: [{"id": i, "order": f"{i}.00000000000000000000", "field_201": str(i * i)} for i in range(1, 251)],
}


def _error(status: int, code: str, detail: Any, **headers: str) -> ApiReply:
    return json_error(status, {"error": code, "detail": detail}, **headers)


def _auth(request: ApiRequest) -> ApiReply | None:
    if request.headers.get("authorization") in (f"JWT {JWT}", f"Token {DB_TOKEN}"):
        return None
    return _error(401, "ERROR_INVALID_TOKEN", "The provided token is invalid or expired.")


def token_auth(request: ApiRequest) -> ApiReply:
    body = request.body if isinstance(request.body, dict) else {}
    if body.get("username") != USER or body.get("password") != PASSWORD:
        detail = {"non_field_errors": [{"error": "Please enter a correct username and password.", "code": "invalid"}]}
        return _error(401, "ERROR_INVALID_CREDENTIALS", detail)
    return ApiReply(body={"user": {"first_name": "Ada", "username": USER}, "token": JWT, "access_token": JWT})


def _table(request: ApiRequest) -> int | ApiReply:
    denied = _auth(request)
    if denied:
        return denied
    table = int(request.params["table"])
    if table == 13:
        return _error(429, "ERROR_REQUEST_THROTTLED", "Too many requests, try again later.", **{"Retry-After": "1"})
    if table not in FIELDS:
        return _error(404, "ERROR_TABLE_DOES_NOT_EXIST", f"The table with id {table} does not exist.")
    return table


def fields(request: ApiRequest) -> ApiReply:
    table = _table(request)
    if isinstance(table, ApiReply):
        return table
    return ApiReply(body=[{"table_id": table, "order": i, "type": "text", **f} for i, f in enumerate(FIELDS[table])])


def _match(row: dict[str, Any], key: str, wanted: str) -> bool:
    _, field, op = key.split("__", 2)
    value = str(row.get(field) or "")
    tests = {
        "equal": value == wanted,
        "not_equal": value != wanted,
        "contains": wanted.lower() in value.lower(),
        "empty": value == "",
        "not_empty": value != "",
    }
    if op in ("higher_than", "lower_than"):
        number, other = float(value or 0), float(wanted or 0)
        return number > other if op == "higher_than" else number < other
    return tests.get(op, False)


def _filtered(table: int, query: dict[str, str]) -> list[dict[str, Any]]:
    filters = [(k, v) for k, v in query.items() if k.startswith("filter__field_")]
    combine = any if query.get("filter_type") == "OR" else all
    rows = [r for r in ROWS[table] if not filters or combine(_match(r, k, v) for k, v in filters)]
    search = query.get("search", "").lower()
    rows = [r for r in rows if not search or any(search in str(v).lower() for v in r.values())]
    for order in reversed([o for o in query.get("order_by", "").split(",") if o]):
        field = order.lstrip("-+")
        rows.sort(key=lambda r: str(r.get(field, "")), reverse=order.startswith("-"))
    return rows


def rows(request: ApiRequest) -> ApiReply:
    table = _table(request)
    if isinstance(table, ApiReply):
        return table
    if request.method == "POST":
        return ApiReply(body={"id": 1000, "order": "1000.00000000000000000000", **(request.body or {})})
    try:
        page, size = int(request.query.get("page", "1")), int(request.query.get("size", "100"))
    except ValueError:
        return _error(400, "ERROR_QUERY_PARAMETER_VALIDATION", {"page": [{"error": "A valid integer is required."}]})
    found = _filtered(table, request.query)
    chunk = found[(page - 1) * size : page * size]
    if page > 1 and not chunk:
        return _error(404, "ERROR_INVALID_PAGE", "Invalid page.")
    base = f"https://{HOST}/api/database/rows/table/{table}/?size={size}&page="
    more = page * size < len(found)
    body = {"count": len(found), "next": base + str(page + 1) if more else None, "previous": None, "results": chunk}
    if page > 1:
        body["previous"] = base + str(page - 1)
    return ApiReply(body=body)


def row(request: ApiRequest) -> ApiReply:
    table = _table(request)
    if isinstance(table, ApiReply):
        return table
    wanted = request.params["row"]
    found = next((r for r in ROWS[table] if str(r["id"]) == wanted), None)
    if found is None:
        return _error(404, "ERROR_ROW_DOES_NOT_EXIST", f"The row {wanted} does not exist.")
    if request.method == "DELETE":
        return ApiReply(status=204, text="")
    if request.method == "PATCH":
        return ApiReply(body={**found, **(request.body or {})})
    return ApiReply(body=found)


def applications(request: ApiRequest) -> ApiReply:
    denied = _auth(request)
    if denied:
        return denied
    return ApiReply(body=[{"id": 1, "name": "Weft", "type": "database", "tables": [{"id": 11, "name": "People"}]}])


def install(server: FakeApiServer) -> None:
    server.route("POST", r"/api/user/token-auth/", token_auth, host=HOST)
    server.route("GET", r"/api/applications/", applications, host=HOST)
    server.route("GET", r"/api/database/fields/table/(?P<table>\d+)/", fields, host=HOST)
    server.route("*", r"/api/database/rows/table/(?P<table>\d+)/", rows, host=HOST)
    server.route("*", r"/api/database/rows/table/(?P<table>\d+)/(?P<row>[^/]+)/", row, host=HOST)
