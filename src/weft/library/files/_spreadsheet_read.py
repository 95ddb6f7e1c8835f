"""Spreadsheet File 2's "Read From File" (n8n's ``fromFile.operation``), which Extract from File's CSV, HTML, ODS,
RTF, XLS and XLSX operations run too: rows of a CSV file (csv-parse, streamed) or of a workbook's sheet (SheetJS's
``sheet_to_json``), one output item per row, paired with its file's item."""

from __future__ import annotations

import asyncio
import codecs
from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.files._convert_encoding import python_codec
from weft.library.files._extract_csv import CsvError, CsvOptions, CsvParser
from weft.library.files._extract_readers import UnreadableSpreadsheet, read_workbook
from weft.library.files._extract_sheet import Workbook, sheet_to_json
from weft.nodes.contract import ExecuteContext
from weft.nodes.files.archive import CompressionLimits, limits_of
from weft.workflow import Item


class ReadError(Exception):
    def __init__(self, message: str, description: str | None = None) -> None:
        super().__init__(message)
        self.message, self.description = message, description


def _positive(name: str, value: Any, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int | float) or not float(value).is_integer():
        raise ReadError(f"Invalid Option: {name} must be an integer, got {value!r}")
    if value <= 0:
        raise ReadError(f"Invalid Option: {name} must be a positive integer greater than 0, got {int(value)}")
    return int(value)


def csv_options(options: dict[str, Any]) -> CsvOptions:
    """csv-parse's options from the node's, as n8n maps them."""
    max_rows = options.get("maxRowCount")
    skip = ((options.get("skipRecordsWithErrors") or {}).get("value") or {}).get("enabled")
    delimiter = options.get("delimiter")
    return CsvOptions(
        delimiter=delimiter if isinstance(delimiter, str) and delimiter else ",",
        from_line=_positive("from_line", options.get("fromLine"), 1),
        to=_positive("to", max_rows, -1) if isinstance(max_rows, int | float) and max_rows > -1 else -1,
        columns=options.get("headerRow") is not False,
        relax_quotes=bool(options.get("relaxQuotes")),
        skip_empty_lines=True,
        skip_records_with_error=bool(skip),
    )


async def _csv_rows(ctx: ExecuteContext, entry: dict[str, Any], options: dict[str, Any], strict: bool) -> list[Any]:
    parser = CsvParser(csv_options(options))
    codec = python_codec(ctx.node.name, str(options.get("encoding") or "utf8"))
    decoder = codecs.getincrementaldecoder(codec)("replace")
    rows: list[Any] = []
    first = True
    stream = ctx.get_binary_stream(entry)
    try:
        async for chunk in stream:
            text = decoder.decode(chunk)
            if first and text:
                first = False
                if options.get("enableBOM") and text.startswith("\ufeff"):
                    text = text[1:]
            rows.extend(await asyncio.to_thread(list, parser.feed(text)))
            if parser.stopped:  # "Max Rows": the rest of the file is not read
                break
        rows.extend(parser.end())
    except CsvError:
        if strict:
            raise
        rows.extend(parser.take())  # version 1 with inline bytes: n8n keeps the rows before the error
    finally:
        close = getattr(stream, "aclose", None)
        if close is not None:
            await close()
    _check_skipped(options, parser.skipped)
    return [_without_empty(row, options) for row in rows]


def _check_skipped(options: dict[str, Any], skipped: int) -> None:
    value = (options.get("skipRecordsWithErrors") or {}).get("value") or {}
    limit = value.get("maxSkippedRecords", -1)
    if value.get("enabled") and isinstance(limit, int | float) and 0 < limit < skipped:
        raise ReadError("Max number of skipped records exceeded")


def _without_empty(row: Any, options: dict[str, Any]) -> Any:
    if options.get("includeEmptyCells"):
        return row
    pairs = row.items() if isinstance(row, dict) else ((str(i), v) for i, v in enumerate(row))
    return {k: v for k, v in pairs if v != ""}


def pick_sheet(workbook: Workbook, options: dict[str, Any]) -> str:
    if not workbook.names:
        raise ReadError("Spreadsheet does not have any sheets!")
    name = options.get("sheetName")
    if name:
        if name not in workbook.sheets:
            raise ReadError(f'Spreadsheet does not contain sheet called "{name}"!')
        return str(name)
    return workbook.names[0]


def sheet_range(options: dict[str, Any]) -> Any:
    value = options.get("range")
    if not value:
        return None
    text = str(value).strip()
    try:
        return int(float(text))
    except ValueError:
        return text


async def workbook_rows(data: bytes, options: dict[str, Any], limits: CompressionLimits | None = None) -> list[Any]:
    """The rows of the chosen sheet of the workbook in ``data`` (read off the event loop; a zip within ``limits``)."""
    try:
        workbook = await asyncio.to_thread(read_workbook, data, raw=bool(options.get("rawData")), limits=limits)
    except UnreadableSpreadsheet as error:
        raise ReadError(str(error)) from error
    except Exception as error:  # a corrupt file: openpyxl's, xlrd's or zipfile's words, at the libraries' edge
        raise ReadError(f"Could not read the spreadsheet: {error}") from error
    grid = workbook.sheets[pick_sheet(workbook, options)]
    return sheet_to_json(
        grid,
        range_=sheet_range(options),
        header_row=options.get("headerRow") is not False,
        include_empty=bool(options.get("includeEmptyCells")),
    )


async def sheet_rows(ctx: ExecuteContext, entry: dict[str, Any], options: dict[str, Any]) -> list[Any]:
    """The rows of a binary entry's workbook."""
    return await workbook_rows(await ctx.binary_bytes(entry), options, limits_of(ctx))


async def read_rows(
    ctx: ExecuteContext, index: int, file_format: str, options: dict[str, Any], strict: bool
) -> list[Any]:
    """The rows of input item ``index``'s file, as ``fromFile`` reads them."""
    entry = ctx.assert_binary_data(index, ctx.get_node_parameter("binaryPropertyName", index))
    if file_format == "csv":
        return await _csv_rows(ctx, entry, options, strict or "id" in entry)
    return await sheet_rows(ctx, entry, options)


_CSV_ONLY = ("delimiter", "encoding", "fromLine", "maxRowCount", "enableBOM", "relaxQuotes", "skipRecordsWithErrors")
_SHOWN_FOR = {
    **{name: ("csv",) for name in _CSV_ONLY},
    "sheetName": ("ods", "xls", "xlsx"),
    "range": ("ods", "xls", "xlsx"),
    "includeEmptyCells": ("ods", "xls", "xlsx", "csv", "html"),
    "headerRow": ("ods", "xls", "xlsx", "csv", "html"),
}


def visible_options(options: dict[str, Any], format_parameter: str, chosen: str) -> dict[str, Any]:
    """The options n8n passes on: it drops those its display rules hide for the chosen operation (Extract from
    File) or file format (Spreadsheet File 2, where the CSV options need the format set to CSV, not detected)."""
    if format_parameter == "operation":
        return {k: v for k, v in options.items() if chosen in _SHOWN_FOR.get(k, (chosen,))}
    return {k: v for k, v in options.items() if k not in _CSV_ONLY or chosen == "csv"}


def _format_of(entry: dict[str, Any] | None, file_format: str) -> str:
    if file_format == "autodetect" and entry is not None:
        mime, ext = entry.get("mimeType"), entry.get("fileExtension")
        if mime == "text/csv" or (mime == "text/plain" and ext == "csv"):
            return "csv"
    return file_format


async def from_file(ctx: ExecuteContext, items: list[Item], format_parameter: str, *, strict_csv: bool) -> list[Item]:
    """Every input file's rows as items (``{row: [...]}`` when the header row is off)."""
    out: list[Item] = []
    extension: str | None = None
    for index in range(len(items)):
        file_format = ""
        try:
            file_format = ctx.get_node_parameter(format_parameter, index, "autodetect")
            options = visible_options(ctx.get_node_parameter("options", index, {}), format_parameter, file_format)
            entry = ctx.assert_binary_data(index, ctx.get_node_parameter("binaryPropertyName", index))
            extension = entry.get("fileExtension")
            file_format = _format_of(entry, file_format)
            rows = await read_rows(ctx, index, file_format, options, strict_csv)
        except (NodeError, ReadError, CsvError) as error:
            failed = _failure(ctx, error, index, extension, file_format)
            if ctx.continue_on_fail():
                out.append({"json": {"error": failed.message}, "pairedItem": {"item": index}})
                continue
            raise failed from error
        header = options.get("headerRow") is not False
        out.extend({"json": row if header else {"row": row}, "pairedItem": {"item": index}} for row in rows)
    return out


def _failure(
    ctx: ExecuteContext, error: Exception, index: int, extension: str | None, file_format: str
) -> NodeOperationError:
    message = getattr(error, "message", str(error))
    description = getattr(error, "description", None)
    if extension and extension != file_format:
        message = f"The file selected in 'Input Binary Field' is not in {file_format} format"
        description = f"Try to change the operation or select a {file_format} file in 'Input Binary Field'"
    return NodeOperationError(ctx.node.name, message, description=description, item_index=index)


__all__ = [
    "ReadError",
    "csv_options",
    "from_file",
    "pick_sheet",
    "read_rows",
    "sheet_range",
    "sheet_rows",
    "visible_options",
]
