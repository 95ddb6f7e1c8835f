"""``@n8n/n8n-nodes-langchain.retrieverWorkflow``: Workflow Retriever (a sub-workflow as a retriever).

As n8n's node does it (2.8.4, 2.41.1): each query runs the sub-workflow (``source: database`` by ``workflowId``, a
string in version 1 and a resource locator in 1.1, or ``source: parameter`` with ``workflowJson``) with one input
item, ``{query}`` and the ``fields`` values (the Set step the Call n8n Workflow Tool v1 makes, which Weft reuses).
Each item of the sub-workflow's first output becomes a document: ``### <n>. Context data:`` followed by the item's
``json`` as n8n's ``objectToString`` writes it (``- "key": "value"`` lines, nested objects indented by two spaces),
with the metadata ``source``, ``workflowSource``, ``workflowId``, ``itemIndex`` and (when the host notes it) the
sub-execution's ``executionId``.

As for the Vector Store Retriever, a query is not a run of this node (the chains of n8n 2.41 ``invoke`` the
retriever, which n8n's ``logWrapper`` does not hook); the sub-workflow runs as its own execution.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.ai.retrieval.connections import AI_RETRIEVER
from weft.ai.retrieval.documents import Document
from weft.ai.tools.workflow_tool import EMPTY_JSON
from weft.ai.tools.workflow_tool import _input_json as tool_input_json
from weft.ai.tools.workflow_tool import _workflow_json as parameter_workflow
from weft.errors import NodeOperationError
from weft.nodes._tool_call_context import ToolCallContext
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext
from weft.nodes.subworkflows import load_sub_workflow
from weft.nodes.values import js_string


class RetrieverWorkflow(NodeType):
    """Supplies a :class:`WorkflowRetriever`."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.retrieverWorkflow",
        display_name="Workflow Retriever",
        versions=(1, 1.1),
        description="Use an n8n Workflow as Retriever",
        inputs=(),
        outputs=(AI_RETRIEVER,),
        defaults={"source": "database", "workflowId": "", "workflowJson": EMPTY_JSON, "fields": {}},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> WorkflowRetriever:
        return WorkflowRetriever(ctx, item_index)


class _SubWorkflowCall(ToolCallContext):
    """The context the sub-workflow runs from: its input item is ``{query}``; the host notes the sub-execution
    on its stack entry."""

    def __init__(self, parent: SupplyDataContext, query: str) -> None:
        super().__init__(parent, {"json": {"query": query}}, run_index=0)
        self.execute_data: dict[str, Any] = {"node": {"name": parent.node.name}, "data": {}, "metadata": {}}


class WorkflowRetriever:
    """n8n's ``WorkflowRetriever``: the documents are the sub-workflow's output items."""

    def __init__(self, ctx: SupplyDataContext, item_index: int) -> None:
        self._ctx = ctx
        self._item_index = item_index

    async def get_relevant_documents(self, query: str) -> list[Document]:
        call = _SubWorkflowCall(self._ctx, query)
        index = self._item_index
        source = str(call.get_node_parameter("source", index, "database"))
        workflow = parameter_workflow(call, index)
        if workflow is None:
            workflow = await load_sub_workflow(call, index)  # type: ignore[arg-type]
        if call.services is None:
            raise NodeOperationError(call.node.name, "This execution cannot run sub-workflows: it has no services")
        items = [{"json": tool_input_json(call, query, index)}]  # type: ignore[arg-type]
        output = await call.services.execute_workflow(call, workflow, items, wait=True)  # type: ignore[arg-type]
        metadata: dict[str, Any] = {"source": "workflow", "workflowSource": source}
        metadata["workflowId"] = workflow.get("id") if source == "database" else call.workflow.id
        execution_id = _sub_execution_id(call.execute_data)
        received = list((output or [[]])[0] or [])
        return [
            Document(
                page_content=f"### {n + 1}. Context data:\n{object_to_string(item.get('json') or {})}",
                metadata={**metadata, "itemIndex": n, **({"executionId": execution_id} if execution_id else {})},
            )
            for n, item in enumerate(received)
        ]


def _sub_execution_id(entry: Mapping[str, Any]) -> str | None:
    sub = (entry.get("metadata") or {}).get("subExecution")
    return str(sub["executionId"]) if isinstance(sub, Mapping) and sub.get("executionId") else None


def object_to_string(value: Mapping[str, Any] | list[Any], level: int = 0) -> str:
    """n8n's ``objectToString``: one ``- "key": "value"`` line a key, objects and arrays nested below their key."""
    pairs = enumerate(value) if isinstance(value, list) else value.items()
    indent = "  " * level
    text = ""
    for key, item in pairs:
        if isinstance(item, Mapping | list):
            text += f'{indent}- "{key}":\n{object_to_string(item, level + 1)}'
        else:
            text += f'{indent}- "{key}": "{js_string(item)}"\n'
    return text


__all__ = ["RetrieverWorkflow", "WorkflowRetriever", "object_to_string"]
