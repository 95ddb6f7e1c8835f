"""Google Sheets Trigger (``n8n-nodes-base.googleSheetsTrigger`` v1): polls a sheet for rows added
(``rowAdded``), updated (``rowUpdate``) or either (``anyUpdate``).

``rowAdded`` remembers how many data rows the sheet had (``lastIndexChecked``; the first poll only counts) and
emits the rows beyond. The update events remember Drive's newest revision of the document (``lastRevision`` and
its ``.xlsx`` export link) and compare that export with the current values (:mod:`._trigger_revisions`); the
first poll only remembers. A manual run emits every data row (``rowAdded``; update events: the current rows
before any revision is known). Changing the document or sheet starts over.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import quote

from weft.errors import NodeOperationError
from weft.library.google._common import google_request
from weft.library.google.sheets._trigger_revisions import XLSX, compare_revisions, rows_to_json, xlsx_rows
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import run_trigger_node, workflow_static_data
from weft.workflow import Item, NodeOutput

SHEETS_TRIGGER_TYPE = "n8n-nodes-base.googleSheetsTrigger"
SHEETS = "https://sheets.googleapis.com"
_OAUTH2 = {"triggerOAuth2": "googleSheetsTriggerOAuth2Api", "oAuth2": "googleSheetsOAuth2Api"}


class _Sheets:
    def __init__(self, ctx: ExecuteContext, api: ApiRequests) -> None:
        self.ctx, self.api = ctx, api
        authentication = str(ctx.get_node_parameter("authentication", default="triggerOAuth2"))
        self.authentication = authentication
        self.oauth2 = _OAUTH2.get(authentication, "googleSheetsOAuth2Api")

    async def get(self, url: str, qs: dict[str, Any] | None = None, *, raw: bool = False, trigger: bool = False) -> Any:
        options: dict[str, Any] = {"method": "GET", "url": url if url.startswith("https") else SHEETS + url}
        options["qs"] = qs or {}
        options["headers"] = {"Content-Type": "application/json"}
        options.update({"json": False, "encoding": "arraybuffer"} if raw else {"json": True})
        service = "sheetV2Trigger" if trigger else "sheetV2"
        return await google_request(
            self.api, options, oauth2_type=self.oauth2, service=service, authentication=self.authentication
        )


async def _sheet(sheets: _Sheets, document: str) -> dict[str, Any]:
    ctx = sheets.ctx
    locator = ctx.get_node_parameter("sheetName", default={}, raw=True) or {}
    mode = locator.get("mode") if isinstance(locator, dict) else "id"
    value = ctx.get_node_parameter("sheetName", default="", extract_value=True)
    found = await sheets.get(f"/v4/spreadsheets/{document}", {"fields": "sheets.properties"})
    for sheet in found.get("sheets") or []:
        properties = sheet.get("properties") or {}
        if (mode == "name" and properties.get("title") == value) or (
            mode != "name" and properties.get("sheetId") == _gid(value)
        ):
            return dict(properties)
    raise NodeOperationError(ctx.node.name, f"Sheet with {'name' if mode == 'name' else 'ID'} {value} not found")


def _gid(value: Any) -> int | None:
    text = str(value)
    if text == "gid=0":
        return 0
    found = re.match(r"\s*(?:gid=)?(-?\d+)", text)
    return int(found.group(1)) if found else None


class GoogleSheetsTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=SHEETS_TRIGGER_TYPE,
        display_name="Google Sheets Trigger",
        versions=(1,),
        description="Starts the workflow when Google Sheets events occur",
        group=("trigger",),
        inputs=(),
        credentials=("googleApi", "googleSheetsTriggerOAuth2Api"),
        defaults={"authentication": "triggerOAuth2", "event": "anyUpdate", "includeInOutput": "new", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def poll(self, ctx: ExecuteContext) -> list[list[Item]] | None:
        state = workflow_static_data(ctx, "node")
        event = str(ctx.get_node_parameter("event", default="anyUpdate"))
        document = str(ctx.get_node_parameter("documentId", default="", extract_value=True))
        manual = ctx.mode == "manual"
        async with ApiRequests(ctx) as api:
            sheets = _Sheets(ctx, api)
            properties = await _sheet(sheets, document)
            if not manual and (
                state.get("documentId") != document or state.get("sheetId") != properties.get("sheetId")
            ):
                state.clear()
                state.update({"documentId": document, "sheetId": properties.get("sheetId")})
            previous = (state.get("lastRevision"), state.get("lastRevisionLink"))
            if event != "rowAdded" and not await _newer_revision(sheets, document, state, manual):
                return None
            title = str(properties.get("title"))
            if event == "rowAdded":
                rows = await _rows_added(sheets, document, title, state, manual)
            else:
                rows = await _rows_updated(sheets, document, title, event, previous, manual)
        return [[{"json": row} for row in rows]] if rows else None


async def _newer_revision(sheets: _Sheets, document: str, state: dict[str, Any], manual: bool) -> bool:
    """Whether Drive has a revision newer than the remembered one (remembered now, except in a manual run)."""
    token: str | None = None
    while True:
        qs = {"fields": "revisions(id, exportLinks), nextPageToken", "pageSize": 1000}
        if token:
            qs["pageToken"] = token
        url = f"https://www.googleapis.com/drive/v3/files/{document}/revisions"
        page = await sheets.get(url, qs, trigger=True)
        token = page.get("nextPageToken")
        if token:
            continue
        newest = (page.get("revisions") or [{}])[-1]
        number = int(newest.get("id") or 0)
        if state.get("lastRevision") is not None and number <= int(state["lastRevision"]):
            return False
        if not manual:
            state["lastRevision"] = number
            state["lastRevisionLink"] = (newest.get("exportLinks") or {}).get(XLSX)
        return True


async def _values(sheets: _Sheets, document: str, range_: str, render: str, dates: str) -> list[list[Any]]:
    sheet, _, cells = range_.partition("!")
    qs = {"valueRenderOption": render, "dateTimeRenderOption": dates}
    answer = await sheets.get(f"/v4/spreadsheets/{document}/values/{quote(sheet, safe='')}!{cells}", qs)
    return list(answer.get("values") or [])


async def _rows_added(sheets: _Sheets, document: str, title: str, state: dict[str, Any], manual: bool) -> list[Any]:
    ctx = sheets.ctx
    key_row, start, first, last = _location(ctx)
    header = await _values(
        sheets, document, f"{title}!{first}{key_row}:{last}{key_row}", "FORMATTED_VALUE", "FORMATTED_STRING"
    )
    if not header or not header[0]:
        raise NodeOperationError(ctx.node.name, "Could not retrieve the columns from key row")
    options = ctx.get_node_parameter("options", default={}) or {}
    render = str(options.get("valueRender") or "UNFORMATTED_VALUE")
    data = await _values(
        sheets,
        document,
        f"{title}!{first}{key_row}:{last}",
        render,
        str(options.get("dateTimeRenderOption") or "FORMATTED_STRING"),
    )
    data = data[1:]
    skip = max(start - key_row - 1, 0)
    if manual:
        return rows_to_json(data[skip:], header[0])
    if state.get("lastIndexChecked") is None:
        state["lastIndexChecked"] = len(data)
        return []
    added = data[max(int(state["lastIndexChecked"]), skip) :]
    state["lastIndexChecked"] = len(data)
    return rows_to_json(added, header[0])


def _location(ctx: ExecuteContext) -> tuple[int, int, str, str]:
    """``(key row, first data row, first column, last column)`` from ``options.dataLocationOnSheet``."""
    options = ctx.get_node_parameter("options", default={}) or {}
    location = ((options.get("dataLocationOnSheet") or {}).get("values")) or {}
    if location.get("rangeDefinition") == "specifyRange":
        return int(location.get("headerRow", 1)), int(location.get("firstDataRow", 2)), "A", "ZZZ"
    if location.get("rangeDefinition") == "specifyRangeA1":
        raise NodeOperationError(
            ctx.node.name,
            "The 'specifyRangeA1' data location is not supported by Weft's Google Sheets Trigger yet.",
            description="Use 'specifyRange' (header row and first data row) instead.",
        )
    return 1, 2, "A", "ZZZ"


async def _rows_updated(
    sheets: _Sheets, document: str, title: str, event: str, previous: tuple[Any, Any], manual: bool
) -> list[Any]:
    ctx = sheets.ctx
    if len(title) > 31:
        raise NodeOperationError(ctx.node.name, "Sheet name is too long choose a name with 31 characters or less")
    key_row, start, _, _ = _location(ctx)
    data_start = start - 2 if key_row < start else start - 1
    current = await _values(sheets, document, f"{title}!A:ZZZ", "UNFORMATTED_VALUE", "SERIAL_NUMBER")
    if previous[0] is None:
        if not current or not manual:
            return []
        columns = current.pop(key_row - 1)
        return rows_to_json(current[data_start:], columns)
    export = await sheets.get(str(previous[1]), {"mimeType": XLSX}, raw=True, trigger=True)
    old = xlsx_rows(bytes(export), title)
    options = ctx.get_node_parameter("options", default={}) or {}
    include = str(ctx.get_node_parameter("includeInOutput", default="new"))
    watched = list(options.get("columnsToWatch") or [])
    return compare_revisions(old, current, key_row, include, watched, data_start, event)


__all__ = ["SHEETS_TRIGGER_TYPE", "GoogleSheetsTrigger"]
