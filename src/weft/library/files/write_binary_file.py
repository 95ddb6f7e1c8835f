"""Write Binary File (``n8n-nodes-base.writeBinaryFile`` 1), the legacy writer that Read/Write Files from Disk
replaced (hidden in n8n's editor): writes each item's binary field to ``fileName``, truncating or, with the
``append`` option (read from the first item, as n8n does), appending; the item passes on with ``fileName`` added.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.files._files import require_path, write_file
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.files.access import FileSystemError
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput


class WriteBinaryFile(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.writeBinaryFile",
        display_name="Write Binary File",
        versions=(1,),
        description="Writes a binary file to disk",
        group=("output",),
        defaults={"fileName": "", "dataPropertyName": "data", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                out.append(await self._write(ctx, item, index))
            except (NodeError, FileSystemError) as error:
                if not ctx.continue_on_fail():
                    if isinstance(error, NodeError):
                        raise
                    raise NodeOperationError(ctx.node.name, str(error), item_index=index) from error
                out.append({"json": {"error": str(error)}, "pairedItem": {"item": index}})
        return [out]

    async def _write(self, ctx: ExecuteContext, item: Item, index: int) -> Item:
        field = ctx.get_node_parameter("dataPropertyName", index)
        path = require_path(ctx, js_string(ctx.get_node_parameter("fileName", index)), "File Name", index)
        options: dict[str, Any] = dict(ctx.get_node_parameter("options", 0, {}) or {})
        entry = ctx.assert_binary_data(index, field)
        await write_file(ctx, entry, path, append=bool(options.get("append")))
        written: Item = {"json": {**item.get("json", {}), "fileName": path}, "pairedItem": {"item": index}}
        if "binary" in item:
            written["binary"] = dict(item["binary"] or {})
        return written
