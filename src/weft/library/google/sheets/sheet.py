"""One spreadsheet's API calls and data shaping (n8n's ``v2/helpers/GoogleSheet.ts``): values read and written by
A1 range, sheets found by name or id, rows turned into items and items into rows."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from weft.errors import NodeOperationError
from weft.library.google._common import google_request
from weft.library.google.sheets.data import column_letters, column_number, remove_empty_columns
from weft.nodes.api import ApiRequests

BASE = "https://sheets.googleapis.com"
ROW_NUMBER = "row_number"


def encode_range(range_: str) -> str:
    """n8n's ``encodeRange``: the sheet name percent-encoded; a bare name quoted so it is not read as a range."""
    if "!" in range_:
        sheet, cells = range_.split("!")[:2]
        return f"{uri_component(sheet)}!{cells}"
    return uri_component(f"'{range_}'")


def uri_component(text: str) -> str:
    return quote(text, safe="-_.!~*'()")


@dataclass
class Decoded:
    name: str
    start_column: str = ""
    start_row: int = 0
    end_column: str = ""
    end_row: int = 0


def js_text(value: Any) -> str:
    """JavaScript ``String(value)`` of a cell or an item's value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict):
        return "[object Object]"
    if isinstance(value, list):
        return ",".join("" if v is None else js_text(v) for v in value)
    return str(value)


@dataclass
class GoogleSheet:
    """n8n's ``GoogleSheet``: the spreadsheet ``id`` and the node run's API requests."""

    id: str
    api: ApiRequests
    oauth2_type: str = "googleSheetsOAuth2Api"
    column_names_hint: list[Any] | None = field(default=None)

    @property
    def node_name(self) -> str:
        return self.api.ctx.node.name

    async def request(
        self, method: str, path: str, body: dict[str, Any] | None = None, qs: dict[str, Any] | None = None,
        url: str | None = None,
    ) -> Any:  # fmt: skip
        """n8n's ``apiRequest`` (transport/index.ts) for this node."""
        return await sheets_request(self.api, method, path, body, qs, url, self.oauth2_type)

    async def clear_data(self, range_: str) -> Any:
        body = {"spreadsheetId": self.id, "range": range_}
        return await self.request("POST", f"/v4/spreadsheets/{self.id}/values/{encode_range(range_)}:clear", body)

    async def get_data(self, range_: str, value_render: str, date_render: str | None = None) -> Any:
        qs = {"valueRenderOption": value_render, "dateTimeRenderOption": date_render or "FORMATTED_STRING"}
        answer = await self.request("GET", f"/v4/spreadsheets/{self.id}/values/{encode_range(range_)}", None, qs)
        return answer.get("values") if isinstance(answer, dict) else None

    async def sheets(self) -> list[dict[str, Any]]:
        answer = await self.request("GET", f"/v4/spreadsheets/{self.id}", None, {"fields": "sheets.properties"})
        return list((answer or {}).get("sheets") or [])

    async def get_sheet(self, mode: str, value: Any) -> dict[str, Any]:
        """n8n's ``spreadsheetGetSheet``: the properties of the sheet named, or of the id given."""
        for sheet in await self.sheets():
            properties = sheet.get("properties") or {}
            if (properties.get("title") == value) if mode == "name" else properties.get("sheetId") == sheet_id(value):
                if properties.get("title"):
                    return dict(properties)
        raise NodeOperationError(
            self.node_name,
            f"Sheet with {'name' if mode == 'name' else 'ID'} {js_text(value)} not found",
            description="Check the 'Sheet' parameter: pick the sheet from the list, or give an existing name or ID.",
        )

    async def batch_update_sheet(self, requests: list[dict[str, Any]]) -> Any:
        return await self.request("POST", f"/v4/spreadsheets/{self.id}:batchUpdate", {"requests": requests})

    async def batch_update(self, data: list[dict[str, Any]], value_input: str) -> Any:
        body = {"data": data, "valueInputOption": value_input}
        return await self.request("POST", f"/v4/spreadsheets/{self.id}/values:batchUpdate", body)

    async def append_empty_rows(self, sheet: Any, rows: int = 1) -> Any:
        request = {"appendDimension": {"sheetId": sheet, "dimension": "ROWS", "length": rows}}
        return await self.batch_update_sheet([request])

    async def update_rows(
        self, sheet_name: str, data: list[list[Any]], value_input: str, row: int, rows: int = 0,
        use_append: bool = False,
    ) -> Any:  # fmt: skip
        name = sheet_name.split("!")[0]
        range_ = f"{name}!{row}:{row + rows - 1 if rows else row}"
        path = f"/v4/spreadsheets/{self.id}/values/{encode_range(range_)}"
        body = {"range": range_, "values": data}
        if use_append:
            return await self.request("POST", path + ":append", body, {"valueInputOption": value_input})
        return await self.request("PUT", path, body, {"valueInputOption": value_input})

    async def append_sheet_data(
        self, input_data: list[dict[str, Any]], range_: str, key_row: int, value_input: str, *,
        column_names: list[list[Any]] | None = None, last_row: int | None = None, use_append: bool = False,
    ) -> Any:  # fmt: skip
        data = await self.to_rows(input_data, range_, key_row, column_names, None if use_append else "")
        if not last_row:
            last_row = len(await self.get_data(range_, "UNFORMATTED_VALUE") or []) + 1
        return await self.update_rows(range_, data, value_input, last_row, len(data), use_append)

    async def to_rows(
        self, items: list[dict[str, Any]], range_: str, key_row: int, column_names: list[list[Any]] | None,
        empty: Any = "",
    ) -> list[list[Any]]:  # fmt: skip
        """n8n's ``convertObjectArrayToSheetDataArray``: each item as a row in the key row's column order."""
        names_row = column_names or ([self.column_names_hint] if self.column_names_hint is not None else None)
        if names_row is None:
            names_row = await self.get_data(f"{decode_range(range_).name}!{key_row}:{key_row}", "UNFORMATTED_VALUE")
        self.column_names_hint = None
        if names_row is None:
            raise NodeOperationError(self.node_name, "Could not retrieve the column data")
        names = names_row[0] if names_row else []
        rows = []
        for item in items:
            row = []
            for key in names:
                value = item.get(js_text(key))
                row.append(empty if value is None else json.dumps(value, separators=(",", ":"))
                           if isinstance(value, dict | list) else value)  # fmt: skip
            rows.append(row)
        return rows


async def sheets_request(
    api: ApiRequests, method: str, path: str, body: dict[str, Any] | None = None, qs: dict[str, Any] | None = None,
    url: str | None = None, oauth2_type: str = "googleSheetsOAuth2Api",
) -> Any:  # fmt: skip
    options: dict[str, Any] = {"method": method, "url": url or f"{BASE}{path}", "qs": qs or {}, "json": True,
                               "headers": {"Content-Type": "application/json"}}  # fmt: skip
    if body:
        options["body"] = body
    return await google_request(api, options, oauth2_type=oauth2_type, service="sheetV2")


def sheet_id(value: Any) -> int | None:
    """n8n's ``getSheetId``: ``gid=0`` is 0, else ``parseInt`` (``None`` for NaN)."""
    if value == "gid=0":
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    match = re.match(r"^\s*([+-]?\d+)", str(value))
    return int(match.group(1)) if match else None


def decode_range(text: str) -> Decoded:
    """n8n's ``getDecodedSheetRange``: the sheet name and the start and end cells of ``Name!A1:B2``."""
    name, _, cells = text.partition("!")
    decoded = Decoded(name=name)
    if cells:
        start, _, end = cells.partition(":")
        if start:
            decoded.start_column, decoded.start_row = _cell(start)
        if end:
            decoded.end_column, decoded.end_row = _cell(end)
    return decoded


def _cell(cell: str) -> tuple[str, int]:
    match = re.search(r"([a-zA-Z]{1,10})([0-9]{0,10})", cell)
    if not match:
        return "", 0
    return match.group(1), int(match.group(2) or 0)


def column_with_offset(start: str, offset: int) -> str:
    return column_letters(column_number(start.upper()) + offset)


def structure_by_column(
    rows: list[list[Any]], key_row: int, data_start: int, include_headers_with_empty_cells: bool = False
) -> list[dict[str, Any]]:
    """n8n's ``structureArrayDataByColumn``: the rows after ``data_start`` as objects keyed by the key row."""
    if key_row < 0 or data_start < key_row or key_row >= len(rows):
        return []
    longest = max((len(r) for r in rows), default=0)
    header = rows[key_row]
    keys = [_key(header[i] if i < len(header) else None, i) for i in range(longest)]
    return rows_to_objects(rows, data_start, keys, False, include_headers_with_empty_cells)


def _key(value: Any, index: int) -> str:
    return js_text(value) if value not in (None, "", 0, False) else f"col_{index}"


def rows_to_objects(
    rows: list[list[Any]], start: int, keys: list[Any], add_empty: bool, all_keys: bool = False
) -> list[dict[str, Any]]:
    """n8n's ``convertSheetDataArrayToObjectArray``."""
    out = []
    for row in rows[start:]:
        item: dict[str, Any] = {}
        for column in range(len(keys) if all_keys else len(row)):
            key = keys[column] if column < len(keys) else None
            if key not in (None, "", 0, False):
                value = row[column] if column < len(row) else None
                item[js_text(key)] = "" if value is None else value
        if item or add_empty:
            out.append(item)
    return out


def lookup_values(
    node_name: str, rows: list[list[Any]], key_row: int, data_start: int, lookups: list[dict[str, Any]],
    return_all: bool, version: float, combine: str = "OR",
) -> list[dict[str, Any]]:  # fmt: skip
    """n8n's ``lookupValues``: the rows whose columns match the filters (any, or all with ``AND``)."""
    if key_row < 0 or data_start < key_row or key_row >= len(rows):
        raise NodeOperationError(node_name, "The key row does not exist")
    keys = [_key(v, i) for i, v in enumerate(rows[key_row])]
    rows = [list(r) + [""] * (len(keys) - len(r)) if len(r) < len(keys) else list(r) for r in rows]
    columns = [_lookup_column(node_name, keys, lookup) for lookup in lookups] if combine == "OR" else []
    if combine == "OR":
        numbers = _any_match(rows, data_start, lookups, columns, return_all, version)
    else:
        numbers = _all_match(node_name, keys, rows, data_start, lookups, return_all)
    found = [keys, *(rows[n] for n in dict.fromkeys(numbers))]
    cleaned = remove_empty_columns(found)
    return rows_to_objects(cleaned, 1, cleaned[0] if cleaned else [], True)


def _lookup_column(node_name: str, keys: list[str], lookup: dict[str, Any]) -> int:
    name = lookup.get("lookupColumn")
    if name not in keys:
        raise NodeOperationError(node_name, f'The column "{js_text(name)}" could not be found')
    return keys.index(str(name))


def _matches(row: list[Any], index: int, lookup: dict[str, Any]) -> bool:
    cell, wanted = (row[index] if index < len(row) else None), lookup.get("lookupValue")
    if cell is None or wanted is None:
        return cell is None and wanted is None
    return js_text(cell) == js_text(wanted)


def _any_match(
    rows: list[list[Any]], data_start: int, lookups: list[dict[str, Any]], columns: list[int], return_all: bool,
    version: float,
) -> list[int]:  # fmt: skip
    """OR: each filter's matching rows (its first only, unless ``return_all``; from 4.6 only the first filter's)."""
    numbers: list[int] = []
    for lookup, index in zip(lookups, columns, strict=True):
        first = next((n for n in range(data_start, len(rows)) if _matches(rows[n], index, lookup)), None)
        if return_all:
            numbers.extend(n for n in range(data_start, len(rows)) if _matches(rows[n], index, lookup))
        elif first is not None:
            numbers.append(first)
            if version >= 4.6:
                break
    return numbers


def _all_match(
    node_name: str, keys: list[str], rows: list[list[Any]], data_start: int, lookups: list[dict[str, Any]],
    return_all: bool,
) -> list[int]:  # fmt: skip
    """AND: the rows matching every filter (the first only, unless ``return_all``)."""
    numbers: list[int] = []
    for number in range(data_start, len(rows)):
        if all(_matches(rows[number], _lookup_column(node_name, keys, lookup), lookup) for lookup in lookups):
            numbers.append(number)
            if not return_all:
                break
    return numbers


__all__ = [
    "ROW_NUMBER",
    "GoogleSheet",
    "column_with_offset",
    "decode_range",
    "encode_range",
    "js_text",
    "lookup_values",
    "rows_to_objects",
    "sheet_id",
    "sheets_request",
    "structure_by_column",
]
