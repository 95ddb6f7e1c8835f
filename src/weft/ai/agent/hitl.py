"""The agent's side of human approval (n8n's ``processHitlResponses``, run on each resume).

For every call of the last turn still waiting, the engine's response holds either the HITL node's answer or the
result of an ordinary (or an approved, gated) tool. :func:`absorb_responses` records each result at once, so
calls of one turn are answered independently: an approval schedules the gated tool (same tool-call id), a denial
becomes n8n's rejection message, any other result its observation. The model is called again only when every
call of the turn has its result (n8n drops the other results of a turn in which a call was approved; Weft keeps
them).
"""

from __future__ import annotations

from dataclasses import replace

from weft.ai.agent.state import ItemState, PendingCall
from weft.ai.agent.steps import observation_of
from weft.ai.hitl.core import denial_message, gated_action, hitl_decision
from weft.ai.messages import AIMessage
from weft.nodes.contract import EngineResponse
from weft.workflow.jsjson import js_json


def absorb_responses(state: ItemState, response: EngineResponse | None) -> bool:
    """Record the results in ``response`` on the item's pending calls; ``True`` when approved gated tools must run
    before the model is called again."""
    responses = {
        r.action.id: r
        for r in (response.action_responses if response is not None else [])
        if r.action.metadata.item_index == state.item_index
    }
    waiting = False
    for pending in state.pending:
        found = responses.get(pending.id)
        if pending.observation is not None or found is None:
            continue
        decision = hitl_decision(found)
        if decision is None:
            pending.observation = observation_of(found)
            pending.gated = None
        elif decision.approved:
            action = gated_action(decision, found.action.node_name, state.item_index)
            pending.gated = action.to_json()
            pending.replay = dict(action.input)
            waiting = True
        else:
            pending.observation = js_json([{"output": denial_message(decision)}])
            pending.replay = dict(found.action.input)
    return waiting


def replay_in_messages(state: ItemState, pending: PendingCall) -> None:
    """Show the model the arguments a gated call ran with (n8n rebuilds the AI message from the action)."""
    if pending.replay is None:
        return
    for index in range(len(state.messages) - 1, -1, -1):
        message = state.messages[index]
        if isinstance(message, AIMessage) and any(c.id == pending.id for c in message.tool_calls):
            calls = [replace(c, args=dict(pending.replay)) if c.id == pending.id else c for c in message.tool_calls]
            state.messages[index] = replace(message, tool_calls=calls)
            return


__all__ = ["absorb_responses", "replay_in_messages"]
