"""``@n8n/n8n-nodes-langchain.agentTool``: the AI Agent Tool (versions 2.2 and 3), an agent used as a tool.

It is the AI Agent with no main input and an ``ai_tool`` output. The calling agent sees it as a node used as a
tool (:func:`weft.nodes.node_tool.node_tool_spec`): its name, its ``toolDescription``, and the schema of the
``$fromAI()`` calls in its parameters (n8n's editor fills the prompt with
``$fromAI('Prompt__User_Message_', ``, 'string')``). When the caller is an AI Agent 3, the engine runs it like
any requested node, and its own tool calls are engine requests of their own: requests nest to any depth, and
each level keeps its own run records (recorded: cases a230-a233). An older caller runs it inline, where a
sub-agent that needs the engine fails as in n8n 2.41.1 (case a234).
"""

from __future__ import annotations

from typing import ClassVar

from weft.ai.agent.execute import execute_agent
from weft.nodes.contract import EngineRequest, ExecuteContext, NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.nodes.node_tool import node_tool_spec
from weft.workflow import AI_LANGUAGE_MODEL, AI_MEMORY, AI_OUTPUT_PARSER, AI_TOOL, NodeOutput

DEFAULT_DESCRIPTION = "AI Agent that can call other tools"


class AgentTool(NodeType):
    """AI Agent Tool: the agent of :mod:`weft.ai.agent.execute`, offered to another agent as a tool."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.agentTool",
        display_name="AI Agent Tool",
        versions=(2.2, 3),
        description="Generates an action plan and executes it. Can use external tools.",
        inputs=(AI_LANGUAGE_MODEL, AI_MEMORY, AI_TOOL, AI_OUTPUT_PARSER),
        outputs=(AI_TOOL,),
        defaults={
            "toolDescription": DEFAULT_DESCRIPTION,
            "promptType": "define",
            "text": "",
            "hasOutputParser": False,
            "options": {},
        },
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ToolSpec:
        return node_tool_spec(self, ctx)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput | EngineRequest:
        return await execute_agent(ctx)


__all__ = ["AgentTool"]
