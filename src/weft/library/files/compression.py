"""Compression (``n8n-nodes-base.compression`` 1, 1.1): compress binary fields into zip, gzip, tar or tar.gz, and
decompress zip, gzip, tar, tar.gz and tgz files into binary fields (``<outputPrefix><n>``).

Version 1 reads the compress parameters from the first item and names gzip files ``<name>.gzip`` under
``<outputPrefix><index>``; 1.1 reads them per item, keeps the file's extension (``a.txt.gz``) and puts the result in
``binaryPropertyOutput``. Decompression is bounded (:mod:`weft.nodes.files.archive`). Tar formats are n8n 2.41's.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from weft.binary.meta import extension, lookup
from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.files.archive import (
    ArchiveError,
    gunzip,
    limits_of,
    make_gzip,
    make_tar,
    make_zip,
    untar,
    unzip,
)
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

#: File extensions n8n stores in a zip without compressing them again.
ALREADY_COMPRESSED = frozenset(
    "7z aifc bz2 doc docx gif gz heic heif jpg jpeg mov mp3 mp4 pdf png ppt pptx rar webm webp xls xlsx zip".split()
)


def _js_text(value: Any) -> str:
    """A value in a JavaScript template literal (``undefined`` for a missing one)."""
    return "undefined" if value is None else js_string(value)


def _names(value: Any) -> list[str]:
    return [name.strip() for name in js_string(value).split(",")]


class Compression(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.compression",
        display_name="Compression",
        versions=(1, 1.1),
        description="Compress and decompress files",
        group=("transform",),
        usable_as_tool=True,
        defaults={"operation": "decompress", "binaryPropertyName": "data", "fileName": ""},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        operation = ctx.get_node_parameter("operation", 0)
        out: list[Item] = []
        for index, item in enumerate(items):
            try:
                binary: dict[str, Any] | None = None
                if operation == "decompress":
                    binary = await self._decompress(ctx, index)
                elif operation == "compress":
                    binary = await self._compress(ctx, index)
                if binary is not None:
                    out.append({"json": item.get("json", {}), "binary": binary, "pairedItem": {"item": index}})
            except (NodeError, ArchiveError) as error:
                if not ctx.continue_on_fail():
                    if isinstance(error, NodeError):
                        raise
                    raise NodeOperationError(ctx.node.name, error.message, item_index=index) from error
                out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
        return [out]

    # ------------------------------------------------------------------ decompress

    async def _decompress(self, ctx: ExecuteContext, index: int) -> dict[str, Any]:
        names = _names(ctx.get_node_parameter("binaryPropertyName", 0))
        prefix = js_string(ctx.get_node_parameter("outputPrefix", 0, "file_"))
        limits, binary, counter = limits_of(ctx), {}, 0
        for position, name in enumerate(names):
            entry = ctx.assert_binary_data(index, name)
            data = await ctx.get_binary_data_buffer(index, name)
            ext = str(entry.get("fileExtension") or "").lower()
            if not ext:
                raise NodeOperationError(ctx.node.name, f"File extension not found for binary data {name}")
            is_tar = ext in ("tar", "tgz") or str(entry.get("fileName") or "").lower().endswith(".tar.gz")
            if ext == "zip" or is_tar:
                files = await asyncio.to_thread(untar if is_tar else unzip, data, limits)
                for key, content in files.items():
                    if "__MACOSX" in key:
                        continue
                    binary[f"{prefix}{counter}"] = await ctx.prepare_binary_data(content, key)
                    counter += 1
            elif ext in ("gz", "gzip"):
                content = await asyncio.to_thread(gunzip, data, limits)
                binary[f"{prefix}{position}"] = await self._gunzipped(ctx, entry, content)
            else:
                raise NodeOperationError(
                    ctx.node.name,
                    f'Unsupported archive format ".{ext}" for binary data {name}',
                    description="The Decompress operation supports the following formats: zip, gzip, tar, tar.gz "
                    "and tgz",
                )
        return binary

    async def _gunzipped(self, ctx: ExecuteContext, entry: dict[str, Any], content: bytes) -> dict[str, Any]:
        """The file inside a gzip, named as n8n names it (``a.txt.gz`` → ``a.txt``; else by its MIME type)."""
        original = entry.get("fileName")
        base = js_string(original).split(".")[0] if isinstance(original, str) else None
        ext: str | None = None
        mime: Any = None
        if isinstance(original, str) and original.endswith(".gz"):
            parts = original.replace(".gz", "", 1).split(".")
            if len(parts) > 1:
                ext = parts[-1]
                mime = lookup(ext) or False
        result = await ctx.prepare_binary_data(content, base, mime or None)
        if ext is None:
            mime = result.get("mimeType")
            found = extension(str(mime)) if mime else None
            result["fileExtension"] = found if found else False
        else:
            result["fileExtension"] = ext
        result["fileName"] = (
            f"{js_string(base) if base is not None else 'undefined'}.{js_string(result['fileExtension'])}"
        )
        result["mimeType"] = mime
        return result

    # ------------------------------------------------------------------ compress

    async def _compress(self, ctx: ExecuteContext, index: int) -> dict[str, Any] | None:
        v1 = float(ctx.node.typeVersion) <= 1
        names = _names(ctx.get_node_parameter("binaryPropertyName", 0 if v1 else index))
        output_format = ctx.get_node_parameter("outputFormat", 0, "" if v1 else "zip")
        at = 0 if v1 else index
        if output_format == "gzip":
            return await self._gzip_each(ctx, index, names, v1)
        files: list[tuple[str, bytes, str]] = []
        for name in names:
            entry = ctx.assert_binary_data(index, name)
            data = await ctx.get_binary_data_buffer(index, name)
            file_name = entry.get("fileName")
            files.append(
                (js_string(file_name) if file_name is not None else "undefined", data, entry.get("fileExtension") or "")
            )
        if output_format not in ("zip", "tar", "targz"):
            return {}
        file_name = js_string(ctx.get_node_parameter("fileName", at))
        field = js_string(ctx.get_node_parameter("binaryPropertyOutput", at, "data"))
        if output_format == "zip":
            members = {n: (d, 0 if e in ALREADY_COMPRESSED else 6) for n, d, e in files}
            archive = await asyncio.to_thread(make_zip, members)
        else:
            pairs = [(n, d) for n, d, _ in files]
            archive = await asyncio.to_thread(make_tar, pairs, gzip=output_format == "targz")
        return {field: await ctx.prepare_binary_data(archive, file_name)}

    async def _gzip_each(self, ctx: ExecuteContext, index: int, names: list[str], v1: bool) -> dict[str, Any]:
        binary: dict[str, Any] = {}
        for position, name in enumerate(names):
            entry = ctx.assert_binary_data(index, name)
            data = await ctx.get_binary_data_buffer(index, name)
            original = entry.get("fileName")
            stem = original.split(".")[0] if isinstance(original, str) else _js_text(original)
            if v1:
                field = f"{js_string(ctx.get_node_parameter('outputPrefix', 0, 'data'))}{position}"
                path = f"{stem}.gzip"
            else:
                prefix = js_string(ctx.get_node_parameter("binaryPropertyOutput", index, "data"))
                field = f"{prefix}{position or ''}"
                chosen = js_string(ctx.get_node_parameter("fileName", index, ""))
                stem = chosen.replace(".gz", "", 1).replace(".gzip", "", 1) if chosen else stem
                ext = entry.get("fileExtension")
                path = f"{stem}{'.' + str(ext).lower() if ext else ''}.gz"
            binary[field] = await ctx.prepare_binary_data(await asyncio.to_thread(make_gzip, data), path)
        return binary
