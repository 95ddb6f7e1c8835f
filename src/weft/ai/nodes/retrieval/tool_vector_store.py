"""``@n8n/n8n-nodes-langchain.toolVectorStore``: Vector Store Question Answer Tool.

The agent asks a question; the tool finds the Limit nearest documents in the connected store and has the
connected model answer from them (LangChain's ``VectorStoreQATool``). typeVersion 1 names the tool by Data Name,
1.1 by the node's name.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.ai.models.base import ChatModel
from weft.ai.nodes.retrieval._common import one_sub_node
from weft.ai.retrieval.connections import AI_VECTOR_STORE
from weft.ai.retrieval.qa import answer_question, qa_tool_description
from weft.ai.retrieval.retrievers import SearchesText
from weft.ai.tools.base import TOOL_OUTPUTS, ToolNode, string_input, string_input_schema
from weft.nodes.contract import NodeContext, NodeDescription, ToolSpec
from weft.nodes.tool_names import node_name_to_tool_name
from weft.workflow import AI_LANGUAGE_MODEL


def tool_name(ctx: NodeContext, item_index: int) -> str:
    if float(ctx.node.typeVersion) <= 1:
        return str(ctx.get_node_parameter("name", item_index, ""))
    return node_name_to_tool_name(ctx.node.name)


class ToolVectorStore(ToolNode):
    """Answers ``{input: question}`` with ``{response: answer}``."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.toolVectorStore",
        display_name="Vector Store Question Answer Tool",
        versions=(1, 1.1),
        description="Answer questions with a vector store",
        inputs=(AI_VECTOR_STORE, AI_LANGUAGE_MODEL),
        outputs=TOOL_OUTPUTS,
        defaults={"topK": 4},
    )

    def tool_spec(self, ctx: NodeContext, item_index: int) -> ToolSpec:
        name = tool_name(ctx, item_index)
        text = str(ctx.get_node_parameter("description", item_index, ""))
        return ToolSpec(
            name=name,
            description=qa_tool_description(name, text),
            parameters=string_input_schema(),
            source_node_name=ctx.node.name,
        )

    async def respond(self, ctx: NodeContext, item_json: dict[str, Any], item_index: int) -> Any:
        top_k = int(ctx.get_node_parameter("topK", item_index, 4))
        store: SearchesText = await one_sub_node(ctx, AI_VECTOR_STORE, "a vector store", item_index)
        model: ChatModel = await one_sub_node(ctx, AI_LANGUAGE_MODEL, "a chat model", item_index)
        return await answer_question(model, store, string_input(item_json), top_k)


__all__ = ["ToolVectorStore", "tool_name"]
