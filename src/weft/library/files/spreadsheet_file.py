"""Spreadsheet File (``n8n-nodes-base.spreadsheetFile`` 1, 2), the legacy node Convert to File and Extract from
File replaced (recorded: cases n630-n632).

"Write to File" is Convert to File's spreadsheet writing (default name ``spreadsheet.<format>``). "Read From File"
in version 2 is Extract from File's reading (CSV by csv-parse when the format is CSV or detected as CSV); version 1
reads every format, CSV included, with SheetJS's reader, whose cells are typed (numbers and booleans from text).
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.files._convert_spreadsheet import spreadsheet_binary
from weft.library.files._spreadsheet_read import ReadError, from_file, workbook_rows
from weft.library.files.convert_to_file import all_paired, error_item
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.files.archive import limits_of
from weft.workflow import Item, NodeOutput


class SpreadsheetFile(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.spreadsheetFile",
        display_name="Spreadsheet File",
        versions=(1, 2),
        description="Reads and writes data from a spreadsheet file like CSV, XLS, ODS, etc",
        group=("transform",),
        defaults={"operation": "fromFile", "binaryPropertyName": "data", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        operation = ctx.get_node_parameter("operation", 0)
        version = float(ctx.node.typeVersion)
        if operation == "fromFile":
            if version >= 2:
                return [await from_file(ctx, items, "fileFormat", strict_csv=False)]
            return [await _read_v1(ctx, items)]
        if operation == "toFile":
            return [await _write(ctx, items)]
        message = f'The operation "{operation}" is not supported!'
        if ctx.continue_on_fail():
            return [[{"json": {"error": message}}]]
        raise NodeOperationError(ctx.node.name, message, description="Use 'fromFile' or 'toFile'.")


async def _write(ctx: ExecuteContext, items: list[Item]) -> list[Item]:
    paired = all_paired(len(items))
    try:
        prop = ctx.get_node_parameter("binaryPropertyName", 0)
        file_format = ctx.get_node_parameter("fileFormat", 0, "xls")
        options = ctx.get_node_parameter("options", 0, {})
        entry = await spreadsheet_binary(ctx, items, file_format, options, "spreadsheet")
    except NodeError as error:
        if ctx.continue_on_fail():
            return [error_item(error, paired)]
        raise
    return [{"json": {}, "binary": {prop: entry}, "pairedItem": paired}]


async def _rows_v1(ctx: ExecuteContext, index: int, options: dict[str, Any]) -> list[Any]:
    data = await ctx.get_binary_data_buffer(index, ctx.get_node_parameter("binaryPropertyName", index))
    try:
        return await workbook_rows(data, options, limits_of(ctx))
    except ReadError as error:
        raise NodeOperationError(ctx.node.name, error.message, item_index=index) from error


async def _read_v1(ctx: ExecuteContext, items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for index in range(len(items)):
        try:
            options = ctx.get_node_parameter("options", index, {})
            rows = await _rows_v1(ctx, index, options)
        except NodeError as error:
            if ctx.continue_on_fail():
                out.append(error_item(error, {"item": index}))
                continue
            raise
        header = options.get("headerRow") is not False
        out.extend({"json": row if header else {"row": row}, "pairedItem": {"item": index}} for row in rows)
    return out


__all__ = ["SpreadsheetFile"]
