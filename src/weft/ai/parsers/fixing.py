"""Auto-fixing: a parser that asks a model to fix an answer its inner parser refused (n8n's
``N8nOutputFixingParser``), used by the Structured Output Parser's ``autoFix`` option and by the Auto-fixing
Output Parser node (``outputParserAutofixing``).

As n8n: the fixing parser's own run records the answer and the final result; the inner parser records each of
its attempts; the model gets one human message, the fix prompt with ``{instructions}`` (the inner parser's format
instructions), ``{completion}`` (the refused answer) and ``{error}`` (why, worded as LangChain's exception, which
for a schema failure quotes zod's issues); it is asked once. The prompt must contain ``{error}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from weft.ai.messages import HumanMessage
from weft.ai.models.base import ChatModel
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext
from weft.workflow import AI_LANGUAGE_MODEL, AI_OUTPUT_PARSER

NAIVE_FIX_TEMPLATE = """Instructions:
--------------
{instructions}
--------------
Completion:
--------------
{completion}
--------------

Above, the Completion did not satisfy the constraints given in the Instructions.
Error:
--------------
{error}
--------------

Please try again. Please only respond with an answer that satisfies the constraints laid out in the Instructions:"""


class InnerParser(Protocol):
    def tool_schema(self) -> dict[str, Any]: ...

    def format_instructions(self) -> str: ...

    async def parse(self, text: str) -> Any: ...


@dataclass(frozen=True, kw_only=True)
class FixingParser:
    """What an auto-fixing parser supplies; the agent uses it as it uses the inner parser."""

    ctx: SupplyDataContext
    """The node whose runs record the fixing (the parser itself with ``autoFix``, else the Auto-fixing node)."""
    model: ChatModel
    inner: InnerParser
    prompt: str

    def tool_schema(self) -> dict[str, Any]:
        return self.inner.tool_schema()

    def format_instructions(self) -> str:
        return self.inner.format_instructions()

    async def parse(self, text: str) -> Any:
        run = self.ctx.add_input_data(AI_OUTPUT_PARSER, [[{"json": {"action": "parse", "text": text}}]])
        try:
            result = await self._parse(text)
        except BaseException as error:
            self.ctx.add_output_data(AI_OUTPUT_PARSER, run, error)
            raise
        self.ctx.add_output_data(AI_OUTPUT_PARSER, run, [[{"json": {"action": "parse", "response": result}}]])
        return result

    async def _parse(self, text: str) -> Any:
        try:
            return await self.inner.parse(text)
        except NodeOperationError as error:
            reason = getattr(error, "fix_message", None)
            if reason is None:
                raise
            prompt = _fill(self.prompt, instructions=self.inner.format_instructions(), completion=text, error=reason)
            reply = await self.model.generate([HumanMessage(content=prompt)], [])
            return await self.inner.parse(reply.message.content)


def _fill(template: str, **values: str) -> str:
    """LangChain's f-string template: ``{name}`` is a value, ``{{``/``}}`` a brace."""
    out: list[str] = []
    index = 0
    while index < len(template):
        char = template[index]
        if template.startswith("{{", index) or template.startswith("}}", index):
            out.append(char)
            index += 2
            continue
        if char == "{":
            end = template.find("}", index)
            name = template[index + 1 : end] if end != -1 else ""
            if name in values:
                out.append(values[name])
                index = end + 1
                continue
        out.append(char)
        index += 1
    return "".join(out)


async def fixing_parser(ctx: SupplyDataContext, inner: InnerParser, prompt: Any) -> FixingParser:
    """The fixing parser of node ``ctx`` around ``inner``, with the model connected to ``ctx``'s node."""
    if not isinstance(prompt, str) or "{error}" not in prompt:
        raise NodeOperationError(ctx.node.name, "Auto-fixing parser prompt has to contain {error} placeholder")
    models = [m for m in await ctx.get_input_connection_data(AI_LANGUAGE_MODEL, 0) if isinstance(m, ChatModel)]
    if not models:
        raise NodeOperationError(
            ctx.node.name,
            "A Chat Model sub-node must be connected and enabled",
            description="Connect a chat model to the parser's Model input: it fixes the answers that do not fit.",
        )
    return FixingParser(ctx=ctx, model=models[0], inner=inner, prompt=prompt)


class OutputParserAutofixing(NodeType):
    """Auto-fixing Output Parser (deprecated in n8n for the Structured Output Parser's ``autoFix``)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.outputParserAutofixing",
        display_name="Auto-fixing Output Parser",
        versions=(1,),
        description="Deprecated, use structured output parser",
        inputs=(AI_LANGUAGE_MODEL, AI_OUTPUT_PARSER),
        outputs=(AI_OUTPUT_PARSER,),
        defaults={"options": {}},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> FixingParser:
        parsers = await ctx.get_input_connection_data(AI_OUTPUT_PARSER, item_index)
        inner = next((p for p in parsers if hasattr(p, "parse") and hasattr(p, "format_instructions")), None)
        if inner is None:
            raise NodeOperationError(
                ctx.node.name,
                "An Output Parser sub-node must be connected",
                description="Connect the parser whose answers this one fixes to its Output Parser input.",
            )
        prompt = ctx.get_node_parameter("options.prompt", item_index, NAIVE_FIX_TEMPLATE)
        return await fixing_parser(ctx, inner, prompt)


__all__ = ["NAIVE_FIX_TEMPLATE", "FixingParser", "OutputParserAutofixing", "fixing_parser"]
