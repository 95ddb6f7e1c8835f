"""``@n8n/n8n-nodes-langchain.toolThink``: a tool that returns the model's thought, so it lands in the log."""

from __future__ import annotations

from typing import Any, ClassVar

from weft.ai.tools.base import TOOL_OUTPUTS, ToolNode, string_input, string_input_schema
from weft.nodes.contract import NodeContext, NodeDescription, ToolSpec
from weft.nodes.tool_names import node_name_to_tool_name

#: n8n's default description of the Think tool.
THINK_DESCRIPTION = (
    "Use the tool to think about something. It will not obtain new information or change the database, but just "
    "append the thought to the log. Use it when complex reasoning or some cache memory is needed."
)


class ToolThink(ToolNode):
    """Think: ``{input: "…"}`` → ``{response: "…"}``; version 1 is named ``thinking_tool``, 1.1 after the node."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.toolThink",
        display_name="Think Tool",
        versions=(1, 1.1),
        description="Invite the AI agent to do some thinking",
        inputs=(),
        outputs=TOOL_OUTPUTS,
        defaults={"description": THINK_DESCRIPTION},
    )

    def tool_spec(self, ctx: NodeContext, item_index: int) -> ToolSpec:
        name = "thinking_tool" if float(ctx.node.typeVersion) == 1 else node_name_to_tool_name(ctx.node.name)
        return ToolSpec(
            name=name,
            description=str(ctx.get_node_parameter("description", item_index, THINK_DESCRIPTION)),
            parameters=string_input_schema(),
            source_node_name=ctx.node.name,
        )

    async def respond(self, ctx: NodeContext, item_json: dict[str, Any], item_index: int) -> Any:
        return string_input(item_json)


__all__ = ["THINK_DESCRIPTION", "ToolThink"]
