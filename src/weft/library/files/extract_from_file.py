"""Extract from File (``n8n-nodes-base.extractFromFile`` 1, 1.1): a file's content as items (recorded: cases
n610-n623).

``csv``, ``html``, ``ods``, ``rtf``, ``xls``, ``xlsx``: one item per row (:mod:`._spreadsheet_read`; a CSV is parsed
as it streams in). ``fromJson``, ``text``, ``xml``, ``fromIcs``, ``binaryToPropery``: the content in one field
(:mod:`._extract_move`; ICS by :mod:`._extract_ics`). ``pdf``: text and metadata (:mod:`weft.nodes.files.pdf`). Version
1.1 fails on a CSV error also when the file's bytes are inline (version 1 keeps the rows read until the error
there, as n8n does).
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.files._extract_move import MOVE_OPERATIONS, move_to
from weft.library.files._spreadsheet_read import from_file
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.files.pdf import PdfError, extract_pdf
from weft.workflow import Item, NodeOutput

_SHEET_OPERATIONS = ("csv", "html", "rtf", "ods", "xls", "xlsx")


class ExtractFromFile(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.extractFromFile",
        display_name="Extract from File",
        versions=(1, 1.1),
        description="Convert binary data to JSON",
        group=("input",),
        defaults={"operation": "csv", "binaryPropertyName": "data", "destinationKey": "data", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        operation = ctx.get_node_parameter("operation", 0)
        if operation in _SHEET_OPERATIONS:
            return [await from_file(ctx, items, "operation", strict_csv=float(ctx.node.typeVersion) > 1)]
        if operation in MOVE_OPERATIONS:
            return [await move_to(ctx, items, operation)]
        if operation == "pdf":
            return [await _pdf(ctx, items)]
        raise NodeOperationError(
            ctx.node.name,
            f"The operation {operation!r} is not supported",
            description="Pick one of csv, html, fromIcs, fromJson, ods, pdf, rtf, text, xml, xls, xlsx or "
            "binaryToPropery.",
        )


async def _pdf_item(ctx: ExecuteContext, item: Item, index: int) -> Item:
    options: dict[str, Any] = ctx.get_node_parameter("options", index, {})
    prop = ctx.get_node_parameter("binaryPropertyName", index)
    data = await ctx.get_binary_data_buffer(index, prop)
    max_pages = options.get("maxPages")
    result = await asyncio.to_thread(
        extract_pdf,
        data,
        password=options.get("password") or None,
        max_pages=int(max_pages) if isinstance(max_pages, int | float) else None,
        join_pages=options.get("joinPages") is not False,
    )
    keep = options.get("keepSource")
    json_data = {**copy.deepcopy(item["json"]), **result} if keep and keep != "binary" else result
    new: Item = {"json": json_data, "pairedItem": {"item": index}}
    if keep in ("binary", "both"):
        if "binary" in item:
            new["binary"] = item["binary"]
    else:
        binary = copy.deepcopy(item.get("binary") or {})
        if isinstance(prop, str):
            binary.pop(prop, None)
        new["binary"] = binary
    return new


async def _pdf(ctx: ExecuteContext, items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for index, item in enumerate(items):
        try:
            out.append(await _pdf_item(ctx, item, index))
        except (NodeError, PdfError) as error:
            if ctx.continue_on_fail():
                out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                continue
            description = getattr(error, "description", None)
            raise NodeOperationError(ctx.node.name, error.message, description=description, item_index=index) from error
    return out


__all__ = ["ExtractFromFile"]
