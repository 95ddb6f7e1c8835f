"""Tool results and intermediate steps in n8n's shapes.

* The tool message the model gets is the JSON of the tool's output items' ``json`` (``[{"response":"83810205"}]``),
  or ``{"error", "errorType"}`` when the tool left only an error, or ``""`` (n8n's ``buildSteps``).
* n8n re-sends each tool call's arguments with an extra ``"id"`` (the call id); :func:`as_sent` does the same.
* An intermediate step is ``{action: {tool, toolInput, toolCallId, log, messageLog, type}, observation}``.
"""

from __future__ import annotations

from typing import Any

from weft.ai.messages import AIMessage, Message, ToolCall
from weft.nodes.contract import ActionResponse
from weft.workflow.jsjson import js_json


def observation_of(response: ActionResponse | None) -> str:
    """What the model is told a tool returned."""
    if response is None:
        return js_json("")
    items = [item.get("json") for item in response.items]
    if items:
        return js_json(items)
    error = response.data.get("error")
    if error:
        info: dict[str, Any] = {"error": error.get("message") or "Unknown error"}
        if error.get("name"):
            info["errorType"] = error["name"]
        return js_json(info)
    return js_json("")


def args_with_id(call: ToolCall) -> dict[str, Any]:
    """The arguments n8n replays: the call's ``id`` added, over an argument of that name (recorded: case a239)."""
    return {**call.args, "id": call.id}


def as_sent(messages: list[Message]) -> list[Message]:
    """``messages`` as n8n sends them to the model: tool-call arguments carry the call ``id`` too."""
    out: list[Message] = []
    for message in messages:
        if isinstance(message, AIMessage) and message.tool_calls:
            calls = [ToolCall(id=c.id, name=c.name, args=args_with_id(c)) for c in message.tool_calls]
            out.append(AIMessage(content=message.content, tool_calls=calls))
        else:
            out.append(message)
    return out


def intermediate_step(call: ToolCall, observation: str) -> dict[str, Any]:
    """One entry of ``intermediateSteps``."""
    tool_input = args_with_id(call)
    log = f"Calling {call.name} with input: {js_json(tool_input)}"
    message_log = {
        "type": "ai",
        "content": log,
        "tool_calls": [{"id": call.id, "name": call.name, "args": tool_input, "type": "tool_call"}],
    }
    return {
        "action": {
            "tool": call.name,
            "toolInput": dict(call.args),
            "log": log,
            "messageLog": [message_log],
            "toolCallId": call.id,
            "type": "tool_call",
        },
        "observation": observation,
    }


__all__ = ["args_with_id", "as_sent", "intermediate_step", "js_json", "observation_of"]
