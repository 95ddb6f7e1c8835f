"""The HITL core as n8n's ``processHitlResponses`` tests it: the approval's two shapes, denial, feedback, non-HITL
responses, edited arguments, and the action that runs an approved tool."""

from __future__ import annotations

from typing import Any

from weft.ai.hitl.core import (
    approval_item,
    denial_message,
    gated_action,
    hitl_action_input,
    hitl_decision,
    hitl_metadata,
)
from weft.nodes.contract import ActionMetadata, ActionResponse, ExecuteNodeAction, ToolSpec

SPEC = ToolSpec(
    name="my_tool", description="d", parameters={}, source_node_name="HITL Node", kind="gated", gated_node_name="Tool"
)
ARGS = {"toolParameters": {"query": "test"}, "hitlParameters": {"channel": "c1"}}


def _response(json: dict[str, Any], *, hitl: bool = True) -> ActionResponse:
    extra = hitl_metadata(SPEC, "my_tool", ARGS) if hitl else {}
    action = ExecuteNodeAction(
        node_name="HITL Node",
        input=hitl_action_input("my_tool", ARGS),
        id="call_1",
        metadata=ActionMetadata(extra=extra),
    )
    return ActionResponse(action=action, data={"data": {"ai_tool": [[{"json": json}]]}})  # type: ignore[typeddict-item]


def test_the_hitl_action_input_spreads_the_hitl_parameters() -> None:
    assert hitl_action_input("my_tool", ARGS) == {
        "toolParameters": {"query": "test"},
        "tool": "my_tool",
        "channel": "c1",
    }
    assert hitl_metadata(SPEC, "my_tool", ARGS)["hitl"] == {
        "gatedToolNodeName": "Tool",
        "toolName": "my_tool",
        "originalInput": {"query": "test"},
    }


def test_approved_in_both_shapes_runs_the_tool_under_the_gate() -> None:
    for json in ({"approved": True}, {"data": {"approved": True}}):
        decision = hitl_decision(_response(json))
        assert decision is not None and decision.approved
        action = gated_action(decision, "HITL Node", 0)
        assert (action.node_name, action.id, action.input) == ("Tool", "call_1", {"tool": "my_tool", "query": "test"})
        assert action.metadata.parent_node_name == "HITL Node"


def test_a_response_of_another_action_is_no_decision() -> None:
    assert hitl_decision(_response({"approved": True}, hitl=False)) is None


def test_denial_and_feedback_messages_are_n8ns() -> None:
    denied = hitl_decision(_response({"data": {"approved": False}}))
    assert denied is not None and not denied.approved
    assert denial_message(denied) == (
        "User rejected the tool call to Tool (id: call_1). STOP what you are doing and wait for the user to tell you "
        "how to proceed. The tool is still available if needed."
    )
    feedback = hitl_decision(_response({"chatInput": "use order 41", "data": {"approved": False}}))
    assert feedback is not None
    assert denial_message(feedback) == (
        'The user reviewed your planned tool call to Tool (id: call_1) and provided feedback: "use order 41". '
        "The tool is still available if needed."
    )


def test_edited_arguments_are_what_runs() -> None:
    item = approval_item(True, edited={"query": "edited"})
    decision = hitl_decision(_response(item["json"]))
    assert decision is not None and decision.edited
    assert gated_action(decision, "HITL Node", 0).input == {"tool": "my_tool", "query": "edited"}
    assert decision.original_input == {"query": "test"}
