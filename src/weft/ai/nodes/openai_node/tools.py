"""The tools connected to the OpenAI node's Tools input, and how it calls them (n8n's ``getConnectedTools`` and
the tool loop of the Message a Model / Message a Model (Responses) operations)."""

from __future__ import annotations

import json
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.connected_tools import connected_tools
from weft.nodes.contract import ExecuteContext, ToolSpec
from weft.workflow.jsjson import js_json

#: n8n's ``MODELS_NOT_SUPPORT_FUNCTION_CALLS``: with these models (from typeVersion 1.2) the hidden ``hideTools``
#: parameter is shown, with its value ``hide``, and the node has no Tools input.
MODELS_WITHOUT_TOOLS = frozenset(
    (
        "gpt-3.5-turbo-16k-0613 dall-e-3 text-embedding-3-large dall-e-2 whisper-1 tts-1-hd-1106 tts-1-hd "
        "gpt-4-0314 text-embedding-3-small gpt-4-32k-0314 gpt-3.5-turbo-0301 gpt-4-vision-preview gpt-3.5-turbo-16k "
        "gpt-3.5-turbo-instruct-0914 tts-1 davinci-002 gpt-3.5-turbo-instruct babbage-002 tts-1-1106 "
        "text-embedding-ada-002"
    ).split()
)


def tools_hidden(version: float, model: str) -> bool:
    """Whether ``hideTools`` is ``hide`` (displayed, so at its only value) for this version and model."""
    return version >= 1.2 and model in MODELS_WITHOUT_TOOLS


async def node_tools(ctx: ExecuteContext, item_index: int, model: str) -> list[ToolSpec]:
    """The connected tools, unless the model hides them; a tool this node cannot run itself is an error naming
    it."""
    if tools_hidden(float(ctx.node.typeVersion), model):
        return []
    tools = await connected_tools(ctx, "the OpenAI node's Tools input")
    for spec in tools:
        if spec.invoke is None:
            raise NodeOperationError(
                ctx.node.name,
                f"The tool '{spec.name}' cannot be run by the OpenAI node",
                description="Connect it to an AI Agent instead, or use a tool that runs inline.",
                item_index=item_index,
            )
    return tools


def chat_tool(spec: ToolSpec) -> dict[str, Any]:
    """``formatToOpenAIAssistantTool``: a Chat Completions function tool."""
    function = {"name": spec.name, "description": spec.description, "parameters": spec.parameters}
    return {"type": "function", "function": function}


def responses_tool(spec: ToolSpec) -> dict[str, Any]:
    """``formatToOpenAIResponsesTool``: strict when every property is required."""
    schema = dict(spec.parameters)
    required = schema.get("required")
    properties = schema.get("properties")
    strict = isinstance(required, list) and isinstance(properties, dict) and all(p in required for p in properties)
    if strict and schema.get("additionalProperties") == {}:
        schema["additionalProperties"] = False
    return {
        "type": "function",
        "name": spec.name,
        "parameters": schema,
        "strict": strict,
        "description": spec.description,
    }


async def call_tool(tools: list[ToolSpec], name: str, arguments: str) -> Any:
    """The output of the tool the model called (``None`` for a tool that is not connected): its arguments'
    ``input`` or the arguments themselves; an object answer as its JSON text."""
    result: Any = None
    for spec in tools:
        if spec.name == name and spec.invoke is not None:
            try:
                parsed = json.loads(arguments)
            except ValueError:
                parsed = arguments
            value = parsed.get("input", parsed) if isinstance(parsed, dict) else parsed
            result = await spec.invoke(value if isinstance(value, dict) else {"input": value})
    if isinstance(result, dict | list):
        return js_json(result)
    return result


__all__ = ["MODELS_WITHOUT_TOOLS", "call_tool", "chat_tool", "node_tools", "responses_tool", "tools_hidden"]
