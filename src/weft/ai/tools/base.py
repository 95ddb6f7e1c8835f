"""What every tool node shares: the two faces of chapter 19 §2.6.

``supply_data`` gives the agent a :class:`~weft.nodes.contract.ToolSpec` (name, description, JSON Schema, the
node that runs it); ``execute`` is what the engine runs when the agent asks for the tool, and also what runs
when the node is executed on its own. Either way its input items hold the arguments (as a requested tool: the
agent's item + the model's arguments + ``toolCallId``) and each output item is ``{json: {response: …}}``.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeContext, NodeType, SupplyDataContext, ToolSpec
from weft.workflow import AI_TOOL, Item, NodeOutput
from weft.workflow.jsjson import js_json

#: Tool sub-nodes have no inputs and one ``ai_tool`` output.
TOOL_OUTPUTS: tuple[str, ...] = (AI_TOOL,)


def string_input_schema() -> dict[str, Any]:
    """The schema of a tool taking one string (LangChain's ``DynamicTool``, as n8n offers it to the model)."""
    return {"type": "object", "properties": {"input": {"type": "string"}}, "additionalProperties": False}


def string_input(item_json: dict[str, Any]) -> str:
    """A ``DynamicTool``'s input from an item: ``input``, as n8n's ``tool.invoke(item.json)`` reads it."""
    value = item_json.get("input")
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


class ToolNode(NodeType):
    """Base of tool nodes: subclasses build their :class:`ToolSpec` and compute one item's response."""

    #: Parameter defaults shared by ``supply_data`` and ``execute``.
    tool_description: ClassVar[str] = ""

    def tool_spec(self, ctx: NodeContext, item_index: int) -> ToolSpec:
        raise NotImplementedError

    async def respond(self, ctx: NodeContext, item_json: dict[str, Any], item_index: int) -> Any:
        """The tool's result for one input item (a JSON value, usually a string)."""
        raise NotImplementedError

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ToolSpec:
        spec = self.tool_spec(ctx, item_index)
        invoke = functools.partial(self.invoke_inline, ctx)
        return dataclasses.replace(spec, invoke=invoke)

    async def invoke_inline(self, ctx: SupplyDataContext, arguments: dict[str, Any]) -> str:
        """Run the tool inside the agent, as LangChain's AgentExecutor does for AI Agent versions before 3.

        The call is a run of this node (``inputOverride`` ``{query}``, output ``{response}``, no paired item),
        as n8n's ``logWrapper`` records it (recorded: cases a025, a027); the model gets the response text.
        """
        query: Any = arguments.get("input", "") if set(arguments) <= {"input"} else arguments
        run = ctx.add_input_data(AI_TOOL, [[{"json": {"query": query}}]])
        try:
            response = await self.respond(ctx, dict(arguments), 0)
        except Exception as exc:  # the model is told, as n8n's tools answer a failure
            ctx.add_output_data(AI_TOOL, run, exc)
            return f'There was an error: "{getattr(exc, "message", None) or exc}"'
        ctx.add_output_data(AI_TOOL, run, [[{"json": {"response": response}}]])
        return response if isinstance(response, str) else js_json(response)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                response = await self.respond(ctx, dict(item["json"]), index)
            except NodeError:
                raise
            except (ValueError, TypeError) as exc:
                raise NodeOperationError(ctx.node.name, str(exc), item_index=index) from exc
            out.append({"json": {"response": response}, "pairedItem": {"item": index}})
        return [out]


__all__ = ["TOOL_OUTPUTS", "ToolNode", "string_input", "string_input_schema"]
