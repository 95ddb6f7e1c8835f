"""Append Row, Update Row and Append or Update Row (n8n's ``append``, ``update`` and ``appendOrUpdate``
operations): items mapped to the sheet's columns (``autoMapInputData``, new columns added unless
``handlingExtraData`` says otherwise) or the columns' values set below (``columns.value``; ``fieldsUi`` in 3),
rows matched on a column (or ``row_number``) and written with ``values:batchUpdate``, new rows written after the
last one (or with the API's ``:append`` when ``useAppend``)."""

from __future__ import annotations

import json
from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.sheets.data import ROW_NUMBER, cell_format_default
from weft.library.google.sheets.sheet import GoogleSheet, column_with_offset, decode_range, js_text
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item

_EXTRA = (
    "The input field '{key}' doesn't match any column in the Sheet. You can ignore this by changing the "
    "'Handling extra data' field, which you can find under 'Options'."
)


def _mode(ctx: ExecuteContext, version: float) -> str:
    if version < 4:
        return str(ctx.get_node_parameter("dataMode", 0, "defineBelow"))
    return str(ctx.get_node_parameter("columns.mappingMode", 0, "defineBelow"))


def _location(options: dict[str, Any]) -> dict[str, Any]:
    entry = options.get("locationDefine")
    values = entry.get("values") if isinstance(entry, dict) else None
    return dict(values) if isinstance(values, dict) else {}


def check_schema(node: str, columns: list[Any], schema: Any) -> None:
    """n8n's ``checkForSchemaChanges``: every column the node was set up with must still be in the sheet."""
    live = {js_text(c) for c in columns if c != ""}
    ids = [str(s.get("id")) for s in schema or [] if isinstance(s, dict)]
    wanted = ids if ROW_NUMBER in live else [i for i in ids if i != ROW_NUMBER]
    missing = [i for i in wanted if i not in live]
    if missing:
        raise NodeOperationError(
            node,
            "Column names were updated after the node's setup",
            description="Refresh the columns list in the 'Column to Match On' parameter. Missing columns: "
            + ", ".join(missing),
        )


def map_fields(ctx: ExecuteContext, count: int, version: float) -> list[dict[str, Any]]:
    """n8n's ``mapFields``: each item's values set below."""
    out = []
    for index in range(count):
        if version < 4:
            fields = ctx.get_node_parameter("fieldsUi.fieldValues", index, []) or []
            out.append({str(f.get("fieldId", "")): f.get("fieldValue", "") for f in fields})
            continue
        values = ctx.get_node_parameter("columns.value", index, {}) or {}
        if not values:
            raise NodeOperationError(ctx.node.name, "At least one value has to be added under 'Values to Send'")
        out.append(dict(values))
    return out


async def auto_map(
    ctx: ExecuteContext, range_: str, sheet: GoogleSheet, items: list[Item], options: dict[str, Any],
    columns: list[Any] | None,
) -> list[dict[str, Any]]:  # fmt: skip
    """n8n's ``autoMapInputData``: the items' JSON, the header row extended with their new fields."""
    name = range_.split("!")[0]
    handling = options.get("handlingExtraData") or "insertInNewColumn"
    header = int(float(_location(options).get("headerRow") or 1))
    if columns is None:
        answer = await sheet.get_data(f"{name}!{header}:{header}", "FORMATTED_VALUE")
        columns = list(answer[0]) if answer else []
    out: list[dict[str, Any]] = []
    cell_format = options.get("cellFormat") or "RAW"
    if handling == "insertInNewColumn":
        if not columns:
            first = [k for k in items[0]["json"] if k != ROW_NUMBER]
            await sheet.update_rows(name, [first], cell_format, header)
            columns = list(items[0]["json"])
        new = [k for item in items for k in item["json"] if k != ROW_NUMBER and k not in columns]
        for item in items:
            json_ = dict(item["json"])
            if json_.get(ROW_NUMBER):
                json_.pop(ROW_NUMBER)
            out.append(json_)
        if new:
            columns = columns + list(dict.fromkeys(new))
            await sheet.update_rows(name, [columns], cell_format, header)
    elif handling == "ignoreIt":
        out = [dict(item["json"]) for item in items]
    elif handling == "error":
        for index, item in enumerate(items):
            for key in item["json"]:
                if key not in columns:
                    raise NodeOperationError(ctx.node.name, "Unexpected fields in node input", item_index=index,
                                             description=_EXTRA.format(key=key))  # fmt: skip
            out.append(dict(item["json"]))
    hint = [c for c in columns if c != ROW_NUMBER]
    if hint:
        sheet.column_names_hint = hint
    return out


async def append(ctx: ExecuteContext, sheet: GoogleSheet, range_: str, sheet_id: str) -> list[Item]:
    items = ctx.get_input_data()
    version = float(ctx.node.typeVersion)
    mode = _mode(ctx, version)
    if not items or mode == "nothing":
        return []
    options = dict(ctx.get_node_parameter("options", 0, {}) or {})
    key_row = int(float(_location(options).get("headerRow") or 1))
    rows = await sheet.get_data(range_, "FORMATTED_VALUE")
    if not rows:
        mode = "autoMapInputData"
    header = rows[key_row - 1] if rows and len(rows) >= key_row else None
    if version >= 4.4 and mode != "autoMapInputData":
        if header is None:
            raise NodeOperationError(ctx.node.name, f"Could not retrieve the column names from row {key_row}")
        check_schema(ctx.node.name, header, ctx.get_node_parameter("columns.schema", 0, []))
    if mode == "autoMapInputData":
        data = await auto_map(ctx, range_, sheet, items, options, list(header) if header else None)
    else:
        data = map_fields(ctx, len(items), version)
        if header:
            sheet.column_names_hint = list(header)
    if not data:
        return []
    value_input = options.get("cellFormat") or cell_format_default(version)
    if options.get("useAppend"):
        await sheet.append_sheet_data(data, range_, key_row, value_input, use_append=True)
    else:
        await sheet.append_empty_rows(sheet_id)
        await sheet.append_sheet_data(data, range_, key_row, value_input, last_row=len(rows or [{}]) + 1)
    if version < 4 or mode == "autoMapInputData":
        return [{**item, "pairedItem": {"item": i}} for i, item in enumerate(items)]
    return [{"json": entry, "pairedItem": {"item": i}} for i, entry in enumerate(data)]


def _cell_value(value: Any) -> Any:
    return json.dumps(value, separators=(",", ":")) if isinstance(value, dict | list) else value


def _updates_by_key(
    items: list[dict[str, Any]], key: str, range_: str, columns: list[Any], key_values: list[Any], data_start: int,
    upsert: bool,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:  # fmt: skip
    """n8n's ``prepareDataForUpdateOrUpsert`` once the key row and the key column's values are known."""
    decoded = decode_range(range_)
    updates: list[dict[str, Any]] = []
    appends: list[dict[str, Any]] = []
    texts = [None if v is None else js_text(v) for v in key_values]
    for item in items:
        wanted = item.get(key)
        found = texts.index(js_text(wanted)) if wanted is not None and js_text(wanted) in texts else -1
        if found == -1:
            if upsert:
                appends.append(item)
            continue
        row = found + data_start + 1
        for name in columns:
            if name == key or item.get(js_text(name)) is None:
                continue
            column = column_with_offset(decoded.start_column or "A", columns.index(name))
            updates.append({"range": f"{decoded.name}!{column}{row}", "values": [[_cell_value(item[js_text(name)])]]})
    return updates, appends


def _updates_by_row_number(items: list[dict[str, Any]], range_: str, columns: list[Any]) -> list[dict[str, Any]]:
    """n8n's ``prepareDataForUpdatingByRowNumber``."""
    decoded = decode_range(range_)
    updates = []
    for item in items:
        for name in columns:
            if name == ROW_NUMBER or item.get(js_text(name)) is None:
                continue
            column = column_with_offset(decoded.start_column or "A", columns.index(name))
            row = js_text(item.get(ROW_NUMBER))
            updates.append({"range": f"{decoded.name}!{column}{row}", "values": [[_cell_value(item[js_text(name)])]]})
    return updates


__all__ = ["append", "auto_map", "check_schema", "map_fields"]
