"""Clear, Delete Rows or Columns, Create and Delete a sheet, Create and Delete a spreadsheet (n8n's ``clear``,
``delete``, ``create``, ``remove`` sheet operations and the ``spreadsheet`` resource)."""

from __future__ import annotations

import re
from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.sheets.data import column_letters, column_number, hex_to_rgb
from weft.library.google.sheets.sheet import GoogleSheet, sheets_request
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item

_FILE_URL = re.compile(r"https:\/\/(?:drive|docs)\.google\.com(?:\/.*|)\/d\/([0-9a-zA-Z\-_]+)(?:\/.*|)")


def _number(ctx: ExecuteContext, name: str, index: int, default: int) -> int:
    value = ctx.get_node_parameter(name, index, default)
    try:
        return int(float(value))
    except (TypeError, ValueError) as error:
        raise NodeOperationError(ctx.node.name, f"The parameter '{name}' must be a number, not {value!r}",
                                 item_index=index) from error  # fmt: skip


async def clear(ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, sheet_id: str) -> list[Item]:
    items = ctx.get_input_data()
    for index in range(len(items)):
        kind = ctx.get_node_parameter("clear", index, "wholeSheet")
        keep_first = bool(ctx.get_node_parameter("keepFirstRow", index, False))
        range_ = ""
        if kind == "specificRows":
            start = _number(ctx, "startIndex", index, 1)
            count = _number(ctx, "rowsToDelete", index, 1)
            range_ = f"{sheet_name}!{start}:{start if count == 1 else start + count - 1}"
        elif kind == "specificColumns":
            start_column = str(ctx.get_node_parameter("startIndex", index, "A"))
            count = _number(ctx, "columnsToDelete", index, 1)
            first = column_number(start_column)
            range_ = f"{sheet_name}!{start_column}:{column_letters(first if count == 1 else first + count - 1)}"
        elif kind == "specificRange":
            field = str(ctx.get_node_parameter("range", index, "A:F"))
            range_ = f"{sheet_name}!{field.split('!')[1] if '!' in field else field}"
        elif kind == "wholeSheet":
            range_ = sheet_name
        if keep_first:
            first_row = await sheet.get_data(f"{range_}!1:1", "FORMATTED_VALUE")
            await sheet.clear_data(range_)
            await sheet.update_rows(range_, first_row or [], "RAW", 1)
        else:
            await sheet.clear_data(range_)
    return list(items)


async def delete_dimension(ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, sheet_id: str) -> list[Item]:
    items = ctx.get_input_data()
    for index in range(len(items)):
        kind = ctx.get_node_parameter("toDelete", index, "rows")
        if kind == "rows":
            start = _number(ctx, "startIndex", index, 2) - 1
            dimension = "ROWS"
        else:
            start = column_number(str(ctx.get_node_parameter("startIndex", index, "A"))) - 1
            dimension = "COLUMNS"
        count = _number(ctx, "numberToDelete", index, 1)
        span = {"sheetId": sheet_id, "dimension": dimension, "startIndex": start, "endIndex": start + count}
        await sheet.batch_update_sheet([{"deleteDimension": {"range": span}}])
    # one item paired with every input item (n8n's wrapData + generatePairedItemData; recorded: s148)
    return [{"json": {"success": True}, "pairedItem": [{"item": i} for i in range(len(items))]}]


async def create_sheet(ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, sheet_id: str) -> list[Item]:
    out: list[Item] = []
    existing = [(s.get("properties") or {}).get("title") for s in await sheet.sheets()]
    for index in range(len(ctx.get_input_data())):
        title = ctx.get_node_parameter("title", index, "n8n-sheet")
        if title in existing:
            continue
        options = dict(ctx.get_node_parameter("options", index, {}) or {})
        properties: dict[str, Any] = {**options, "title": title}
        if options.get("tabColor"):
            rgb = hex_to_rgb(str(options["tabColor"])) or {}
            properties["tabColor"] = {k: rgb.get(k, 0) / 255 for k in ("red", "green", "blue")}
        answer = await sheet.request("POST", f"/v4/spreadsheets/{sheet_name}:batchUpdate",
                                     {"requests": [{"addSheet": {"properties": properties}}]})  # fmt: skip
        answer = dict(answer or {})
        added = answer.pop("replies")[0]["addSheet"]["properties"]
        existing.append(title)
        out.append({"json": {**answer, **added}, "pairedItem": {"item": index}})
    return out


async def remove_sheet(ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, sheet_id: str) -> list[Item]:
    out: list[Item] = []
    spreadsheet, within = sheet_name.split("||")[:2]
    for index in range(len(ctx.get_input_data())):
        body = {"requests": [{"deleteSheet": {"sheetId": within}}]}
        answer = dict(await sheet.request("POST", f"/v4/spreadsheets/{spreadsheet}:batchUpdate", body) or {})
        answer.pop("replies", None)
        out.append({"json": answer, "pairedItem": {"item": index}})
    return out


async def create_spreadsheet(ctx: ExecuteContext, api: ApiRequests) -> list[Item]:
    out: list[Item] = []
    for index in range(len(ctx.get_input_data())):
        title = ctx.get_node_parameter("title", index, "")
        sheets_ui = ctx.get_node_parameter("sheetsUi", index, {}) or {}
        options = dict(ctx.get_node_parameter("options", index, {}) or {})
        properties: dict[str, Any] = {"title": title}
        for key in ("autoRecalc", "locale"):
            if options.get(key):
                properties[key] = options[key]
        sheets = [{"properties": dict(p)} for p in sheets_ui.get("sheetValues") or []] if sheets_ui else []
        answer = await sheets_request(api, "POST", "/v4/spreadsheets", {"properties": properties, "sheets": sheets})
        out.append({"json": answer, "pairedItem": {"item": index}})
    return out


async def delete_spreadsheet(ctx: ExecuteContext, api: ApiRequests) -> list[Item]:
    out: list[Item] = []
    for index in range(len(ctx.get_input_data())):
        locator = ctx.get_node_parameter("documentId", index, "")
        document = ctx.get_node_parameter("documentId", index, "", extract_value=True)
        if isinstance(locator, dict) and locator.get("mode") == "url":
            match = _FILE_URL.search(str(document))
            document = match.group(1) if match else document
        url = f"https://www.googleapis.com/drive/v3/files/{document}"
        await sheets_request(api, "DELETE", "", None, None, url)
        out.append({"json": {"success": True}, "pairedItem": {"item": index}})
    return out


__all__ = ["clear", "create_sheet", "create_spreadsheet", "delete_dimension", "delete_spreadsheet", "remove_sheet"]
