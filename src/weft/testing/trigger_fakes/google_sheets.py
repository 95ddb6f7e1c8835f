"""A spreadsheet for the Google Sheets Trigger's tests: ``GET /v4/spreadsheets/<id>`` (sheet properties),
``…/values/<sheet>!<range>`` (the rows in :attr:`SheetsState.rows`), Drive's revisions of the document and each
revision's ``.xlsx`` export (:meth:`SheetsState.save_revision` snapshots the rows as a new revision)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

SHEETS_HOST = "sheets.googleapis.com"
DRIVE_HOST = "www.googleapis.com"
TOKEN = "sheets-trigger-token"
DOCUMENT = "doc1"
SHEET = "Tasks"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclass
class SheetsState:
    rows: list[list[Any]] = field(default_factory=lambda: [["name", "done"]])
    revisions: list[bytes] = field(default_factory=list)
    ranges: list[str] = field(default_factory=list)

    def save_revision(self) -> None:
        from openpyxl import Workbook

        book = Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.title = SHEET
        for row in self.rows:
            sheet.append(list(row))
        buffer = io.BytesIO()
        book.save(buffer)
        self.revisions.append(buffer.getvalue())


def _column_rows(rows: list[list[Any]], cells: str) -> list[list[Any]]:
    """The rows a ``A1:ZZZ1`` / ``A1:ZZZ`` / ``A:ZZZ`` range covers (whole rows: the fake has few columns)."""
    found = re.fullmatch(r"[A-Z]+(\d*):[A-Z]+(\d*)", cells)
    if not found:
        return rows
    first = int(found.group(1) or 1)
    last = int(found.group(2)) if found.group(2) else len(rows)
    return rows[first - 1 : last]


def install(server: FakeApiServer, token: str = TOKEN) -> SheetsState:
    state = SheetsState()

    def authorized(request: ApiRequest) -> bool:
        return request.headers.get("authorization") == f"Bearer {token}"

    def unauthorized() -> ApiReply:
        return json_error(401, {"error": {"code": 401, "message": "Invalid Credentials", "status": "UNAUTHENTICATED"}})

    def spreadsheet(request: ApiRequest) -> ApiReply:
        if not authorized(request):
            return unauthorized()
        properties = {"sheetId": 0, "title": SHEET, "index": 0, "sheetType": "GRID"}
        return ApiReply(body={"sheets": [{"properties": properties}]})

    def values(request: ApiRequest) -> ApiReply:
        if not authorized(request):
            return unauthorized()
        state.ranges.append(request.params["range"])
        sheet, _, cells = request.params["range"].partition("!")
        if sheet != SHEET:
            return json_error(400, {"error": {"code": 400, "message": f"Unable to parse range: {sheet}"}})
        rows = [list(r) for r in _column_rows(state.rows, cells)]
        return ApiReply(body={"range": request.params["range"], "majorDimension": "ROWS", "values": rows})

    def revisions(request: ApiRequest) -> ApiReply:
        if not authorized(request):
            return unauthorized()
        base = f"https://{DRIVE_HOST}/drive/v3/files/{DOCUMENT}/revisions"
        listed = [
            {"id": str(n + 1), "exportLinks": {XLSX: f"{base}/{n + 1}/export"}} for n in range(len(state.revisions))
        ]
        return ApiReply(body={"revisions": listed or [{"id": "0", "exportLinks": {}}]})

    def export(request: ApiRequest) -> ApiReply:
        if not authorized(request):
            return unauthorized()
        return ApiReply(data=state.revisions[int(request.params["n"]) - 1], content_type=XLSX)

    server.route("GET", rf"/v4/spreadsheets/{DOCUMENT}", spreadsheet, host=SHEETS_HOST)
    server.route("GET", rf"/v4/spreadsheets/{DOCUMENT}/values/(?P<range>.+)", values, host=SHEETS_HOST)
    server.route("GET", rf"/drive/v3/files/{DOCUMENT}/revisions", revisions, host=DRIVE_HOST)
    server.route("GET", rf"/drive/v3/files/{DOCUMENT}/revisions/(?P<n>\d+)/export", export, host=DRIVE_HOST)
    return state
