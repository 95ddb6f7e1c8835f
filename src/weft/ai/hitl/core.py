"""What the agent and every HITL node type share (n8n's ``createHitlToolkit``, ``createEngineRequests`` and
``processHitlResponses``).

A ``<X>HitlTool`` node gates the tools connected into its ``ai_tool`` input:

1. :func:`gated_tools` offers each gated tool under its own name and description, with the schema
   ``{toolParameters: <the tool's schema>, hitlParameters: <the HITL node's $fromAI schema>}``;
2. the agent turns a call into an action for the HITL node (:func:`hitl_action_input`), with action metadata
   ``hitl: {gatedToolNodeName, toolName, originalInput}``;
3. the HITL node asks a human and waits; the human's answer becomes its ``ai_tool`` output, e.g.
   ``{data: {approved: true}}`` (:func:`approval_item`);
4. back in the agent, :func:`hitl_decision` reads that answer: approved → the gated tool runs through the engine
   (:func:`gated_action`, same tool-call id, re-parented under the HITL node); denied → the model gets
   :func:`denial_message` (with the approver's feedback, when they wrote one).

Beyond n8n: an approval may carry edited arguments (``toolParameters`` next to ``approved``); the edited
arguments are what run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from weft.nodes.connected_tools import flatten_supplied
from weft.nodes.contract import ActionMetadata, ActionResponse, ExecuteNodeAction, SupplyDataContext, ToolSpec
from weft.nodes.node_tool import tool_schema
from weft.workflow import AI_TOOL, Item

HITL_SUFFIX = "HitlTool"
"""n8n names a HITL node type ``<send-and-wait node type>HitlTool`` (``isHitlToolType``)."""

TOOL_PARAMETERS = "toolParameters"
HITL_PARAMETERS = "hitlParameters"


def is_hitl_type(type_name: str) -> bool:
    """Whether ``type_name`` is a HITL tool type (``…HitlTool``)."""
    return type_name.endswith(HITL_SUFFIX)


def hitl_parameters_schema(ctx: SupplyDataContext) -> dict[str, Any]:
    """The HITL node's own ``$fromAI`` arguments, without ``toolParameters`` and ``tool`` (n8n's ``omit``)."""
    schema = tool_schema(ctx.node)
    properties = {k: v for k, v in schema.get("properties", {}).items() if k not in (TOOL_PARAMETERS, "tool")}
    result: dict[str, Any] = {"type": "object", "properties": properties}
    required = [k for k in schema.get("required", []) if k in properties]
    if required:
        result["required"] = required
    result["additionalProperties"] = False
    return result


async def gated_tools(ctx: SupplyDataContext) -> list[ToolSpec]:
    """The tools connected into the HITL node, each gated by it (n8n's ``createHitlToolkit``)."""
    supplied = flatten_supplied(await ctx.get_input_connection_data(AI_TOOL, 0))  # in connection order
    hitl_schema = {**hitl_parameters_schema(ctx), "description": "Parameters for the Human-in-the-Loop layer"}
    gated: list[ToolSpec] = []
    for spec in supplied:
        if not isinstance(spec, ToolSpec):
            continue
        schema = {
            "type": "object",
            "properties": {
                TOOL_PARAMETERS: {**_nested(spec.parameters), "description": "Input parameters for the tool"},
                HITL_PARAMETERS: hitl_schema,
            },
            "required": [TOOL_PARAMETERS, HITL_PARAMETERS],
            "additionalProperties": False,
            "$schema": "http://json-schema.org/draft-07/schema#",  # zod-to-json-schema's (recorded: a240)
        }
        gated.append(
            ToolSpec(
                name=spec.name,
                description=spec.description,
                parameters=schema,
                source_node_name=ctx.node.name,
                kind="gated",
                gated_node_name=spec.source_node_name,
                timeout_ms=None,
            )
        )
    return gated


def _nested(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A tool's schema inside the gated one: without its own ``$schema``."""
    return {k: v for k, v in schema.items() if k != "$schema"}


def hitl_action_input(tool_name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The HITL node's input for a call: ``{toolParameters, tool, ...hitlParameters}`` as n8n builds it."""
    hitl = args.get(HITL_PARAMETERS)
    data: dict[str, Any] = {k: v for k, v in args.items() if k != HITL_PARAMETERS}
    data["tool"] = tool_name
    if isinstance(hitl, Mapping):
        data.update(hitl)
    data[TOOL_PARAMETERS] = args.get(TOOL_PARAMETERS)
    return data


def hitl_metadata(spec: ToolSpec, tool_name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The action metadata n8n adds to a HITL action (``hitl`` and ``toolName``)."""
    return {
        "hitl": {
            "gatedToolNodeName": spec.gated_node_name,
            "toolName": tool_name,
            "originalInput": args.get(TOOL_PARAMETERS),
        },
        "toolName": tool_name,
    }


@dataclass(frozen=True, kw_only=True)
class HitlDecision:
    """What the human answered to one HITL action."""

    approved: bool
    gated_node_name: str
    tool_name: str
    tool_call_id: str
    original_input: Any
    run_input: Any
    """What the gated tool runs with: the original arguments, or the approver's edited ones."""
    feedback: str | None = None
    """The approver's free-text answer (n8n's ``chatInput``)."""

    @property
    def edited(self) -> bool:
        return bool(self.run_input != self.original_input)


def _response_json(response: ActionResponse) -> Mapping[str, Any]:
    items = response.items
    json = items[0].get("json") if items else None
    return json if isinstance(json, Mapping) else {}


def hitl_decision(response: ActionResponse) -> HitlDecision | None:
    """The human's answer in a HITL action's response; ``None`` for a response of any other action."""
    hitl = response.action.metadata.extra.get("hitl")
    if not isinstance(hitl, Mapping):
        return None
    json = _response_json(response)
    data = json.get("data")
    nested: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
    approval: Mapping[str, Any] = json if isinstance(json.get("approved"), bool) else nested
    chat_input = json.get("chatInput", nested.get("chatInput"))
    original = hitl.get("originalInput")
    edited = approval.get(TOOL_PARAMETERS)
    return HitlDecision(
        approved=approval.get("approved") is True,
        gated_node_name=str(hitl.get("gatedToolNodeName")),
        tool_name=str(hitl.get("toolName")),
        tool_call_id=response.action.id,
        original_input=original,
        run_input=edited if isinstance(edited, Mapping) else original,
        feedback=chat_input if isinstance(chat_input, str) and chat_input else None,
    )


def gated_input(decision: HitlDecision) -> dict[str, Any]:
    """The gated tool's input after an approval: ``{tool, ...arguments}`` (``{tool, input}`` for a non-object)."""
    if isinstance(decision.run_input, Mapping):
        return {"tool": decision.tool_name, **decision.run_input}
    return {"tool": decision.tool_name, "input": decision.run_input}


def gated_action(decision: HitlDecision, hitl_node_name: str, item_index: int) -> ExecuteNodeAction:
    """The action that runs the approved tool: same tool-call id, its run re-parented under the HITL node."""
    return ExecuteNodeAction(
        node_name=decision.gated_node_name,
        input=gated_input(decision),
        id=decision.tool_call_id,
        type=AI_TOOL,
        metadata=ActionMetadata(item_index=item_index, parent_node_name=hitl_node_name),
    )


def denial_message(decision: HitlDecision) -> str:
    """n8n's observation for a denied call (``getDenialMessage``), with the approver's feedback if any."""
    name, call_id = decision.gated_node_name, decision.tool_call_id
    if decision.feedback:
        first = (
            f"The user reviewed your planned tool call to {name} (id: {call_id}) and provided feedback: "
            f'"{decision.feedback}".'
        )
    else:
        first = (
            f"User rejected the tool call to {name} (id: {call_id}). "
            "STOP what you are doing and wait for the user to tell you how to proceed."
        )
    return f"{first} The tool is still available if needed."


def request_parts(request: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """The query and the body of a resume request (``{headers, params, query, body}``)."""
    query, body = request.get("query"), request.get("body")
    return (query if isinstance(query, Mapping) else {}), (body if isinstance(body, Mapping) else {})


def approval_from_request(request: Mapping[str, Any]) -> Item | None:
    """A link's answer (``?approved=true|false``, edited ``toolParameters`` in the body), or ``None``."""
    query, body = request_parts(request)
    if query.get("approved") not in ("true", "false"):
        return None
    edited = body.get(TOOL_PARAMETERS)
    return approval_item(query["approved"] == "true", edited=edited if isinstance(edited, Mapping) else None)


def approval_item(approved: bool, *, edited: Mapping[str, Any] | None = None, now: datetime | None = None) -> Item:
    """A send-and-wait approval answer as n8n's ``sendAndWaitWebhook`` outputs it: ``{data: {approved,
    respondedAt}}``; ``edited`` arguments (beyond n8n) ride along as ``data.toolParameters``."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    data: dict[str, Any] = {"approved": approved, "respondedAt": moment.isoformat(timespec="milliseconds")}
    data["respondedAt"] = data["respondedAt"].replace("+00:00", "Z")
    if approved and edited is not None:
        data[TOOL_PARAMETERS] = dict(edited)
    return {"json": {"data": data}}


__all__ = [
    "HITL_PARAMETERS",
    "HITL_SUFFIX",
    "TOOL_PARAMETERS",
    "HitlDecision",
    "approval_from_request",
    "approval_item",
    "denial_message",
    "gated_action",
    "gated_input",
    "gated_tools",
    "hitl_action_input",
    "hitl_decision",
    "hitl_metadata",
    "hitl_parameters_schema",
    "is_hitl_type",
    "request_parts",
]
