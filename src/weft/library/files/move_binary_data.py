"""Convert to/from binary data (``n8n-nodes-base.moveBinaryData`` 1, 1.1), the legacy node Convert to File and
Extract from File replaced (hidden in n8n's editor).

*binaryToJson* decodes a binary field (``iconv-lite`` encodings, BOM stripped by default) into the whole JSON
(parsed) or into one key (text, base64 or parsed); *jsonToBinary* encodes the whole JSON or one key
(``JSON.stringify`` unless ``useRawData`` and a string; or base64 taken as is) into a binary field. Items without the
source are skipped. Version 1.1 names a file without a name ``file.<ext>`` and, with ``useRawData``, keeps an empty
MIME type empty; version 1 always falls back on ``application/json``.
"""

from __future__ import annotations

import base64
import copy
import json
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.library.files._files_text import decode_base64, decode_text, encode_text
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.paths import get_path, set_path, unset_path
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput
from weft.workflow.jsjson import js_json, js_json_parse_error

_MISSING = object()
#: The encodings for which n8n shows the BOM options (its ``bomAware`` list: iconv-lite's own names only, so
#: ``utf16le`` is not one of them although it is ``ucs2``).
_BOM_OPTIONS = frozenset({"utf8", "cesu8", "ucs2"})


def visible_options(options: dict[str, Any], mode: Any, all_data: Any) -> dict[str, Any]:
    """The options n8n keeps: it drops those its ``displayOptions`` hide (``stripBOM`` unless ``encoding`` is set to
    a BOM-aware one, ``jsonParse`` beside ``keepAsBase64``, …), so a hidden option has no effect."""
    to_binary, to_json = mode == "jsonToBinary", mode == "binaryToJson"
    bom = options.get("encoding") in _BOM_OPTIONS
    shown = {
        "addBOM": to_binary and bom,
        "dataIsBase64": to_binary and all_data is False and options.get("useRawData") is not True,
        "stripBOM": to_json and bom,
        "fileName": to_binary,
        "jsonParse": to_json and all_data is False and options.get("keepAsBase64") is not True,
        "keepAsBase64": to_json and all_data is False and options.get("jsonParse") is not True,
        "mimeType": to_binary,
        "useRawData": to_binary and options.get("dataIsBase64") is not True,
    }
    return {key: value for key, value in options.items() if shown.get(key, True)}


def _json_parse(node_name: str, text: str, item_index: int) -> Any:
    """n8n-workflow's ``jsonParse``: ``JSON.parse``, failing with V8's message."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        message = _literal_error(text, error.pos) or js_json_parse_error(text)
        raise NodeOperationError(node_name, message, item_index=item_index) from None


def _literal_error(text: str, pos: int) -> str | None:
    """V8 reads ``n``/``t``/``f`` as the start of ``null``/``true``/``false`` and names the first letter that is not."""
    literal = {"n": "null", "t": "true", "f": "false"}.get(text[pos : pos + 1])
    if literal is None:
        return None
    at = pos
    while at < len(text) and at - pos < len(literal) and text[at] == literal[at - pos]:
        at += 1
    if at >= len(text):
        return "Unexpected end of JSON input"
    start, end = max(at - 10, 0), min(at + 10, len(text))
    quote = (
        f'"{text}"'
        if len(text) < 21
        else f'{"..." if start else ""}"{text[start:end]}"{"..." if end < len(text) else ""}'
    )
    return f"Unexpected token '{text[at]}', {quote} is not valid JSON"


class MoveBinaryData(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.moveBinaryData",
        display_name="Convert to/from binary data",
        versions=(1, 1.1),
        description="Move data between binary and JSON properties",
        group=("transform",),
        defaults={
            "mode": "binaryToJson",
            "setAllData": True,
            "convertAllData": True,
            "sourceKey": "data",
            "destinationKey": "data",
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        mode = ctx.get_node_parameter("mode", 0)
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            options: dict[str, Any] = dict(ctx.get_node_parameter("options", index, {}) or {})
            all_data = ctx.get_node_parameter("setAllData" if mode == "binaryToJson" else "convertAllData", index)
            options = visible_options(options, mode, all_data)
            try:
                if mode == "binaryToJson":
                    moved = await self._to_json(ctx, item, index, options)
                elif mode == "jsonToBinary":
                    moved = await self._to_binary(ctx, item, index, options)
                else:
                    raise NodeOperationError(ctx.node.name, f'The operation "{mode}" is not known!', item_index=index)
            except LookupError as error:  # an encoding iconv-lite does not know
                raise NodeOperationError(
                    ctx.node.name,
                    str(error.args[0]),
                    item_index=index,
                    description="Choose another encoding in Options.",
                ) from error
            if moved is not None:  # an item without the source is left out
                out.append(moved)
        return [out]

    async def _to_json(self, ctx: ExecuteContext, item: Item, index: int, options: dict[str, Any]) -> Item | None:
        set_all = ctx.get_node_parameter("setAllData", index)
        source = ctx.get_node_parameter("sourceKey", index)
        if get_path(item.get("binary") or {}, source, default=_MISSING) is _MISSING:
            return None
        encoding = options.get("encoding") or "utf8"
        data = await ctx.get_binary_data_buffer(index, source)
        strip = options.get("stripBOM")
        moved: Item = {"json": {}, "pairedItem": {"item": index}}
        if set_all:
            moved["json"] = _json_parse(ctx.node.name, decode_text(data, encoding, strip_bom=strip), index)
        else:
            moved["json"] = copy.deepcopy(item.get("json", {}))
            value: Any
            if options.get("keepAsBase64") is not True:
                value = decode_text(data, encoding, strip_bom=strip)
            else:
                value = base64.b64encode(data).decode("ascii")
            if options.get("jsonParse"):
                value = _json_parse(ctx.node.name, value, index)
            set_path(moved["json"], ctx.get_node_parameter("destinationKey", index, ""), value)
        if options.get("keepSource") is True:
            moved["binary"] = item.get("binary")  # type: ignore[typeddict-item]
        else:
            moved["binary"] = copy.deepcopy(item.get("binary") or {})
            unset_path(moved["binary"], source)
        return moved

    async def _to_binary(self, ctx: ExecuteContext, item: Item, index: int, options: dict[str, Any]) -> Item | None:
        convert_all = ctx.get_node_parameter("convertAllData", index)
        destination = ctx.get_node_parameter("destinationKey", index)
        value: Any = item.get("json", {})
        if not convert_all:
            value = get_path(value, ctx.get_node_parameter("sourceKey", index), default=_MISSING)
        if value is _MISSING:
            return None
        moved: Item = {"json": {}, "binary": copy.deepcopy(item.get("binary") or {}), "pairedItem": {"item": index}}
        entry = await ctx.prepare_binary_data(*self._encoded(ctx, value, options))
        if not entry.get("fileName") and float(ctx.node.typeVersion) > 1:
            ext = entry.get("fileExtension")
            entry["fileName"] = f"file{'.' + str(ext) if ext else ''}"
        set_path(moved["binary"], destination, entry)
        if options.get("keepSource") is True:
            moved["json"] = item.get("json", {})
        elif not convert_all:
            moved["json"] = copy.deepcopy(item.get("json", {}))
            unset_path(moved["json"], ctx.get_node_parameter("sourceKey", index))
        return moved

    def _encoded(self, ctx: ExecuteContext, value: Any, options: dict[str, Any]) -> tuple[bytes, str | None, Any]:
        """``(bytes, fileName, mimeType)`` for ``prepareBinaryData``."""
        mime = options.get("mimeType")
        if options.get("dataIsBase64") is not True:
            if options.get("useRawData") is not True or isinstance(value, dict | list) or value is None:
                value = js_json(value)
                mime = mime or "application/json"
            text = js_string(value) if value not in (0, False, "") else ""  # iconv-lite's "" + (str || "")
            data = encode_text(text, options.get("encoding") or "utf8", add_bom=options.get("addBOM"))
        else:
            data = decode_base64(js_string(value))
        if not mime and float(ctx.node.typeVersion) == 1:
            mime = "application/json"
        file_name = options.get("fileName")
        return data, str(file_name) if file_name else None, mime or None
