"""Convert to File (``n8n-nodes-base.convertToFile`` 1, 1.1): items to a file (recorded: cases n600-n606, n615,
n616).

``csv``/``html``/``rtf``/``ods``/``xls``/``xlsx`` write every item into one spreadsheet (paired with all of them);
``toJson`` writes all items into one JSON file or one file per item; ``toText`` writes a string field (an object
field as JSON); ``toBinary`` decodes a base64 field (version 1 may take it as text instead); ``iCal`` writes one
event file per item (:mod:`._convert_ical`). CSV, HTML, RTF, JSON and
text files are n8n's bytes exactly; XLSX and ODS hold the same cells (see :mod:`._convert_xlsx`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.files._convert_encoding import BOM_ENCODINGS
from weft.library.files._convert_ical import ical_files
from weft.library.files._convert_spreadsheet import SPREADSHEET_FORMATS, spreadsheet_binary
from weft.library.files._convert_text import JsonToBinary, create_binary_from_json
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput, PairedItem


def bom_shown(options: dict[str, Any]) -> bool:
    """``addBOM``, which n8n only passes on when ``encoding`` is set to utf8, cesu8 or ucs2 (its display rule)."""
    return bool(options.get("addBOM")) and options.get("encoding") in BOM_ENCODINGS


def all_paired(count: int) -> list[PairedItem]:
    """n8n's ``generatePairedItemData``: one output item paired with every input item."""
    return [{"item": index} for index in range(count)]


def error_item(error: Exception, paired: Any) -> Item:
    return {"json": {"error": getattr(error, "message", str(error))}, "pairedItem": paired}


class ConvertToFile(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.convertToFile",
        display_name="Convert to File",
        versions=(1, 1.1),
        description="Convert JSON data to binary data",
        group=("input",),
        defaults={
            "operation": "csv",
            "binaryPropertyName": "data",
            "options": {},
            "mode": "once",
            "sourceProperty": "",
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        operation = ctx.get_node_parameter("operation", 0)
        if operation in SPREADSHEET_FORMATS:
            return [await _spreadsheet(ctx, items, operation)]
        if operation == "toJson":
            return [await _to_json(ctx, items)]
        if operation in ("toText", "toBinary"):
            return [await _per_item(ctx, items, operation)]
        if operation == "iCal":
            return [await ical_files(ctx, items)]
        raise NodeOperationError(
            ctx.node.name,
            f"The operation {operation!r} is not supported",
            description="Pick one of csv, html, iCal, ods, rtf, xlsx, toJson, toText or toBinary.",
        )


async def _spreadsheet(ctx: ExecuteContext, items: list[Item], file_format: str) -> list[Item]:
    paired = all_paired(len(items))
    try:
        options = ctx.get_node_parameter("options", 0, {})
        prop = ctx.get_node_parameter("binaryPropertyName", 0, "data")
        entry = await spreadsheet_binary(ctx, items, file_format, options, "File")
    except NodeError as error:
        if ctx.continue_on_fail():
            return [error_item(error, paired)]
        raise NodeOperationError(ctx.node.name, error.message, description=error.description) from error
    return [{"json": {}, "binary": {prop: entry}, "pairedItem": paired}]


async def _to_json(ctx: ExecuteContext, items: list[Item]) -> list[Item]:
    if ctx.get_node_parameter("mode", 0, "once") == "once":
        # n8n throws even when it continues on fail here (its catch pushes the error item, then throws)
        options = ctx.get_node_parameter("options", 0, {})
        prop = ctx.get_node_parameter("binaryPropertyName", 0, "data")
        entry = await create_binary_from_json(ctx, [item["json"] for item in items], _json_options(options, 0))
        return [{"json": {}, "binary": {prop: entry}, "pairedItem": all_paired(len(items))}]
    return await _per_item(ctx, items, "toJson")


def _json_options(options: dict[str, Any], index: int) -> JsonToBinary:
    return JsonToBinary(
        file_name=options.get("fileName"),
        mime_type="application/json",
        encoding=options.get("encoding"),
        add_bom=bom_shown(options),
        format=bool(options.get("format")),
        item_index=index,
    )


def _item_options(ctx: ExecuteContext, operation: str, index: int, options: dict[str, Any]) -> JsonToBinary:
    if operation == "toJson":
        return _json_options(options, index)
    source = ctx.get_node_parameter("sourceProperty", index)
    if operation == "toText":
        return JsonToBinary(
            source_key=source,
            file_name=options.get("fileName") or "file.txt",
            mime_type="text/plain",
            encoding=options.get("encoding"),
            add_bom=bom_shown(options),
            item_index=index,
        )
    is_base64 = options.get("dataIsBase64") is not False if float(ctx.node.typeVersion) == 1 else True
    return JsonToBinary(
        source_key=source,
        file_name=options.get("fileName"),
        mime_type=options.get("mimeType"),
        data_is_base64=is_base64,
        encoding=options.get("encoding"),
        add_bom=bom_shown(options),
        item_index=index,
    )


async def _per_item(ctx: ExecuteContext, items: list[Item], operation: str) -> list[Item]:
    out: list[Item] = []
    for index, item in enumerate(items):
        try:
            options = ctx.get_node_parameter("options", index, {})
            prop = ctx.get_node_parameter("binaryPropertyName", index, "data")
            data = item["json"]
            entry = await create_binary_from_json(ctx, data, _item_options(ctx, operation, index, options))
        except NodeError as error:
            if ctx.continue_on_fail():
                out.append(error_item(error, {"item": index}))
                continue
            raise NodeOperationError(
                ctx.node.name, error.message, description=error.description, item_index=index
            ) from error
        out.append({"json": {}, "binary": {prop: entry}, "pairedItem": {"item": index}})
    return out


__all__ = ["ConvertToFile", "all_paired", "bom_shown", "error_item"]
