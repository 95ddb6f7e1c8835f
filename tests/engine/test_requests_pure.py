"""``handle_request`` as a pure function, after n8n's ``requests-response.test.ts``."""

from __future__ import annotations

import pytest

from weft.engine.requests import collect_action_responses, handle_request
from weft.errors import WorkflowOperationError
from weft.nodes import EngineRequest, ExecuteNodeAction
from weft.nodes.contract import ActionMetadata
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Workflow


def _wf(order: str = "v1") -> Workflow:
    return Workflow.from_json(
        workflow(
            node("Start", "n8n-nodes-base.manualTrigger"),
            node("AI Agent", "weft.test.requester"),
            node("Tool A", "weft.test.echo"),
            node("Tool B", "weft.test.echo"),
            node("Tool C", "weft.test.echo"),
            connect("Start", "AI Agent"),
            executionOrder=order,
        )
    )


def _agent_entry(items=None, source=None, metadata=None):
    entry = {
        "node": {"name": "AI Agent", "type": "weft.test.requester"},
        "data": {"main": [items or [{"json": {"query": "old", "existingData": "x"}}]]},
        "source": {"main": [source or {"previousNode": "Start", "previousNodeOutput": 0, "previousNodeRun": 0}]},
    }
    if metadata:
        entry["metadata"] = metadata
    return entry


def _request(*names, metadata=None):
    actions = [
        ExecuteNodeAction(
            node_name=n, input={"query": "new"}, id=f"call_{i}", metadata=ActionMetadata.from_json(metadata)
        )
        for i, n in enumerate(names)
    ]
    return EngineRequest(actions=actions, metadata={"requestId": "r1"})


def _handle(request, entry=None, run_data=None):
    return handle_request(
        _wf(),
        requester="AI Agent",
        request=request,
        run_index=0,
        execute_data=entry or _agent_entry(),
        run_data={} if run_data is None else run_data,
    )


def test_unknown_node_is_rejected_with_n8ns_message():
    with pytest.raises(WorkflowOperationError, match='Workflow does not contain a node with the name of "Nope"'):
        _handle(_request("Nope"))


def test_empty_request_is_rejected():
    with pytest.raises(WorkflowOperationError, match="no actions"):
        _handle(EngineRequest(actions=[]))


def test_tool_item_merges_agent_item_action_input_and_tool_call_id():
    entries = _handle(_request("Tool A"))
    assert entries[0]["data"]["main"][0][0]["json"] == {"query": "new", "existingData": "x", "toolCallId": "call_0"}


def test_item_index_selects_the_agent_input_item():
    entry = _agent_entry(items=[{"json": {"id": 1}}, {"json": {"id": 2}}])
    entries = _handle(_request("Tool A", metadata={"itemIndex": 1}), entry=entry)
    assert entries[0]["data"]["main"][0][0]["json"]["id"] == 2


def test_tools_come_in_request_order_then_the_resumed_requester():
    entries = _handle(_request("Tool A", "Tool B", "Tool C"))
    assert [e["node"]["name"] for e in entries] == ["Tool A", "Tool B", "Tool C", "AI Agent"]


def test_parent_output_index_is_zero_even_from_a_switch_output_2():
    source = {"previousNode": "Switch", "previousNodeOutput": 2, "previousNodeRun": 0}
    entries = _handle(_request("Tool A"), entry=_agent_entry(source=source))
    assert entries[0]["data"]["main"][0][0]["pairedItem"]["input"] == 0
    assert entries[0]["metadata"]["preservedSourceOverwrite"]["previousNodeOutput"] == 2


def test_tools_get_preserved_source_overwrite_from_the_agent_source():
    entries = _handle(_request("Tool A"))
    overwrite = {"previousNode": "Start", "previousNodeOutput": 0, "previousNodeRun": 0}
    assert entries[0]["metadata"] == {"preserveSourceOverwrite": True, "preservedSourceOverwrite": overwrite}
    assert entries[0]["data"]["main"][0][0]["pairedItem"]["sourceOverwrite"] == overwrite


def test_existing_preserved_source_overwrite_is_propagated_unchanged():
    preserved = {"previousNode": "Process Quotes", "previousNodeOutput": 0, "previousNodeRun": 0}
    meta = {"preserveSourceOverwrite": True, "preservedSourceOverwrite": preserved}
    entries = _handle(_request("Tool A"), entry=_agent_entry(metadata=meta))
    assert entries[0]["metadata"]["preservedSourceOverwrite"] == preserved
    assert entries[-1]["metadata"]["preservedSourceOverwrite"] == preserved


def test_requester_reentry_carries_resume_metadata_without_preserve_fields_by_default():
    entries = _handle(_request("Tool A"))
    meta = entries[-1]["metadata"]
    assert meta["nodeWasResumed"] is True
    assert meta["subNodeExecutionData"]["metadata"] == {"requestId": "r1"}
    assert meta["subNodeExecutionData"]["actions"][0]["nodeName"] == "Tool A"
    assert "preserveSourceOverwrite" not in meta
    assert entries[-1]["runIndex"] == 0


def test_placeholder_run_is_reserved_per_tool_with_input_override_and_source():
    run_data: dict = {"Tool A": [{"startTime": 1, "executionIndex": 3, "executionTime": 1, "source": []}]}
    entries = _handle(_request("Tool A"), run_data=run_data)
    placeholder = run_data["Tool A"][1]
    assert entries[0]["runIndex"] == 1
    assert "toolCallId" not in placeholder["inputOverride"]["ai_tool"][0][0]["json"]  # n8n shows the arguments
    assert placeholder["source"] == [{"previousNode": "AI Agent", "previousNodeOutput": 0, "previousNodeRun": 0}]
    assert "data" not in placeholder and "executionStatus" not in placeholder


def test_requester_without_parent_gets_no_entries_but_placeholders_stay():
    entry = _agent_entry()
    entry["source"] = None
    run_data: dict = {}
    assert _handle(_request("Tool A"), entry=entry, run_data=run_data) == []
    assert "inputOverride" in run_data["Tool A"][0]


def test_collect_action_responses_reads_the_reserved_runs():
    run_data: dict = {}
    entries = _handle(_request("Tool A", "Tool B"), run_data=run_data)
    run_data["Tool A"][0]["data"] = {"ai_tool": [[{"json": {"r": "a"}}]]}
    run_data["Tool B"][0]["data"] = {"ai_tool": [[{"json": {"r": "b"}}]]}
    response = collect_action_responses(entries[-1], run_data)
    assert response is not None
    assert [r.items[0]["json"]["r"] for r in response.action_responses] == ["a", "b"]
    assert response.metadata == {"requestId": "r1"}
    assert collect_action_responses(_agent_entry(), run_data) is None
