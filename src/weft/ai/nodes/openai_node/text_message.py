"""Text → Message a Model (typeVersions 1 to 1.8): ``POST /chat/completions`` with the node's messages, the
connected tools run in a loop until the model stops calling them (n8n's ``text/message.operation``)."""

from __future__ import annotations

import json
from typing import Any

from weft.ai.nodes.openai_node._params import collection_values, model_id, options, require_prompt, without_none
from weft.ai.nodes.openai_node.tools import call_tool, chat_tool, node_tools
from weft.ai.nodes.openai_node.transport import OpenAiTransport
from weft.nodes.contract import ExecuteContext, ToolSpec
from weft.workflow import Item

JSON_SYSTEM_MESSAGE = "You are a helpful assistant designed to output JSON."


def _messages(ctx: ExecuteContext, item_index: int) -> list[dict[str, Any]]:
    entries = collection_values(ctx, "messages", item_index, [{"content": ""}])
    return [{"content": entry.get("content", ""), "role": entry.get("role", "user")} for entry in entries]


def _request_options(ctx: ExecuteContext, item_index: int) -> dict[str, Any]:
    """The options as sent: ``maxTokens`` as ``max_completion_tokens``, ``topP`` as ``top_p``, the rest as named."""
    sent = options(ctx, item_index)
    sent.pop("maxToolsIterations", None)
    if "maxTokens" in sent:
        sent["max_completion_tokens"] = sent.pop("maxTokens")
    if "topP" in sent:
        sent["top_p"] = sent.pop("topP")
    return sent


async def execute(ctx: ExecuteContext, transport: OpenAiTransport, item_index: int) -> list[Item]:
    version = float(ctx.node.typeVersion)
    messages = _messages(ctx, item_index)
    require_prompt(ctx, item_index, [m["content"] for m in messages])
    json_output = ctx.get_node_parameter("jsonOutput", item_index, False) is True
    max_iterations = int(options(ctx, item_index).get("maxToolsIterations", 15)) if version >= 1.5 else 0
    if json_output:
        messages = [{"role": "system", "content": JSON_SYSTEM_MESSAGE}, *messages]
    model = model_id(ctx, item_index)
    tools = await node_tools(ctx, item_index, model)
    body = without_none(
        {
            "model": model,
            "messages": messages,
            "tools": [chat_tool(t) for t in tools] or None,
            "response_format": {"type": "json_object"} if json_output else None,
            **_request_options(ctx, item_index),
        }
    )
    response = await transport.request(item_index, "POST", "/chat/completions", body)
    if not response:
        return []
    response = await _tool_loop(ctx, transport, item_index, body, response, tools, max_iterations)
    if json_output:
        for choice in response.get("choices") or []:
            message = choice.get("message") or {}
            try:
                message["content"] = json.loads(message.get("content") or "")
            except (TypeError, ValueError):
                pass
    if ctx.get_node_parameter("simplify", item_index, True):
        return [{"json": choice, "pairedItem": {"item": item_index}} for choice in response.get("choices") or []]
    return [{"json": response, "pairedItem": {"item": item_index}}]


async def _tool_loop(
    ctx: ExecuteContext,
    transport: OpenAiTransport,
    item_index: int,
    body: dict[str, Any],
    response: Any,
    tools: list[ToolSpec],
    max_iterations: int,
) -> Any:
    """Answer the model's tool calls and ask again, at most ``max_iterations`` times (0: no limit)."""
    iteration = 1
    while calls := _tool_calls(response):
        ctx.check_cancelled()
        if max_iterations > 0 and iteration >= max_iterations:
            break
        body["messages"].append(response["choices"][0]["message"])
        for call in calls:
            function = call.get("function") or {}
            output = await call_tool(tools, str(function.get("name")), str(function.get("arguments") or "{}"))
            body["messages"].append(without_none({"tool_call_id": call.get("id"), "role": "tool", "content": output}))
        response = await transport.request(item_index, "POST", "/chat/completions", body)
        iteration += 1
    return response


def _tool_calls(response: Any) -> list[dict[str, Any]]:
    choices = response.get("choices") if isinstance(response, dict) else None
    message = (choices[0].get("message") if choices else None) or {}
    return list(message.get("tool_calls") or [])


__all__ = ["JSON_SYSTEM_MESSAGE", "execute"]
