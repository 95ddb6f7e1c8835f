"""HTML Extract (``n8n-nodes-base.htmlExtract`` v1, hidden in n8n's editor): the HTML node's extraction before it
had one (recorded: cases n534-n536). Its text is every text node joined, only trimmed (``trimValues``), never
cleaned up; the rest is :func:`weft.library.core._html_extract.extract_items`."""

from __future__ import annotations

from typing import ClassVar

from weft.errors import NodeError
from weft.library.core._html_extract import extract_items
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput


class HtmlExtract(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.htmlExtract",
        display_name="HTML Extract",
        versions=(1,),
        description="Extracts data from HTML",
        group=("transform",),
        defaults={"sourceData": "json", "dataPropertyName": "data", "extractionValues": {}, "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                out.extend(await extract_items(ctx, index, item, version=1, legacy=True))
            except NodeError as error:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
        return [out]


__all__ = ["HtmlExtract"]
