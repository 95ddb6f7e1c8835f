"""``@n8n/n8n-nodes-langchain.agent``: the AI Agent (tools agent), every typeVersion behaving as V3.

It returns an :class:`~weft.nodes.contract.EngineRequest` when the model calls tools and is resumed with the
results; see :mod:`weft.ai.agent.execute` for one turn.
"""

from __future__ import annotations

from typing import ClassVar

from weft.ai.agent.execute import execute_agent
from weft.nodes.contract import EngineRequest, ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_LANGUAGE_MODEL, AI_MEMORY, AI_OUTPUT_PARSER, AI_TOOL, MAIN, NodeOutput

AGENT_VERSIONS: tuple[float, ...] = (1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.1, 2.2, 3, 3.1)


class Agent(NodeType):
    """AI Agent: prompt + system message + chat model + tools (+ memory) → ``{output}`` per item."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.agent",
        display_name="AI Agent",
        versions=AGENT_VERSIONS,
        description="Generates an action plan and executes it. Can use external tools.",
        inputs=(MAIN, AI_LANGUAGE_MODEL, AI_MEMORY, AI_TOOL, AI_OUTPUT_PARSER),
        outputs=(MAIN,),
        defaults={"promptType": "auto", "hasOutputParser": False, "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput | EngineRequest:
        return await execute_agent(ctx)


__all__ = ["AGENT_VERSIONS", "Agent"]
