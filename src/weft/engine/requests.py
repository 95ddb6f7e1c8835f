"""Engine requests, pure: turn a node's :class:`EngineRequest` into stack entries, and collect the results.

This mirrors n8n's ``requests-response.ts`` (``handleRequest``) and ``collectSubNodeResults``:

1. every requested node gets a placeholder run record (``inputOverride.ai_tool`` = its input item, ``source`` →
   the requester) and a stack entry whose input item is the requester's input item merged with the action's
   input and ``toolCallId``;
2. the requester goes back on the stack *below* the requested nodes with ``nodeWasResumed`` and
   ``subNodeExecutionData`` (where each result will be: node name + run index);
3. when the requester is popped again, :func:`collect_action_responses` reads those runs into an
   :class:`EngineResponse`.
"""

from __future__ import annotations

from typing import Any

from weft.errors import WorkflowOperationError
from weft.nodes.contract import ActionResponse, EngineRequest, EngineResponse, ExecuteNodeAction
from weft.workflow import ExecuteData, Item, RunData, SourceData, TaskData, Workflow
from weft.workflow.items import SourceOverwrite


def _requester_source(execute_data: ExecuteData) -> SourceData | None:
    source = execute_data.get("source") or {}
    main = source.get("main") or []
    return main[0] if main else None


def _source_overwrite(execute_data: ExecuteData) -> SourceOverwrite | None:
    """The lineage tools inherit: the requester's own preserved lineage (nested agents), else its source."""
    preserved = (execute_data.get("metadata") or {}).get("preservedSourceOverwrite")
    if preserved:
        return dict(preserved)  # type: ignore[return-value]
    source = _requester_source(execute_data)
    if source is None:
        return None
    return {
        "previousNode": source["previousNode"],
        "previousNodeOutput": source.get("previousNodeOutput", 0) or 0,
        "previousNodeRun": source.get("previousNodeRun", 0) or 0,
    }


def handle_request(
    workflow: Workflow,
    *,
    requester: str,
    request: EngineRequest,
    run_index: int,
    execute_data: ExecuteData,
    run_data: RunData,
) -> list[ExecuteData]:
    """The stack entries for ``request``, in pop order: the requested nodes in request order, then the requester.

    Placeholder run records are written into ``run_data``. Raises :class:`WorkflowOperationError` for an empty
    request or an action naming a node the workflow does not have.
    """
    if not request.actions:
        raise WorkflowOperationError(
            f"Node {requester!r} sent an engine request with no actions; it must request at least one node "
            "or return its output.",
        )
    for action in request.actions:
        if action.node_name not in workflow.nodes:
            raise WorkflowOperationError(f'Workflow does not contain a node with the name of "{action.node_name}".')
    overwrite = _source_overwrite(execute_data)
    entries: list[ExecuteData] = []
    actions_meta: list[dict[str, Any]] = []
    for action in request.actions:
        entry, tool_run_index = _requested_entry(
            workflow, action, requester, run_index, execute_data, run_data, overwrite
        )
        if overwrite is not None:
            entry["metadata"] = {"preserveSourceOverwrite": True, "preservedSourceOverwrite": overwrite}
        if action.metadata.get("timeoutMs"):
            entry.setdefault("metadata", {})["timeoutMs"] = action.metadata["timeoutMs"]
        entries.append(entry)
        actions_meta.append({"nodeName": action.node_name, "runIndex": tool_run_index, "action": action.to_json()})
    if _requester_source(execute_data) is None:
        # n8n: "Cannot find parent node for subnode execution - request will be ignored"; the placeholders stay.
        return []
    entries.append(_resumed_requester(execute_data, run_index, request, actions_meta))
    return entries


def _requested_entry(
    workflow: Workflow,
    action: ExecuteNodeAction,
    requester: str,
    run_index: int,
    execute_data: ExecuteData,
    run_data: RunData,
    overwrite: SourceOverwrite | None,
) -> tuple[ExecuteData, int]:
    parent_name = action.metadata.get("parentNodeName") or requester
    parent_run = run_index if parent_name == requester else max(len(run_data.get(parent_name, [])) - 1, 0)
    item_index = int(action.metadata.get("itemIndex", 0) or 0)
    agent_items = (execute_data["data"].get("main") or [[]])[0] or []
    base = agent_items[item_index]["json"] if item_index < len(agent_items) else {}
    item: Item = {
        "json": {**base, **action.input, "toolCallId": action.id},
        "pairedItem": {"item": item_index, "input": 0},
    }
    if overwrite is not None:
        item["pairedItem"]["sourceOverwrite"] = overwrite  # type: ignore[index,call-overload]
    runs = run_data.setdefault(action.node_name, [])
    tool_run_index = len(runs)
    placeholder: TaskData = {
        "startTime": 0,
        "executionIndex": 0,
        "executionTime": 0,
        "source": [{"previousNode": parent_name, "previousNodeOutput": 0, "previousNodeRun": parent_run}],
        "inputOverride": {action.type: [[_copy_item(item)]]},
    }
    runs.append(placeholder)
    node_json = workflow.node_json(action.node_name)
    node_json["rewireOutputLogTo"] = action.type
    entry: ExecuteData = {
        "node": node_json,
        "data": {"main": [[item]]},
        "source": {"main": [{"previousNode": parent_name, "previousNodeOutput": 0, "previousNodeRun": parent_run}]},
        "runIndex": tool_run_index,
    }
    return entry, tool_run_index


def _copy_item(item: Item) -> Item:
    copied: dict[str, Any] = {"json": dict(item["json"])}
    if "pairedItem" in item:
        copied["pairedItem"] = dict(item["pairedItem"])  # type: ignore[arg-type]
    return copied  # type: ignore[return-value]


def _resumed_requester(
    execute_data: ExecuteData,
    run_index: int,
    request: EngineRequest,
    actions_meta: list[dict[str, Any]],
) -> ExecuteData:
    incoming = dict(execute_data.get("metadata") or {})
    metadata: dict[str, Any] = {
        "nodeWasResumed": True,
        "subNodeExecutionData": {"actions": actions_meta, "metadata": request.metadata},
    }
    if incoming.get("preserveSourceOverwrite") and incoming.get("preservedSourceOverwrite"):
        metadata["preserveSourceOverwrite"] = incoming["preserveSourceOverwrite"]
        metadata["preservedSourceOverwrite"] = incoming["preservedSourceOverwrite"]
    node_json = dict(execute_data["node"])
    return {
        "node": node_json,
        "data": {"main": [execute_data["data"].get("main", [[]])[0]]},
        "source": execute_data.get("source"),
        "runIndex": run_index,
        "metadata": metadata,
    }


def collect_action_responses(execute_data: ExecuteData, run_data: RunData) -> EngineResponse | None:
    """The :class:`EngineResponse` for a resumed requester, or ``None`` when the entry is not a resume."""
    sub = (execute_data.get("metadata") or {}).get("subNodeExecutionData")
    if not sub:
        return None
    responses: list[ActionResponse] = []
    for entry in sub.get("actions", []):
        runs = run_data.get(entry["nodeName"], [])
        if entry["runIndex"] < len(runs):
            responses.append(
                ActionResponse(action=ExecuteNodeAction.from_json(entry["action"]), data=runs[entry["runIndex"]])
            )
    return EngineResponse(action_responses=responses, metadata=dict(sub.get("metadata") or {}))
