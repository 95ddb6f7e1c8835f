"""The legacy readers: Read Binary File (``n8n-nodes-base.readBinaryFile`` 1) and Read Binary Files
(``n8n-nodes-base.readBinaryFiles`` 1), hidden in n8n's editor since Read/Write Files from Disk replaced them.

Read Binary File adds the file at ``filePath`` to each item's binary data (the item's JSON and other files kept);
Read Binary Files makes one item per file a glob pattern matches (its parameters read once, every item paired with
all input items; raw fast-glob syntax, ``( )`` included). Both check paths and stream bytes as
Read/Write Files does (:mod:`._files`); their errors are n8n's own, not wrapped.
"""

from __future__ import annotations

from typing import ClassVar

from weft.errors import NodeError
from weft.library.files._files import find_files, read_file, require_path
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.files.access import FileSystemError
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput


class ReadBinaryFile(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.readBinaryFile",
        display_name="Read Binary File",
        versions=(1,),
        description="Reads a binary file from disk",
        group=("input",),
        defaults={"filePath": "", "dataPropertyName": "data"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                path = require_path(ctx, js_string(ctx.get_node_parameter("filePath", index)), "File Path", index)
                field = js_string(ctx.get_node_parameter("dataPropertyName", index))
                binary = dict(item.get("binary") or {})
                binary[field] = await read_file(ctx, path)
                out.append({"json": item.get("json", {}), "binary": binary, "pairedItem": {"item": index}})
            except (NodeError, FileSystemError) as error:
                if not ctx.continue_on_fail():
                    raise _as_node_error(ctx, error, index) from error
                out.append({"json": {"error": str(error)}, "pairedItem": {"item": index}})
        return [out]


class ReadBinaryFiles(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.readBinaryFiles",
        display_name="Read Binary Files",
        versions=(1,),
        description="Reads binary files from disk",
        group=("input",),
        defaults={"fileSelector": "", "dataPropertyName": "data"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        selector = require_path(ctx, js_string(ctx.get_node_parameter("fileSelector", 0)), "File Selector", 0)
        field = js_string(ctx.get_node_parameter("dataPropertyName", 0))
        count = len(ctx.get_input_data())
        out: list[Item] = []
        try:
            for path in await find_files(selector, node_name=ctx.node.name):
                entry = await read_file(ctx, path)
                out.append({"binary": {field: entry}, "json": {}, "pairedItem": [{"item": i} for i in range(count)]})
        except FileSystemError as error:
            raise _as_node_error(ctx, error, 0) from error
        return [out]


def _as_node_error(ctx: ExecuteContext, error: Exception, index: int) -> NodeError:
    """n8n rethrows the error as it came; Weft's typed form of a file-system error keeps its message."""
    if isinstance(error, NodeError):
        return error
    from weft.errors import NodeOperationError

    return NodeOperationError(ctx.node.name, str(error), item_index=index)
