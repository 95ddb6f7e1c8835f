"""Greet (``weft-node-example.greet``): adds a greeting for each item's name, optionally as a text file.

It shows the parts of a node: a :class:`NodeDescription`, parameters read per item (expressions resolved),
paired items, a typed error that names the item and the fix, ``continueOnFail``, and a binary file made through
the context (so every binary-data mode works).
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput


class Greet(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft-node-example.greet",
        display_name="Greet",
        versions=(1,),
        description="Greets each item by name",
        defaults={"greeting": "Hello", "nameField": "name", "outputField": "greeting", "asFile": False},
        usable_as_tool=True,
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                out.append(await self._greet(ctx, item, index))
            except NodeOperationError as exc:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": exc.message}, "pairedItem": {"item": index}})
        return [out]

    async def _greet(self, ctx: ExecuteContext, item: Item, index: int) -> Item:
        field = str(ctx.get_node_parameter("nameField", index))
        name: Any = item["json"].get(field)
        if not isinstance(name, str) or not name:
            raise NodeOperationError(
                ctx.node.name,
                f"Item {index} has no {field!r} to greet",
                description=f"Give each item a text field {field!r}, or set 'Name Field' to the field that has it.",
                item_index=index,
            )
        text = f"{ctx.get_node_parameter('greeting', index)}, {name}!"
        greeted: Item = {"json": {**item["json"], str(ctx.get_node_parameter("outputField", index)): text}}
        greeted["pairedItem"] = {"item": index}
        if ctx.get_node_parameter("asFile", index):
            entry = await ctx.prepare_binary_data(text.encode(), "greeting.txt", "text/plain")
            greeted["binary"] = {"data": entry}  # type: ignore[typeddict-item]
        return greeted
