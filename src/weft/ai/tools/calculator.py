"""``@n8n/n8n-nodes-langchain.toolCalculator``: math for the agent, evaluated safely (see :mod:`._math`).

One deviation from n8n: an input that is not an expression but holds exactly one arithmetic run
(``"What is 6 * 7?"``) is evaluated on that run instead of failing, which keeps small models going.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.ai.tools._math import CalculatorError, evaluate_lenient, js_number
from weft.ai.tools.base import TOOL_OUTPUTS, ToolNode, string_input, string_input_schema
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext, NodeDescription, ToolSpec
from weft.nodes.tool_names import node_name_to_tool_name

#: n8n's (LangChain's) description of the Calculator tool, word for word.
CALCULATOR_DESCRIPTION = (
    "Useful for getting the result of a math expression. The input to this tool should be a valid "
    "mathematical expression that could be executed by a simple calculator."
)


class ToolCalculator(ToolNode):
    """The Calculator: ``{input: "12345 * 6789"}`` → ``{response: "83810205"}``."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.toolCalculator",
        display_name="Calculator",
        versions=(1,),
        description="Make it easier for AI agents to perform arithmetic",
        inputs=(),
        outputs=TOOL_OUTPUTS,
    )

    def tool_spec(self, ctx: NodeContext, item_index: int) -> ToolSpec:
        return ToolSpec(
            name=node_name_to_tool_name(ctx.node.name),
            description=CALCULATOR_DESCRIPTION,
            parameters=string_input_schema(),
            source_node_name=ctx.node.name,
        )

    async def respond(self, ctx: NodeContext, item_json: dict[str, Any], item_index: int) -> Any:
        expression = string_input(item_json)
        try:
            return js_number(evaluate_lenient(expression))
        except CalculatorError as exc:
            raise NodeOperationError(
                ctx.node.name,
                str(exc),
                description="The Calculator evaluates numbers, + - * / ^ % //, parentheses, "
                "functions such as sqrt() and log(), and the constants pi and e.",
                item_index=item_index,
            ) from None


__all__ = ["CALCULATOR_DESCRIPTION", "ToolCalculator"]
