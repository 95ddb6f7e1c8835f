"""n8n's ``convertJsonToSpreadsheetBinary``: all input items as one spreadsheet file (Convert to File's CSV, HTML,
RTF, ODS, XLS and XLSX operations, and Spreadsheet File's "Write to File")."""

from __future__ import annotations

import asyncio
from typing import Any

from weft.library.files._convert_sheet import flatten_object, json_to_sheet, write_csv, write_html, write_rtf
from weft.library.files._convert_xlsx import write_ods, write_xls, write_xlsx
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item

#: The formats SheetJS writes here.
SPREADSHEET_FORMATS = ("csv", "html", "rtf", "ods", "xls", "xlsx")


def _render(node_name: str, items: list[Item], file_format: str, options: dict[str, Any]) -> bytes:
    sheet = json_to_sheet(
        [flatten_object(item["json"]) for item in items], header_row=options.get("headerRow") is not False
    )
    sheet_name = options.get("sheetName") or "Sheet"
    if file_format == "csv":
        delimiter = options.get("delimiter")
        return write_csv(sheet, delimiter if isinstance(delimiter, str) and delimiter else ",")
    if file_format == "html":
        return write_html(sheet)
    if file_format == "rtf":
        return write_rtf(sheet)
    if file_format == "xlsx":
        return write_xlsx(sheet, sheet_name, compression=bool(options.get("compression")))
    if file_format == "ods":
        return write_ods(sheet, sheet_name, compression=bool(options.get("compression")))
    if file_format == "xls":
        return write_xls(sheet, sheet_name)
    from weft.errors import NodeOperationError

    raise NodeOperationError(
        node_name,
        f"Unsupported file format {file_format!r}",
        description=f"Choose one of {', '.join(SPREADSHEET_FORMATS)}.",
    )


async def spreadsheet_binary(
    ctx: ExecuteContext, items: list[Item], file_format: str, options: dict[str, Any], default_name: str
) -> dict[str, Any]:
    """The binary entry of the spreadsheet file holding ``items`` (rendered off the event loop)."""
    data = await asyncio.to_thread(_render, ctx.node.name, items, file_format, options)
    file_name = options["fileName"] if "fileName" in options else f"{default_name}.{file_format}"
    return await ctx.prepare_binary_data(data, file_name or None)


__all__ = ["SPREADSHEET_FORMATS", "spreadsheet_binary"]
