"""Update Row and Append or Update Row (n8n's ``update.operation.ts`` and ``appendOrUpdate.operation.ts``, one
function here: they differ in what happens to an item whose key is not in the sheet)."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.sheets.data import ROW_NUMBER, cell_format_default
from weft.library.google.sheets.sheet import GoogleSheet
from weft.library.google.sheets.write import _EXTRA, _location, _updates_by_key, _updates_by_row_number, check_schema
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item

_MATCHING = {
    True: ("`columns.matchingColumns` is required for the Append or Update Row operation",
           "Set `columns.matchingColumns` to a non-empty `string[]` of header names that uniquely identify the row "
           "to update (e.g. `[\"id\"]` or `[\"email\"]`). If there is no key column to match on, use the `append` "
           "operation instead."),
    False: ("`columns.matchingColumns` is required for the Update Row operation",
            "Set `columns.matchingColumns` to a non-empty `string[]` of header names that uniquely identify the row "
            "to update (e.g. `[\"id\"]` or `[\"email\"]`)."),
}  # fmt: skip


def _match_on(ctx: ExecuteContext, version: float, upsert: bool) -> str:
    if version < 4:
        return str(ctx.get_node_parameter("columnToMatchOn", 0, ""))
    matching = ctx.get_node_parameter("columns.matchingColumns", 0, [])
    if not isinstance(matching, list) or not matching:
        message, description = _MATCHING[upsert]
        raise NodeOperationError(ctx.node.name, message, description=description)
    return str(matching[0])


def _item_values(ctx: ExecuteContext, index: int, key: str, version: float, columns: list[Any],
                 new: dict[str, None]) -> dict[str, Any]:  # fmt: skip
    """The values set below for item ``index`` (``columns.value``; ``fieldsUi.values`` in 3)."""
    if version < 4:
        matched = ctx.get_node_parameter("valueToMatchOn", index, "")
    else:
        matched = dict(ctx.get_node_parameter("columns.value", index, {}) or {}).get(key, "")
    if matched == "":
        raise NodeOperationError(ctx.node.name, "The 'Column to Match On' parameter is required", item_index=index)
    if version < 4:
        entries = ctx.get_node_parameter("fieldsUi.values", index, []) or []
        if not entries:
            raise NodeOperationError(ctx.node.name, "At least one value has to be added under 'Values to Send'")
        fields: dict[str, Any] = {}
        for entry in entries:
            column = entry.get("column", "")
            if column == "newColumn":
                column = entry.get("columnName", "")
                if column not in columns:
                    new[column] = None
            fields[column] = entry.get("fieldValue", "")
        fields[key] = matched
        return fields
    values = dict(ctx.get_node_parameter("columns.value", index, {}) or {})
    if not values:
        raise NodeOperationError(ctx.node.name, "At least one value has to be added under 'Values to Send'")
    if key == ROW_NUMBER and values.get(key) is None and version >= 4.6:
        raise NodeOperationError(ctx.node.name, "row_number is null or undefined", item_index=index,
                                 description="Since it's being used to determine the row to update, it cannot be "
                                 "null or undefined")  # fmt: skip
    return {k: "" if v is None else v for k, v in values.items()}


def _auto_values(ctx: ExecuteContext, item: Item, index: int, handling: str, columns: list[Any],
                 new: dict[str, None]) -> dict[str, Any]:  # fmt: skip
    for key in item["json"]:
        if handling == "error" and key not in columns:
            raise NodeOperationError(ctx.node.name, "Unexpected fields in node input", item_index=index,
                                     description=_EXTRA.format(key=key))  # fmt: skip
        if handling == "insertInNewColumn" and key not in columns and key != ROW_NUMBER:
            new[key] = None
    return dict(item["json"])


async def update(ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, sheet_id: str) -> list[Item]:
    return await _run(ctx, sheet, sheet_name, sheet_id, upsert=False)


async def append_or_update(ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, sheet_id: str) -> list[Item]:
    return await _run(ctx, sheet, sheet_name, sheet_id, upsert=True)


async def _write(
    sheet: GoogleSheet, sheet_id: str, options: dict[str, Any], updates: list[dict[str, Any]],
    appends: list[dict[str, Any]], range_: str, key_row: int, value_input: str, columns: list[Any], row_count: int,
) -> None:  # fmt: skip
    """The matched rows' cells in one ``values:batchUpdate``; the rest as new rows after the last one."""
    if updates:
        await sheet.batch_update(updates, value_input)
    if appends:
        use_append = bool(options.get("useAppend"))
        if not use_append:
            await sheet.append_empty_rows(sheet_id)
        await sheet.append_sheet_data(appends, range_, key_row + 1, value_input, column_names=[columns],
                                      last_row=row_count + 1, use_append=use_append)  # fmt: skip


async def _sheet_rows(
    ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, key_row: int, mode: str, upsert: bool
) -> tuple[list[list[Any]], str]:
    """The sheet's rows, and the data mode (an empty sheet is auto-mapped by Append or Update)."""
    rows = list(await sheet.get_data(sheet_name, "FORMATTED_VALUE") or [])
    if len(rows) <= key_row and (not upsert or mode != "autoMapInputData"):
        if not upsert or rows:
            raise NodeOperationError(ctx.node.name, f"Could not retrieve the column names from row {key_row + 1}")
        mode = "autoMapInputData"
    return rows, mode


async def _run(ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, sheet_id: str, *, upsert: bool) -> list[Item]:
    items = ctx.get_input_data()
    version = float(ctx.node.typeVersion)
    range_ = f"{sheet_name}!A:Z"
    options = dict(ctx.get_node_parameter("options", 0, {}) or {})
    value_input = options.get("cellFormat") or cell_format_default(version)
    location = _location(options)
    key_row = int(float(location["headerRow"])) - 1 if location.get("headerRow") else 0
    data_start = int(float(location["firstDataRow"])) - 1 if location.get("firstDataRow") else 1
    mode = str(ctx.get_node_parameter("dataMode" if version < 4 else "columns.mappingMode", 0, "defineBelow"))
    rows, mode = await _sheet_rows(ctx, sheet, sheet_name, key_row, mode, upsert)
    columns: list[Any] = list(rows[key_row]) if len(rows) > key_row else []
    if upsert and version >= 4.4:  # Append or Update checks the columns; Update does not (n8n, recorded: s146)
        check_schema(ctx.node.name, columns, ctx.get_node_parameter("columns.schema", 0, []))
    key = _match_on(ctx, version, upsert)
    key_index = columns.index(key) if key in columns else -1
    key_values = [row[key_index] if 0 <= key_index < len(row) else None for row in rows[data_start - 1 :]][1:]
    updates: list[dict[str, Any]] = []
    appends: list[dict[str, Any]] = []
    mapped: list[dict[str, Any]] = []
    new: dict[str, None] = {}
    for index, item in enumerate(items):
        if mode == "nothing":
            continue
        if mode == "autoMapInputData":
            handling = options.get("handlingExtraData") or "insertInNewColumn"
            values = _auto_values(ctx, item, index, handling, columns, new)
        else:
            values = _item_values(ctx, index, key, version, columns, new)
            if version >= 4:
                mapped.append(values)
        if new:
            columns = columns + list(new)
            await sheet.update_rows(sheet_name, [columns], options.get("cellFormat") or cell_format_default(version),
                                    key_row + 1)  # fmt: skip
            new.clear()
            if upsert:  # n8n's sheetData[keyRowIndex] = newColumnNames
                rows.extend([] for _ in range(key_row + 1 - len(rows)))
                rows[key_row] = columns
        if not upsert and key == ROW_NUMBER:
            updates.extend(_updates_by_row_number([values], range_, columns))
            continue
        found_updates, found_appends = _updates_by_key([values], key, range_, columns, key_values, data_start, upsert)
        updates.extend(found_updates)
        appends.extend(found_appends)
    await _write(sheet, sheet_id, options, updates, appends, range_, key_row, value_input, columns, len(rows))
    if version < 4 or mode == "autoMapInputData":
        return [{**item, "pairedItem": {"item": i}} for i, item in enumerate(items)]
    if not upsert and not updates:
        return []
    return [{"json": entry, "pairedItem": {"item": i}} for i, entry in enumerate(mapped)]


__all__ = ["append_or_update", "update"]
