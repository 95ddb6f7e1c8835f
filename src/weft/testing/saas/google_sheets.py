"""A fake Google Sheets API v4 (``sheets.googleapis.com``) and the Drive call the Sheets node makes (deleting a
spreadsheet: ``DELETE www.googleapis.com/drive/v3/files/{id}``), as Google answers them.

Bearer tokens: :data:`ACCESS_TOKEN` (an OAuth2 credential; ``google_oauth`` refreshes ``sheets-refresh-token`` to
it), the service-account and client-credentials tokens of :mod:`weft.testing.saas.google_oauth`; any other token
gets Google's 401 ``UNAUTHENTICATED``. Spreadsheets are fixed (:data:`SPREADSHEETS`): ``PEOPLE`` (sheets
``Sheet1`` id 0 with numbers, booleans, dates and a formula column, ``Orders`` id 1234 with a leading empty row,
an empty column and a gap, ``Empty`` id 77, ``Headers only`` id 88), ``READ_ONLY`` (the same data; every write
answers 403 ``PERMISSION_DENIED``) and ``RATE_LIMITED`` (429 ``RESOURCE_EXHAUSTED``); any other id is 404 ``NOT_FOUND``.

Reads render values as Google does (``valueRenderOption`` ``FORMATTED_VALUE``/``UNFORMATTED_VALUE``/``FORMULA``,
``dateTimeRenderOption`` ``FORMATTED_STRING``/``SERIAL_NUMBER``), trimming trailing empty cells and rows. Writes
are checked (``valueInputOption``, ranges, sheet ids, duplicate sheet names) and answered with Google's shapes
(``updatedRange`` …) without changing what later requests read: recorded cases run in any order.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.saas.google_oauth import CLIENT_CREDENTIALS_TOKEN, SERVICE_ACCOUNT_TOKEN, authorized, google_error

HOST = "sheets.googleapis.com"
ACCESS_TOKEN = "sheets-access-token"
TOKENS = (ACCESS_TOKEN, SERVICE_ACCOUNT_TOKEN, CLIENT_CREDENTIALS_TOKEN)
PEOPLE = "1SheetsFakePeople000000000001"
READ_ONLY = "1SheetsFakeReadOnly00000000001"
RATE_LIMITED = "1SheetsFakeRateLimited000001"
ROWS, COLUMNS = 1000, 26


@dataclass(frozen=True)
class Date:
    serial: int
    text: str


@dataclass(frozen=True)
class Formula:
    formula: str
    value: Any


def _people() -> list[list[Any]]:
    rows: list[list[Any]] = [["id", "name", "email", "age", "active", "joined", "score"]]
    people = [
        ("Ada", "ada@example.com", 36, True, Date(45306, "2024-01-15")),
        ("Alan", "alan@example.com", 41, False, Date(45337, "2024-02-15")),
        ("Grace", "grace@example.com", 85, True, Date(45366, "2024-03-15")),
        ("Edsger", "", 72, True, Date(45397, "2024-04-15")),
        ("Barbara", "barbara@example.com", 2.5, False, Date(45427, "2024-05-15")),
    ]
    for number, (name, email, age, active, joined) in enumerate(people, start=1):
        double = age * 2
        rows.append([number, name, email, age, active, joined, Formula(f"=D{number + 1}*2", double)])
    return rows


_ORDERS: list[list[Any]] = [
    [],
    ["order", "", "item", "qty"],
    ["A-1", "", "pen", 2],
    ["A-2", "", "ink", ""],
    [],
    ["A-3", "", "pad", 5],
]
SHEETS: list[tuple[int, str, list[list[Any]]]] = [
    (0, "Sheet1", _people()),
    (1234, "Orders", _ORDERS),
    (77, "Empty", []),
    (88, "Headers only", [["id", "name", "email"]]),
]
SPREADSHEETS = {PEOPLE: "People", READ_ONLY: "People (read only)", RATE_LIMITED: "Busy"}


def _column_number(letters: str) -> int:
    number = 0
    for char in letters.upper():
        number = number * 26 + ord(char) - 64
    return number


def _column_letters(number: int) -> str:
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _quoted(title: str) -> str:
    return f"'{title}'" if re.search(r"[^A-Za-z0-9_]", title) else title


def _sheet_properties(index: int) -> dict[str, Any]:
    sheet_id, title, _rows = SHEETS[index]
    grid = {"rowCount": ROWS, "columnCount": COLUMNS}
    return {"sheetId": sheet_id, "title": title, "index": index, "sheetType": "GRID", "gridProperties": grid}


@dataclass
class Span:
    """A parsed A1 range: its sheet and 1-based bounds (``None``: open)."""

    sheet: int
    c0: int
    r0: int
    c1: int
    r1: int

    def a1(self) -> str:
        title = _quoted(SHEETS[self.sheet][1])
        return f"{title}!{_column_letters(self.c0)}{self.r0}:{_column_letters(self.c1)}{self.r1}"


def _parse_range(text: str) -> Span:
    bad = google_error(400, f"Unable to parse range: {text}", "INVALID_ARGUMENT")
    name, _, cells = text.partition("!")
    if name.startswith("'") and name.endswith("'") and len(name) >= 2:
        name = name[1:-1].replace("''", "'")
    index = next((i for i, sheet in enumerate(SHEETS) if sheet[1] == name), None)
    require(index is not None, bad)
    assert index is not None
    if not cells:
        return Span(index, 1, 1, COLUMNS, ROWS)
    start, _, end = cells.partition(":")
    first, last = re.fullmatch(r"([A-Za-z]*)(\d*)", start), re.fullmatch(r"([A-Za-z]*)(\d*)", end or start)
    require(first is not None and last is not None and bool(start), bad)
    assert first is not None and last is not None
    c0 = _column_number(first.group(1)) if first.group(1) else 1
    c1 = _column_number(last.group(1)) if last.group(1) else COLUMNS
    r0 = int(first.group(2)) if first.group(2) else 1
    r1 = int(last.group(2)) if last.group(2) else ROWS
    return Span(index, c0, r0, c1, r1)


def _rendered(cell: Any, value_option: str, date_option: str) -> Any:
    if isinstance(cell, Formula):
        return cell.formula if value_option == "FORMULA" else _rendered(cell.value, value_option, date_option)
    if isinstance(cell, Date):
        unformatted = value_option != "FORMATTED_VALUE" and date_option == "SERIAL_NUMBER"
        return cell.serial if unformatted else cell.text
    if value_option != "FORMATTED_VALUE":
        return cell
    if isinstance(cell, bool):
        return "TRUE" if cell else "FALSE"
    return str(cell)


def _values(span: Span, value_option: str, date_option: str) -> list[list[Any]]:
    rows = SHEETS[span.sheet][2]
    out: list[list[Any]] = []
    for row in rows[span.r0 - 1 : span.r1]:
        cells = [_rendered(c, value_option, date_option) for c in row[span.c0 - 1 : span.c1]]
        while cells and cells[-1] == "":
            cells.pop()
        out.append(cells)
    while out and not out[-1]:
        out.pop()
    return out


def _spreadsheet(request: ApiRequest, write: bool = False) -> str:
    authorized(request, TOKENS)
    spreadsheet = request.params["id"]
    if spreadsheet == RATE_LIMITED:
        message = (
            "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of "
            "service 'sheets.googleapis.com' for consumer 'project_number:123456789012'."
        )
        require(False, google_error(429, message, "RESOURCE_EXHAUSTED"))
    require(spreadsheet in SPREADSHEETS, google_error(404, "Requested entity was not found.", "NOT_FOUND"))
    if write and spreadsheet == READ_ONLY:
        require(False, google_error(403, "The caller does not have permission", "PERMISSION_DENIED"))
    return spreadsheet


def get_spreadsheet(request: ApiRequest) -> ApiReply:
    spreadsheet = _spreadsheet(request)
    sheets = [{"properties": _sheet_properties(i)} for i in range(len(SHEETS))]
    if request.query.get("fields") == "sheets.properties":
        return ApiReply(body={"sheets": sheets})
    return ApiReply(body=_created_body(spreadsheet, SPREADSHEETS[spreadsheet], sheets))


def get_values(request: ApiRequest) -> ApiReply:
    _spreadsheet(request)
    span = _parse_range(request.params["range"])
    value_option = request.query.get("valueRenderOption") or "FORMATTED_VALUE"
    date_option = request.query.get("dateTimeRenderOption") or "SERIAL_NUMBER"
    options = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")
    require(value_option in options, _invalid("value_render_option", value_option))
    body: dict[str, Any] = {"range": span.a1(), "majorDimension": "ROWS"}
    values = _values(span, value_option, date_option)
    if values:
        body["values"] = values
    return ApiReply(body=body)


def _invalid(field: str, value: str) -> ApiReply:
    message = f"Invalid value at '{field}' (type.googleapis.com/google.apps.sheets.v4.ValueInputOption), \"{value}\""
    return google_error(400, message, "INVALID_ARGUMENT")


def _updated(spreadsheet: str, range_text: str, values: Any) -> dict[str, Any]:
    span = _parse_range(range_text)
    rows = values if isinstance(values, list) else []
    require(all(isinstance(r, list) for r in rows), google_error(400, "Invalid values", "INVALID_ARGUMENT"))
    width = max((len(r) for r in rows), default=0)
    if not rows or not width:
        return {"spreadsheetId": spreadsheet}
    end = Span(span.sheet, span.c0, span.r0, span.c0 + width - 1, span.r0 + len(rows) - 1)
    title = _quoted(SHEETS[span.sheet][1])
    updated = f"{title}!{_column_letters(end.c0)}{end.r0}:{_column_letters(end.c1)}{end.r1}"
    cells = sum(len(r) for r in rows)
    return {"spreadsheetId": spreadsheet, "updatedRange": updated, "updatedRows": len(rows),
            "updatedColumns": width, "updatedCells": cells}  # fmt: skip


def _input_option(request: ApiRequest, option: Any) -> None:
    require(option in ("RAW", "USER_ENTERED"), _invalid("value_input_option", str(option or "")))


def _body(request: ApiRequest) -> dict[str, Any]:
    require(isinstance(request.body, dict), google_error(400, "Invalid JSON payload received.", "INVALID_ARGUMENT"))
    assert isinstance(request.body, dict)
    return request.body


def put_values(request: ApiRequest) -> ApiReply:
    spreadsheet = _spreadsheet(request, write=True)
    _input_option(request, request.query.get("valueInputOption"))
    body = _body(request)
    return ApiReply(body=_updated(spreadsheet, request.params["range"], body.get("values")))


def append_values(request: ApiRequest) -> ApiReply:
    spreadsheet = _spreadsheet(request, write=True)
    _input_option(request, request.query.get("valueInputOption"))
    body = _body(request)
    span = _parse_range(request.params["range"])
    rows = SHEETS[span.sheet][2]
    width = max((len(r) for r in rows), default=0)
    after = Span(span.sheet, 1, len(rows) + 1, 1, len(rows) + 1)
    reply: dict[str, Any] = {"spreadsheetId": spreadsheet}
    if rows:
        reply["tableRange"] = f"{_quoted(SHEETS[span.sheet][1])}!A1:{_column_letters(width)}{len(rows)}"
    reply["updates"] = _updated(spreadsheet, after.a1().split(":")[0], body.get("values"))
    return ApiReply(body=reply)


def clear_values(request: ApiRequest) -> ApiReply:
    spreadsheet = _spreadsheet(request, write=True)
    span = _parse_range(request.params["range"])
    return ApiReply(body={"spreadsheetId": spreadsheet, "clearedRange": span.a1()})


def batch_update_values(request: ApiRequest) -> ApiReply:
    spreadsheet = _spreadsheet(request, write=True)
    body = _body(request)
    _input_option(request, body.get("valueInputOption"))
    responses = [_updated(spreadsheet, str(d.get("range")), d.get("values")) for d in body.get("data") or []]
    totals = {
        "totalUpdatedRows": sum(r.get("updatedRows", 0) for r in responses),
        "totalUpdatedColumns": max((r.get("updatedColumns", 0) for r in responses), default=0),
        "totalUpdatedCells": sum(r.get("updatedCells", 0) for r in responses),
        "totalUpdatedSheets": len({r["updatedRange"].split("!")[0] for r in responses if "updatedRange" in r}),
    }
    return ApiReply(body={"spreadsheetId": spreadsheet, **totals, "responses": responses})


def _sheet_index(value: Any, where: str) -> int:
    sheet_id = int(value) if isinstance(value, int) or (isinstance(value, str) and value.isdigit()) else -1
    index = next((i for i, sheet in enumerate(SHEETS) if sheet[0] == sheet_id), None)
    require(index is not None, google_error(400, f"Invalid {where}: No grid with id: {value}", "INVALID_ARGUMENT"))
    assert index is not None
    return index


def _add_sheet(properties: dict[str, Any], where: str) -> dict[str, Any]:
    title = str(properties.get("title") or "")
    taken = f'Invalid {where}: A sheet with the name "{title}" already exists. Please enter another name.'
    require(all(sheet[1] != title for sheet in SHEETS), google_error(400, taken, "INVALID_ARGUMENT"))
    added: dict[str, Any] = {
        "sheetId": properties.get("sheetId") or zlib.crc32(title.encode()) % 2_000_000_000,
        "title": title,
        "index": properties.get("index") or len(SHEETS),
        "sheetType": "GRID",
        "gridProperties": {"rowCount": ROWS, "columnCount": COLUMNS},
    }
    for flag in ("hidden", "rightToLeft"):
        if properties.get(flag):
            added[flag] = True
    if isinstance(properties.get("tabColor"), dict):
        added["tabColor"] = properties["tabColor"]
        added["tabColorStyle"] = {"rgbColor": properties["tabColor"]}
    return {"addSheet": {"properties": added}}


def _reply(request: dict[str, Any], where: str) -> dict[str, Any]:
    if "addSheet" in request:
        return _add_sheet(dict((request["addSheet"] or {}).get("properties") or {}), where + ".addSheet")
    if "deleteSheet" in request:
        _sheet_index((request["deleteSheet"] or {}).get("sheetId"), where + ".deleteSheet")
        return {}
    if "deleteDimension" in request:
        span = dict((request["deleteDimension"] or {}).get("range") or {})
        _sheet_index(span.get("sheetId"), where + ".deleteDimension")
        ok = isinstance(span.get("startIndex"), int) and span.get("endIndex", 0) > span["startIndex"] >= 0
        require(ok, google_error(400, f"Invalid {where}.deleteDimension: Invalid range", "INVALID_ARGUMENT"))
        return {}
    if "appendDimension" in request:
        _sheet_index((request["appendDimension"] or {}).get("sheetId"), where + ".appendDimension")
        return {}
    require(False, google_error(400, f"Invalid {where}: unsupported request", "INVALID_ARGUMENT"))
    return {}


def batch_update(request: ApiRequest) -> ApiReply:
    spreadsheet = _spreadsheet(request, write=True)
    requests = _body(request).get("requests")
    none = google_error(400, "Must specify at least one request.", "INVALID_ARGUMENT")
    require(isinstance(requests, list) and bool(requests), none)
    assert isinstance(requests, list)
    replies = [_reply(dict(r), f"requests[{i}]") for i, r in enumerate(requests)]
    return ApiReply(body={"spreadsheetId": spreadsheet, "replies": replies})


def _created_body(spreadsheet: str, title: str, sheets: list[dict[str, Any]]) -> dict[str, Any]:
    properties = {
        "title": title,
        "locale": "en_US",
        "autoRecalc": "ON_CHANGE",
        "timeZone": "Etc/GMT",
        "defaultFormat": {"backgroundColor": {"red": 1, "green": 1, "blue": 1}, "verticalAlignment": "BOTTOM",
                          "wrapStrategy": "OVERFLOW_CELL", "textFormat": {"fontFamily": "arial", "fontSize": 10}},
    }  # fmt: skip
    url = f"https://docs.google.com/spreadsheets/d/{spreadsheet}/edit"
    return {"spreadsheetId": spreadsheet, "properties": properties, "sheets": sheets, "spreadsheetUrl": url}


def create_spreadsheet(request: ApiRequest) -> ApiReply:
    authorized(request, TOKENS)
    body = _body(request)
    properties = dict(body.get("properties") or {})
    title = str(properties.get("title") or "Untitled spreadsheet")
    spreadsheet = f"1SheetsFakeCreated{zlib.crc32(title.encode()):010d}x"
    sheets: list[dict[str, Any]] = []
    for index, entry in enumerate(body.get("sheets") or [{"properties": {"title": "Sheet1", "sheetId": 0}}]):
        given = dict((entry or {}).get("properties") or {})
        name = str(given.get("title") or f"Sheet{index + 1}")
        grid = {"rowCount": ROWS, "columnCount": COLUMNS}
        sheet_id = given.get("sheetId", zlib.crc32(name.encode()) % 2_000_000_000)
        sheet = {"sheetId": sheet_id, "title": name, "index": index, "sheetType": "GRID", "gridProperties": grid}
        if given.get("hidden"):
            sheet["hidden"] = True
        sheets.append({"properties": sheet})
    created = _created_body(spreadsheet, title, sheets)
    for key in ("locale", "autoRecalc"):
        if properties.get(key):
            created["properties"][key] = properties[key]
    return ApiReply(body=created)


def delete_file(request: ApiRequest) -> ApiReply:
    authorized(request, TOKENS)
    file_id = request.params["id"]
    if file_id in SPREADSHEETS or file_id.startswith("1SheetsFakeCreated"):
        return ApiReply(status=204)
    message = f"File not found: {file_id}."
    error = {"message": message, "domain": "global", "reason": "notFound", "location": "fileId",
             "locationType": "parameter"}  # fmt: skip
    return json_error(404, {"error": {"code": 404, "message": message, "errors": [error]}})


def install(server: FakeApiServer) -> None:
    sheet = r"/v4/spreadsheets/(?P<id>[^/:]+)"
    server.route("POST", r"/v4/spreadsheets/?", create_spreadsheet, host=HOST)
    server.route("GET", sheet, get_spreadsheet, host=HOST)
    server.route("POST", sheet + r":batchUpdate", batch_update, host=HOST)
    server.route("POST", sheet + r"/values:batchUpdate", batch_update_values, host=HOST)
    server.route("GET", sheet + r"/values/(?P<range>.+)", get_values, host=HOST)
    server.route("PUT", sheet + r"/values/(?P<range>.+)", put_values, host=HOST)
    server.route("POST", sheet + r"/values/(?P<range>.+):append", append_values, host=HOST)
    server.route("POST", sheet + r"/values/(?P<range>.+):clear", clear_values, host=HOST)
    server.route("DELETE", r"/drive/v3/files/(?P<id>1Sheets[^/]*)", delete_file, host="www.googleapis.com")


__all__ = ["ACCESS_TOKEN", "PEOPLE", "RATE_LIMITED", "READ_ONLY", "SHEETS", "SPREADSHEETS", "install"]
