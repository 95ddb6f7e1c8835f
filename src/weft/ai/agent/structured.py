"""The agent's side of an output parser: the ``format_final_json_response`` tool, the formatting instructions,
and how the model's answer reaches the parser (n8n's ``getTools`` / ``prepareMessages`` / ``getAgentStepsParser``
in ``ToolsAgent/common.ts``, and ``finalizeResult``).

The tool is one the agent answers itself (``ToolSpec.kind == "answered"``): when the model calls it, its arguments
are the final answer, parsed by the parser; no node runs. A model that answers in text instead has its text
parsed, wrapped in ``{output: …}`` unless it already is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from weft.ai.messages import AIMessage, HumanMessage, Message, ToolCall, ToolMessage
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, ToolSpec
from weft.workflow import AI_OUTPUT_PARSER
from weft.workflow.jsjson import js_json

FORMAT_TOOL = "format_final_json_response"
FORMAT_TOOL_DESCRIPTION = (
    "Use this tool to format your final response to the user in a structured JSON format. This tool validates "
    "your output against a schema to ensure it meets the required format. ONLY use this tool when you have "
    "completed all necessary reasoning and are ready to provide your final answer. Do not use this tool for "
    "intermediate steps or for asking questions. The output from this tool will be directly returned to the user."
)
FORMATTING_INSTRUCTIONS = (
    "IMPORTANT: For your response to user, you MUST use the `format_final_json_response` tool with your complete "
    "answer formatted according to the required schema. Do not attempt to format the JSON manually - always use "
    "this tool. Your response will be rejected if it is not properly formatted through this tool. Only use this "
    "tool once you are ready to provide your final answer."
)
#: Keys n8n leaves out of the agent's output item (``finalizeResult``).
_OMITTED = ("system_message", "formatting_instructions", "input", "chat_history", "agent_scratchpad")


class OutputParser(Protocol):
    """What an output parser sub-node supplies (:class:`weft.ai.parsers.structured.StructuredOutputParser`)."""

    def tool_schema(self) -> dict[str, Any]: ...

    async def parse(self, text: str) -> Any: ...


async def output_parser(ctx: ExecuteContext) -> OutputParser | None:
    """The connected parser when ``hasOutputParser`` is on (n8n's ``getOptionalOutputParser``)."""
    if ctx.get_node_parameter("hasOutputParser", 0, False) is not True:
        return None
    supplied = await ctx.get_input_connection_data(AI_OUTPUT_PARSER, 0)
    return next((p for p in supplied if hasattr(p, "parse") and hasattr(p, "tool_schema")), None)


def format_tool(parser: OutputParser, ctx: ExecuteContext) -> ToolSpec:
    """``format_final_json_response``, offered after the connected tools."""
    return ToolSpec(
        name=FORMAT_TOOL,
        description=FORMAT_TOOL_DESCRIPTION,
        parameters=parser.tool_schema(),
        source_node_name=ctx.node.name,
        kind="answered",
    )


def with_instructions(system: str | None) -> str:
    """The system message with the formatting instructions (alone when the agent sends no system message)."""
    return FORMATTING_INSTRUCTIONS if system is None else f"{system}\n\n{FORMATTING_INSTRUCTIONS}"


async def from_tool_call(parser: OutputParser, arguments: Any) -> Any:
    """The parsed answer the model gave through the tool (its arguments, as ``JSON.stringify`` writes them)."""
    return await parser.parse(arguments if isinstance(arguments, str) else js_json(arguments))


async def from_text(parser: OutputParser, text: str) -> Any:
    """The parsed answer the model gave as text: JSON wrapped in ``{output}`` unless it is one already."""
    try:
        value = json.loads(text)
    except ValueError:
        return await parser.parse(text)
    if isinstance(value, dict) and list(value) == ["output"]:
        return await parser.parse(js_json(value))
    return await parser.parse(js_json({"output": value}))


#: :meth:`ParseRetries.parse`'s answer when the model is asked again.
RETRY: Any = object()


@dataclass(kw_only=True)
class ParseRetries:
    """Beyond n8n: the agent option ``outputParserRetries`` asks the model again, up to ``limit`` times, when its
    answer does not fit the schema, telling it why. Every attempt is a run of the model and of the parser."""

    limit: int = 0
    used: int = 0

    async def parse(
        self, parser: OutputParser, reply: AIMessage, call: ToolCall | None, messages: list[Message]
    ) -> Any:
        """The parsed answer, or :data:`RETRY` after adding the failed answer and its error to ``messages``."""
        try:
            if call is not None:
                return await from_tool_call(parser, call.args)
            return await from_text(parser, reply.content)
        except NodeOperationError as error:
            if self.used >= self.limit or "outputParserFailReason" not in error.context:
                raise
            self.used += 1
            messages.extend(_retry_messages(reply, call, error))
            return RETRY


def _retry_messages(reply: AIMessage, call: ToolCall | None, error: NodeOperationError) -> list[Message]:
    """The failed answer and what was wrong with it, as the model's turn and the answer to it."""
    reason = str(error.context["outputParserFailReason"])
    detail = getattr(error, "validation_error", None)
    text = f"{reason}{f': {detail}' if detail else ''}. Answer again, fitting the required schema."
    if call is not None:
        return [
            AIMessage(content=reply.content, tool_calls=[call]),
            ToolMessage(tool_call_id=call.id, name=call.name, content=text),
        ]
    return [AIMessage(content=reply.content), HumanMessage(content=text)]


def output_json(result: Any, *, with_memory: bool) -> dict[str, Any]:
    """The agent's output item for a parsed answer. With memory, n8n keeps the answer as JSON text in ``output``
    and parses it back (``finalizeResult``), which unwraps one ``output``."""
    if with_memory:
        inner = result.get("output", result) if isinstance(result, dict) else result
        return {"output": inner if inner is not None else result}
    if isinstance(result, list):  # n8n spreads the answer into the item: `{...returnValues}` (case a219)
        return {str(index): value for index, value in enumerate(result)}
    if not isinstance(result, dict):
        return {"output": result}
    return {k: v for k, v in result.items() if k not in _OMITTED}


def memory_text(result: Any) -> str:
    """What memory keeps of a parsed answer: its JSON (``handleParsedStepOutput``)."""
    return js_json(result)


__all__ = [
    "FORMATTING_INSTRUCTIONS",
    "FORMAT_TOOL",
    "RETRY",
    "OutputParser",
    "ParseRetries",
    "format_tool",
    "from_text",
    "from_tool_call",
    "memory_text",
    "output_json",
    "output_parser",
    "with_instructions",
]
