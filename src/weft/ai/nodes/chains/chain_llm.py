"""``@n8n/n8n-nodes-langchain.chainLlm``: the Basic LLM Chain, typeVersions 1 to 1.9 (n8n's ``ChainLlm.node.ts``
and ``methods/``).

Each input item is one model call: the chat messages and the user's text (:mod:`._chain_prompt`), with the
output parser's format instructions when one is connected and ``hasOutputParser`` allows it (the option exists
from 1.2, except in 1.3; without it a connected parser is used). The answer becomes the item (``formatResponse``):
a text ``{text}`` (trimmed), a parsed object as it is (from 1.6, or with a parser) or ``{text: <its JSON>}``,
a list ``{data}``. A parser that returns a list (the Item List parser) gives one item per entry. Items carry no
``pairedItem``; the engine pairs them where it can, as n8n's does.

From 1.7 the items run ``batching.batchSize`` at a time (5 by default), concurrently inside a batch
(:mod:`._batches`); before, one after the other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from weft.ai.errors import ChatModelError
from weft.ai.messages import Message
from weft.ai.models.base import ChatModel
from weft.ai.nodes.chains._batches import Batching, run_in_batches
from weft.ai.nodes.chains._chain_prompt import chain_messages, prompt_text
from weft.ai.nodes.chains._common import connected_models, error_item, item_error
from weft.ai.nodes.chains._schema_parser import OutputParserException
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_LANGUAGE_MODEL, AI_OUTPUT_PARSER, MAIN, Item, NodeOutput
from weft.workflow.jsjson import js_json

CHAIN_VERSIONS: tuple[float, ...] = (1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9)
#: The versions whose description hides ``hasOutputParser`` and ``needsFallback`` (n8n reads their defaults).
_WITHOUT_OPTIONS = (1, 1.1, 1.3)


class ChainParser(Protocol):
    """What a connected output parser supplies to the chain."""

    def format_instructions(self) -> str: ...

    async def parse(self, text: str) -> Any: ...


def _inputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """n8n's ``getInputs``: the Fallback Model input with ``needsFallback``, the parser unless turned off."""
    inputs = [MAIN, AI_LANGUAGE_MODEL]
    if parameters.get("needsFallback") is True:
        inputs.append(AI_LANGUAGE_MODEL)
    if parameters.get("hasOutputParser") in (None, True):
        inputs.append(AI_OUTPUT_PARSER)
    return tuple(inputs)


class ChainLlm(NodeType):
    """Basic LLM Chain: prompt a chat model once per item."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.chainLlm",
        display_name="Basic LLM Chain",
        versions=CHAIN_VERSIONS,
        description="A simple chain to prompt a large language model",
        inputs=_inputs,
        outputs=(MAIN,),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        has_parser = version in _WITHOUT_OPTIONS or ctx.get_node_parameter("hasOutputParser", 0, False) is True
        connected = await _parser(ctx, 0, has_parser)  # read first, as n8n does: a failing parser fails the node
        chain = _Chain(ctx=ctx, has_parser=has_parser, unwrap=version >= 1.6 or connected is not None)
        items = ctx.get_input_data()
        batching = Batching.of(ctx, "batching", enabled=version >= 1.7)
        output: list[Item] = []

        def read(index: int, result: list[Any] | Exception) -> None:
            if isinstance(result, Exception):
                error = item_error(ctx, result, index, enrich=True)
                if not ctx.continue_on_fail():
                    raise error
                output.append(error_item(error, index))
                return
            output.extend({"json": format_response(r, unwrap=chain.unwrap)} for r in result)

        await run_in_batches(len(items), batching, chain.answers, read)
        return [output]


@dataclass(frozen=True, kw_only=True)
class _Chain:
    ctx: ExecuteContext
    has_parser: bool
    unwrap: bool
    """Parsed objects are the item as they are (from 1.6, or with a parser), else ``{text: <JSON>}``."""

    async def answers(self, index: int) -> list[Any]:
        """The item's answers (``processItem`` + ``executeChain``)."""
        ctx = self.ctx
        version = float(ctx.node.typeVersion)
        models = await connected_models(ctx)
        wants_fallback = version not in _WITHOUT_OPTIONS and ctx.get_node_parameter("needsFallback", 0, False)
        if wants_fallback and len(models) < 2:
            raise NodeOperationError(
                ctx.node.name, "Please connect a model to the Fallback Model input or disable the fallback option"
            )
        parser = await _parser(ctx, index, self.has_parser)
        query = prompt_text(ctx, index)
        messages = await chain_messages(ctx, index, query, parser.format_instructions() if parser else None)
        text = await _generate(models[0], models[1] if wants_fallback else None, messages)
        if parser is not None:
            parsed = await parser.parse(text)
            return parsed if isinstance(parsed, list) else [parsed]
        return [_json_answer(text) if _answers_json(models[0]) else text]


async def _parser(ctx: ExecuteContext, index: int, has_parser: bool) -> ChainParser | None:
    """The connected output parser (n8n's ``getOptionalOutputParser``)."""
    if not has_parser:
        return None
    supplied = await ctx.get_input_connection_data(AI_OUTPUT_PARSER, index)
    return next((p for p in supplied if hasattr(p, "parse") and hasattr(p, "format_instructions")), None)


async def _generate(model: ChatModel, fallback: ChatModel | None, messages: list[Message]) -> str:
    """The model's answer text; the fallback model answers when the model fails (``withFallbacks``)."""
    try:
        response = await model.generate(messages, [])
    except ChatModelError:
        if fallback is None:
            raise
        response = await fallback.generate(messages, [])
    return response.message.content


def _answers_json(model: ChatModel) -> bool:
    """A model in JSON mode (OpenAI's ``response_format: json_object``): its answer is parsed as JSON."""
    inner = getattr(model, "inner", model)
    settings = getattr(inner, "settings", None)
    return getattr(settings, "response_format", None) == "json_object"


def _json_answer(text: str) -> Any:
    """``NaiveJsonOutputParser``: the text as JSON, or the JSON in its fenced block."""
    for candidate in (text, text.strip().removeprefix("```json").removeprefix("```").removesuffix("```")):
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    raise OutputParserException(text, "SyntaxError: the model's answer is not JSON")


def format_response(response: Any, *, unwrap: bool) -> dict[str, Any]:
    """n8n's ``formatResponse``: one answer as the output item's JSON."""
    if isinstance(response, str):
        return {"text": response.strip()}
    if isinstance(response, list):
        return {"data": response}
    if isinstance(response, dict):
        return response if unwrap else {"text": js_json(response)}
    return {"response": {"text": response}}


__all__ = ["CHAIN_VERSIONS", "ChainLlm", "format_response"]
