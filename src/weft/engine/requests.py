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

from weft.engine.entry_metadata import EntryMetadata, SubNodeExecution, SubNodeRun
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
    preserved = EntryMetadata.of(execute_data).preserved_source_overwrite
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
    runs: list[SubNodeRun] = []
    group = f"{requester}#{run_index}" if request.concurrent and len(request.actions) > 1 else None
    for action in request.actions:
        entry, tool_run_index = _requested_entry(
            workflow, action, requester, run_index, execute_data, run_data, overwrite
        )
        EntryMetadata(
            preserve_source_overwrite=overwrite is not None,
            preserved_source_overwrite=overwrite,  # type: ignore[arg-type]
            timeout_ms=action.metadata.timeout_ms,
            concurrent_group=group,
        ).write(entry)
        entries.append(entry)
        runs.append(SubNodeRun(node_name=action.node_name, run_index=tool_run_index, action=action))
    if _requester_source(execute_data) is None:
        # n8n: "Cannot find parent node for subnode execution - request will be ignored"; the placeholders stay.
        return []
    entries.append(_resumed_requester(execute_data, run_index, request, tuple(runs)))
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
    parent_name = action.metadata.parent_node_name or requester
    parent_run = run_index if parent_name == requester else max(len(run_data.get(parent_name, [])) - 1, 0)
    item_index = action.metadata.item_index
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
        # n8n shows the model's arguments only (its displayJson); the node's input is the merged item
        "inputOverride": {action.type: [[_copy_item({**item, "json": dict(action.input)})]]},
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
    runs: tuple[SubNodeRun, ...],
) -> ExecuteData:
    incoming = EntryMetadata.of(execute_data)
    keep = incoming.preserve_source_overwrite and bool(incoming.preserved_source_overwrite)
    node_json = dict(execute_data["node"])
    entry: ExecuteData = {
        "node": node_json,
        "data": {"main": [execute_data["data"].get("main", [[]])[0]]},
        "source": execute_data.get("source"),
        "runIndex": run_index,
    }
    EntryMetadata(
        node_was_resumed=True,
        sub_node_execution=SubNodeExecution(actions=runs, request_metadata=request.metadata),
        preserve_source_overwrite=keep,
        preserved_source_overwrite=incoming.preserved_source_overwrite if keep else None,
    ).write(entry)
    return entry


def collect_action_responses(execute_data: ExecuteData, run_data: RunData) -> EngineResponse | None:
    """The :class:`EngineResponse` for a resumed requester, or ``None`` when the entry is not a resume."""
    sub = EntryMetadata.of(execute_data).sub_node_execution
    if sub is None:
        return None
    responses: list[ActionResponse] = []
    for run in sub.actions:
        runs = run_data.get(run.node_name, [])
        if run.run_index < len(runs):
            responses.append(ActionResponse(action=run.action, data=runs[run.run_index]))
    return EngineResponse(action_responses=responses, metadata=dict(sub.request_metadata))
