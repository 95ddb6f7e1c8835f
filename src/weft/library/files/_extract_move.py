"""Extract from File's "move" operations (n8n's ``moveTo.operation``): a file's content into a JSON field, as text
(``text``, ``xml``), parsed JSON (``fromJson``), an ICS calendar (``fromIcs``) or base64 (``binaryToPropery``).

The text is decoded with iconv-lite's names (the ``encoding`` option, else the encoding detected from the bytes),
a leading byte order mark stripped unless ``stripBOM`` is off. ``keepSource`` keeps the input's JSON, its binary
data, or both; without it the other binary fields of the item are kept and the extracted one is dropped.
"""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.files._convert_encoding import BOM_ENCODINGS, decode_text, detect_encoding
from weft.library.files._extract_ics import IcsParseError, parse_ics
from weft.nodes.contract import ExecuteContext
from weft.nodes.paths import set_path
from weft.workflow import Item
from weft.workflow.jsjson import js_json_parse_error

MOVE_OPERATIONS = ("binaryToPropery", "fromJson", "text", "fromIcs", "xml")


class _MoveError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _parse_json(text: str) -> Any:
    if text == "":
        return {}
    try:
        return json.loads(text)
    except ValueError:
        raise _MoveError(js_json_parse_error(text)) from None


async def _converted(ctx: ExecuteContext, operation: str, data: bytes, options: dict[str, Any]) -> Any:
    if operation == "binaryToPropery":
        return base64.b64encode(data).decode("ascii")
    encoding = options.get("encoding") or detect_encoding(data)
    # n8n passes stripBOM on only when the encoding option is utf8, cesu8 or ucs2; iconv-lite strips by default
    keep_bom = options.get("stripBOM") is False and options.get("encoding") in BOM_ENCODINGS
    text = decode_text(ctx.node.name, data, encoding, strip_bom=not keep_bom)
    if operation == "fromJson":
        return _parse_json(text)
    if operation == "fromIcs":
        return parse_ics(ctx.node.name, text)
    return text


async def _moved(ctx: ExecuteContext, item: Item, index: int, operation: str) -> Item:
    options = ctx.get_node_parameter("options", index, {})
    prop = ctx.get_node_parameter("binaryPropertyName", index)
    entry = ctx.assert_binary_data(index, prop)
    data = await ctx.binary_bytes(entry)
    keep = options.get("keepSource")
    new: Item = {
        "json": copy.deepcopy(item["json"]) if keep and keep != "binary" else {},
        "pairedItem": {"item": index},
    }
    value = await _converted(ctx, operation, data, options)
    set_path(new["json"], ctx.get_node_parameter("destinationKey", index, ""), value)
    if isinstance(prop, str):
        if keep in ("binary", "both"):
            if "binary" in item:
                new["binary"] = item["binary"]
        else:
            binary = copy.deepcopy(item.get("binary") or {})
            binary.pop(prop, None)
            new["binary"] = binary
    return new


async def move_to(ctx: ExecuteContext, items: list[Item], operation: str) -> list[Item]:
    """One output item per input file, holding its content in ``destinationKey``."""
    out: list[Item] = []
    for index, item in enumerate(items):
        try:
            out.append(await _moved(ctx, item, index, operation))
        except (NodeError, _MoveError, IcsParseError) as error:
            message, description = error.message, getattr(error, "description", None)
            if "Unexpected token" in message:
                message = "The file selected in 'Input Binary Field' is not in JSON format"
                description = "Try to change the operation or select a JSON file in 'Input Binary Field'"
            if ctx.continue_on_fail():
                out.append({"json": {"error": message}, "pairedItem": {"item": index}})
                continue
            raise NodeOperationError(ctx.node.name, message, description=description, item_index=index) from error
    return out


__all__ = ["MOVE_OPERATIONS", "move_to"]
