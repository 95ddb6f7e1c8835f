"""n8n's ``createBinaryFromJson``: a file from an item's JSON or one of its fields, as text (iconv-lite encoded,
objects as JSON) or as base64 decoded the way Node.js decodes it (used by Convert to File's toJson, toText and
toBinary)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from weft.errors import NodeOperationError
from weft.library.files._convert_encoding import encode_text, node_base64_decode
from weft.nodes.contract import ExecuteContext
from weft.nodes.paths import get_path
from weft.nodes.values import js_string
from weft.workflow.jsjson import js_json

_UNSET = object()


@dataclass(kw_only=True)
class JsonToBinary:
    """The options of ``createBinaryFromJson``."""

    source_key: str = ""
    file_name: str | None = None
    mime_type: str | None = None
    data_is_base64: bool = False
    encoding: str | None = None
    add_bom: bool = False
    format: bool = False
    item_index: int = 0


def _text_of(value: Any, options: JsonToBinary) -> str:
    if isinstance(value, dict | list):
        options.mime_type = "application/json"
        return js_json(value, indent=2 if options.format else None)
    if value is None or value == "" or value is False or value == 0:
        return ""  # iconv-lite encodes a non-string as "" + (value || "")
    return js_string(value)


async def create_binary_from_json(ctx: ExecuteContext, data: Any, options: JsonToBinary) -> dict[str, Any]:
    """The binary entry of ``data`` (or of ``data[source_key]``), named and typed as n8n names and types it."""
    value = get_path(data, options.source_key, default=_UNSET) if options.source_key else data
    if value is _UNSET:
        raise NodeOperationError(
            ctx.node.name,
            f'The value in "{options.source_key}" is not set',
            item_index=options.item_index,
            description="Point the input field option at a field the item has (dot notation for deep fields).",
        )
    if options.data_is_base64:
        buffer = node_base64_decode(js_string(value))
    else:
        text = _text_of(value, options)
        buffer = encode_text(ctx.node.name, text, options.encoding, add_bom=bool(options.add_bom))
    entry = await ctx.prepare_binary_data(buffer, options.file_name or None, options.mime_type or None)
    if not entry.get("fileName"):
        extension = entry.get("fileExtension")
        entry["fileName"] = f"file.{extension}" if extension else "file"
    return entry


__all__ = ["JsonToBinary", "create_binary_from_json"]
