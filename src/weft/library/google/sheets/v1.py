"""Google Sheets 1 and 2 (n8n's ``GoogleSheetsV1``): the spreadsheet by id and an A1 ``range``, keys in row
``keyRow`` and data from ``dataStartRow`` (both counted from 0). Read (or the raw values), Lookup, Append, Update,
Upsert, Clear, Delete rows/columns, Create and Remove a sheet, Create a spreadsheet. 1 authenticates with a service
account by default, 2 with OAuth2. Errors with "continue on fail" are an item ``{"error": message}``."""

from __future__ import annotations

import re
from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.google._common import google_request
from weft.library.google.sheets.data import hex_to_rgb
from weft.library.google.sheets.sheet import column_with_offset, js_text, uri_component
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext
from weft.nodes.paths import get_path
from weft.workflow import Item, NodeOutput


def encode_range(range_: str) -> str:
    """n8n 1's ``encodeRange``: only the sheet name before ``!`` is percent-encoded."""
    if "!" in range_:
        sheet, cells = range_.split("!")[:2]
        return f"{uri_component(sheet)}!{cells}"
    return range_


class SheetV1:
    def __init__(self, ctx: ExecuteContext, api: ApiRequests, spreadsheet: str) -> None:
        self.ctx, self.api, self.id = ctx, api, spreadsheet
        default = "serviceAccount" if float(ctx.node.typeVersion) < 2 else "oAuth2"
        self.auth = str(ctx.get_node_parameter("authentication", 0, default))

    async def request(self, method: str, path: str, body: dict[str, Any] | None = None,
                      qs: dict[str, Any] | None = None) -> Any:  # fmt: skip
        options: dict[str, Any] = {"method": method, "url": f"https://sheets.googleapis.com{path}", "qs": qs or {},
                                   "json": True, "headers": {"Content-Type": "application/json"}}  # fmt: skip
        if body:
            options["body"] = body
        return await google_request(self.api, options, oauth2_type="googleSheetsOAuth2Api", service="sheetV1",
                                    authentication=self.auth)  # fmt: skip

    async def get_data(self, range_: str, render: str) -> Any:
        answer = await self.request("GET", f"/v4/spreadsheets/{self.id}/values/{range_}", None,
                                    {"valueRenderOption": render})  # fmt: skip
        return (answer or {}).get("values")

    async def append(self, items: list[dict[str, Any]], range_: str, key_row: int, value_input: str,
                     use_path: bool) -> Any:  # fmt: skip
        rows = await self.to_rows(items, range_, key_row, use_path)
        body = {"range": _decode(range_), "values": rows}
        return await self.request("POST", f"/v4/spreadsheets/{self.id}/values/{range_}:append", body,
                                  {"valueInputOption": value_input})  # fmt: skip

    async def to_rows(self, items: list[dict[str, Any]], range_: str, key_row: int, use_path: bool) -> list[Any]:
        """n8n 1's ``convertStructuredDataToArray``: values as text, in the key row's column order."""
        sheet, _, cells = range_.rpartition("!") if "!" in range_ else ("", "", range_)
        start, _, end = cells.partition(":")
        keys_range = f"{start}{key_row + 1}:{end}{key_row + 1}"
        keys = await self.get_data(f"{sheet}!{keys_range}" if sheet else keys_range, "UNFORMATTED_VALUE")
        if keys is None:
            raise NodeOperationError(self.ctx.node.name, "Could not retrieve the column data!")
        rows = []
        for item in items:
            row = []
            for key in keys[0]:
                value = get_path(item, js_text(key)) if use_path else item.get(js_text(key))
                row.append("" if value is None else js_text(value))
            rows.append(row)
        return rows


def _decode(text: str) -> str:
    from urllib.parse import unquote

    return unquote(text)


def structure(rows: list[list[Any]], start: int, keys: list[Any], add_empty: bool = False) -> list[dict[str, Any]]:
    """n8n 1's ``structureData``."""
    out = []
    for row in rows[start:]:
        entry = {js_text(keys[i]): row[i] for i in range(len(row)) if i < len(keys) and keys[i] not in (None, "", 0)}
        if entry or add_empty:
            out.append(entry)
    return out


async def execute_v1(ctx: ExecuteContext, api: ApiRequests) -> NodeOutput:
    operation = str(ctx.get_node_parameter("operation", 0, "read"))
    if ctx.get_node_parameter("resource", 0, "sheet") == "spreadsheet":
        return [await _per_item(ctx, api, _create_spreadsheet)]
    if operation in ("create", "remove"):
        return [await _per_item(ctx, api, _create_sheet if operation == "create" else _remove_sheet)]
    sheet = SheetV1(ctx, api, str(ctx.get_node_parameter("sheetId", 0, "")))
    try:
        return [await _sheet_operation(ctx, sheet, operation)]
    except NodeError as error:
        if not ctx.continue_on_fail():
            raise
        return [[{"json": {"error": error.message}}]]


async def _per_item(ctx: ExecuteContext, api: ApiRequests, fn: Any) -> list[Item]:
    out: list[Item] = []
    for index in range(len(ctx.get_input_data())):
        try:
            out.append({"json": await fn(ctx, SheetV1(ctx, api, ""), index)})
        except NodeError as error:
            if not ctx.continue_on_fail():
                raise
            out.append({"json": {"error": error.message}})
    return out


async def _sheet_operation(ctx: ExecuteContext, sheet: SheetV1, operation: str) -> list[Item]:
    items = ctx.get_input_data()
    range_ = "" if operation == "delete" else str(ctx.get_node_parameter("range", 0, "A:F"))
    options = dict(ctx.get_node_parameter("options", 0, {}) or {})
    value_input = options.get("valueInputMode") or "RAW"
    render = options.get("valueRenderMode") or "UNFORMATTED_VALUE"
    if operation == "append":
        key_row = int(ctx.get_node_parameter("keyRow", 0, 0))
        data = [dict(item["json"]) for item in items]
        await sheet.append(data, encode_range(range_), key_row, value_input, bool(options.get("usePathForKeyRow")))
        return list(items)
    if operation == "clear":
        await sheet.request("POST", f"/v4/spreadsheets/{sheet.id}/values/{encode_range(range_)}:clear",
                            {"spreadsheetId": sheet.id, "range": encode_range(range_)})  # fmt: skip
        return list(items)
    if operation == "delete":
        await sheet.request("POST", f"/v4/spreadsheets/{sheet.id}:batchUpdate", {"requests": _deletions(ctx)})
        return list(items)
    if operation == "lookup":
        return await _lookup(ctx, sheet, range_, render, options)
    if operation == "read":
        return await _read(ctx, sheet, range_, render, options)
    if operation in ("update", "upsert"):
        await _update(ctx, sheet, range_, value_input, render, upsert=operation == "upsert")
        return list(items)
    raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')


def _deletions(ctx: ExecuteContext) -> list[dict[str, Any]]:
    to_delete = ctx.get_node_parameter("toDelete", 0, {}) or {}
    requests = []
    for name, dimension in (("columns", "COLUMNS"), ("rows", "ROWS")):
        for entry in to_delete.get(name) or []:
            start = entry.get("startIndex", 0)
            end = int(js_text(start)) + int(js_text(entry.get("amount", 1)))
            span = {"sheetId": entry.get("sheetId", 0), "dimension": dimension, "startIndex": start, "endIndex": end}
            requests.append({"deleteDimension": {"range": span}})
    return requests


async def _read(ctx: ExecuteContext, sheet: SheetV1, range_: str, render: str, options: dict[str, Any]) -> list[Item]:
    rows = await sheet.get_data(encode_range(range_), render)
    found: list[dict[str, Any]]
    if not rows:
        found = []
    elif ctx.get_node_parameter("rawData", 0, False):
        found = [{str(ctx.get_node_parameter("dataProperty", 0, "data")): rows}]
    else:
        start = int(ctx.get_node_parameter("dataStartRow", 0, 1))
        key_row = int(ctx.get_node_parameter("keyRow", 0, 0))
        invalid = key_row < 0 or start < key_row or key_row >= len(rows)
        found = [] if invalid else structure(rows, start, list(rows[key_row]))
    if not found and options.get("continue"):
        found = [{}]
    return [{"json": entry} for entry in found]


async def _lookup(ctx: ExecuteContext, sheet: SheetV1, range_: str, render: str, options: dict[str, Any]) -> list[Item]:
    rows = await sheet.get_data(encode_range(range_), render)
    if rows is None:
        return []
    start = int(ctx.get_node_parameter("dataStartRow", 0, 1))
    key_row = int(ctx.get_node_parameter("keyRow", 0, 0))
    items = ctx.get_input_data()
    lookups = [(ctx.get_node_parameter("lookupColumn", i, ""), ctx.get_node_parameter("lookupValue", i, ""))
               for i in range(len(items))]  # fmt: skip
    if key_row < 0 or start < key_row or key_row >= len(rows):
        raise NodeOperationError(ctx.node.name, "The key row does not exist!")
    keys = list(rows[key_row])
    rows = [list(r) + [""] * (len(keys) - len(r)) for r in rows]
    every = options.get("returnAllMatches") is True
    found: list[list[Any]] = [keys]
    for column, value in lookups:
        if column not in keys:
            raise NodeOperationError(ctx.node.name, f'The column "{js_text(column)}" could not be found!')
        index = keys.index(column)
        matches = [r for r in rows[start:] if index < len(r) and js_text(r[index]) == js_text(value)]
        found.extend(matches if every else matches[:1] or [[]])
    data = structure(found, 1, keys, True)
    if not data and options.get("continue") and every:
        data = [{}]
    elif len(data) == 1 and not data[0] and not options.get("continue") and not every:
        data = []
    paired = [{"item": i} for i in range(len(items))]
    return [{"json": entry, "pairedItem": paired} for entry in data]  # type: ignore[typeddict-item]


async def _update(ctx: ExecuteContext, sheet: SheetV1, range_: str, value_input: str, render: str, *,
                  upsert: bool) -> None:  # fmt: skip
    items = [dict(item["json"]) for item in ctx.get_input_data()]
    path = f"/v4/spreadsheets/{sheet.id}/values:batchUpdate"
    if ctx.get_node_parameter("rawData", 0, False):
        prop = str(ctx.get_node_parameter("dataProperty", 0, "data"))
        data = [{"range": range_, "values": item.get(prop)} for item in items]
        await sheet.request("POST", path, {"data": data, "valueInputOption": value_input})
        return
    key = ctx.get_node_parameter("key", 0, "id")
    key_row = int(ctx.get_node_parameter("keyRow", 0, 0))
    start_row = int(ctx.get_node_parameter("dataStartRow", 0, 1))
    name, _, cells = range_.rpartition("!") if "!" in range_ else ("", "", range_)
    prefix = f"{name}!" if name else ""
    bounds = [re.search(r"([a-zA-Z]{1,10})([0-9]{0,10})", part) for part in [*cells.split(":"), ""][:2]]
    if bounds[0] is None or bounds[1] is None:
        raise NodeOperationError(ctx.node.name, f'The range "{range_}" is not valid.')
    (first_col, first_row), (last_col, last_row) = bounds[0].groups(), bounds[1].groups()
    header = await sheet.get_data(encode_range(f"{prefix}{first_col}{key_row + 1}:{last_col}{key_row + 1}"), render)
    if header is None:
        raise NodeOperationError(ctx.node.name, "Could not retrieve the key row!")
    columns = list(header[0])
    if key not in columns:
        raise NodeOperationError(ctx.node.name, f'Could not find column for key "{js_text(key)}"!')
    key_column = column_with_offset(first_col, columns.index(key))
    column_range = f"{prefix}{key_column}{first_row or start_row}:{key_column}{last_row or ''}"
    values = await sheet.get_data(encode_range(column_range), render)
    if values is None:
        raise NodeOperationError(ctx.node.name, "Could not retrieve the key column!")
    lookup = [row[0] if row else None for row in values[1:]]
    updates = []
    for item in items:
        wanted = item.get(js_text(key))
        if wanted is None or wanted not in lookup:
            if upsert:
                await sheet.append([item], encode_range(range_), key_row, value_input, False)
            continue
        row = lookup.index(wanted) + start_row + 1
        for column in columns:
            if column != key and item.get(js_text(column)) is not None:
                letter = column_with_offset(first_col, columns.index(column))
                updates.append({"range": f"{prefix}{letter}{row}", "values": [[item[js_text(column)]]]})
    await sheet.request("POST", path, {"data": updates, "valueInputOption": value_input})


async def _create_sheet(ctx: ExecuteContext, sheet: SheetV1, index: int) -> dict[str, Any]:
    spreadsheet = ctx.get_node_parameter("sheetId", index, "")
    options = dict(ctx.get_node_parameter("options", index, {}) or {})
    properties: dict[str, Any] = dict(options)
    if options.get("tabColor"):
        rgb = hex_to_rgb(str(options["tabColor"])) or {}
        properties["tabColor"] = {k: rgb.get(k, 0) / 255 for k in ("red", "green", "blue")}
    body = {"requests": [{"addSheet": {"properties": properties}}]}
    answer = dict(await sheet.request("POST", f"/v4/spreadsheets/{spreadsheet}:batchUpdate", body) or {})
    if ctx.get_node_parameter("simple", 0, True):
        added = answer.pop("replies")[0]["addSheet"]["properties"]
        answer.update(added)
    return answer


async def _remove_sheet(ctx: ExecuteContext, sheet: SheetV1, index: int) -> dict[str, Any]:
    spreadsheet = ctx.get_node_parameter("sheetId", index, "")
    body = {"requests": [{"deleteSheet": {"sheetId": ctx.get_node_parameter("id", index, "")}}]}
    answer = dict(await sheet.request("POST", f"/v4/spreadsheets/{spreadsheet}:batchUpdate", body) or {})
    answer.pop("replies", None)
    return answer


async def _create_spreadsheet(ctx: ExecuteContext, sheet: SheetV1, index: int) -> dict[str, Any]:
    sheets_ui = ctx.get_node_parameter("sheetsUi", index, {}) or {}
    options = dict(ctx.get_node_parameter("options", index, {}) or {})
    properties: dict[str, Any] = {"title": ctx.get_node_parameter("title", index, "")}
    for key in ("autoRecalc", "locale"):
        if options.get(key):
            properties[key] = options[key]
    sheets = [{"properties": s["propertiesUi"]} for s in sheets_ui.get("sheetValues") or [] if s.get("propertiesUi")]
    return dict(await sheet.request("POST", "/v4/spreadsheets", {"properties": properties, "sheets": sheets}) or {})


__all__ = ["execute_v1"]
