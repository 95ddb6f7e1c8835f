"""``@n8n/n8n-nodes-langchain.sentimentAnalysis``: Sentiment Analysis, typeVersions 1 and 1.1 (n8n's
``SentimentAnalysis.node.ts``).

One output per sentiment category (``options.categories``, comma-separated, "Positive, Neutral, Negative" by
default). The model answers ``{sentiment, strength, confidence}``; LangChain's structured parser reads it (fixed
once by the model when ``enableAutoFixing`` is set in the options), and the item, with ``sentimentAnalysis:
{category}`` added (and ``strength`` and ``confidence`` with ``includeDetailedResults``), goes to the output of its
category. Any failure of the model call or of the parsing reads "Error during parsing of LLM output"; an item
that fails goes to the first output when the node continues on fail. From 1.1 the items run in batches (5 by
default).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from weft.ai.messages import HumanMessage, SystemMessage
from weft.ai.models.base import ChatModel
from weft.ai.nodes.chains._batches import Batching, run_in_batches
from weft.ai.nodes.chains._common import connected_models, error_item
from weft.ai.nodes.chains._fstring import escape_braces, format_fstring
from weft.ai.nodes.chains._schema_parser import FixingSchemaParser, SchemaParser
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_LANGUAGE_MODEL, MAIN, Item, NodeOutput

SYSTEM_PROMPT_TEMPLATE = (
    "You are highly intelligent and accurate sentiment analyzer. Analyze the sentiment of the provided text. "
    "Categorize it into one of the following: {categories}. Use the provided formatting instructions. Only output "
    "the JSON."
)
DEFAULT_CATEGORIES = "Positive, Neutral, Negative"
PARSING_ERROR = "Error during parsing of LLM output, please check your LLM model and configuration"
_STRENGTH = "Strength score for sentiment in relation to the category"


def category_names(text: Any) -> list[str]:
    """The comma-separated categories, trimmed, empty ones left out."""
    return [name.strip() for name in str(text).split(",") if name.strip()]


def configured_outputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """n8n's ``configuredOutputs``: one output per category (empty names count, as in n8n)."""
    categories = (parameters.get("options") or {}).get("categories", DEFAULT_CATEGORIES)
    return (MAIN,) * len(str(categories).split(","))


class SentimentAnalysis(NodeType):
    """Sentiment Analysis: route each item by the sentiment of its text."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.sentimentAnalysis",
        display_name="Sentiment Analysis",
        versions=(1, 1.1),
        description="Analyze the sentiment of your text",
        inputs=(MAIN, AI_LANGUAGE_MODEL),
        outputs=configured_outputs,
        defaults={"inputText": "", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        model = (await connected_models(ctx))[0]
        batching = Batching.of(ctx, "options.batching", enabled=float(ctx.node.typeVersion) >= 1.1)
        analyzer = _Analyzer(ctx=ctx, model=model, tabs="\t\t\t\t" if batching.size > 1 else "\t\t\t")
        items = ctx.get_input_data()
        first = category_names(ctx.get_node_parameter("options.categories", 0, DEFAULT_CATEGORIES))
        outputs: list[list[Item]] = [[] for _ in first]

        def read(index: int, result: tuple[int, Item] | Exception | None) -> None:
            if isinstance(result, Exception):
                # n8n's batches fail as a whole on a missing text (its error escapes the item's handler)
                if not ctx.continue_on_fail() or (isinstance(result, MissingTextError) and batching.size > 1):
                    raise result
                outputs[0].append(error_item(result, index))
            elif result is not None:
                outputs[result[0]].append(result[1])

        await run_in_batches(len(items), batching, analyzer.analyze, read)
        return list(outputs)


class MissingTextError(NodeOperationError):
    """An item without text: n8n builds its message from nothing and fails with JavaScript's words."""

    def __init__(self, node_name: str, item_index: int) -> None:
        super().__init__(
            node_name,
            "Cannot read properties of undefined (reading 'additional_kwargs')",
            description=f"'Text to Analyze' is empty for item {item_index}: give every item a text to analyze.",
            item_index=item_index,
        )


@dataclass(frozen=True, kw_only=True)
class _Analyzer:
    ctx: ExecuteContext
    model: ChatModel
    tabs: str
    """Before ``{format_instructions}`` in the system prompt: n8n's two code paths indent it differently."""

    async def analyze(self, index: int) -> tuple[int, Item] | None:
        """``(output, item)`` for the item, or ``None`` when its sentiment is none of the categories."""
        ctx = self.ctx
        text = ctx.get_node_parameter("options.categories", index, DEFAULT_CATEGORIES)
        categories = category_names(text)
        if not categories:
            raise NodeOperationError(ctx.node.name, "No sentiment categories provided", item_index=index)
        options = ctx.get_node_parameter("options", index, {}) or {}
        parser = self._parser(categories, options)
        template = options.get("systemPromptTemplate")
        template = escape_braces(SYSTEM_PROMPT_TEMPLATE if template is None else str(template))
        template = template.replace("{{categories}}", "{categories}")
        values = {"categories": text, "format_instructions": parser.format_instructions()}
        system = format_fstring(f"{template}\n{self.tabs}{{format_instructions}}", values)
        human = ctx.get_node_parameter("inputText", index)
        if human is None:
            raise MissingTextError(ctx.node.name, index)
        try:
            reply = await self.model.generate([SystemMessage(content=system), HumanMessage(content=_text(human))], [])
            answer = await parser.parse(reply.message.content)
        except Exception as error:
            raise NodeOperationError(ctx.node.name, PARSING_ERROR, item_index=index) from error
        return self._routed(index, categories, answer, options)

    def _parser(self, categories: list[str], options: Mapping[str, Any]) -> SchemaParser | FixingSchemaParser:
        bounded = {"type": "number", "minimum": 0, "maximum": 1}
        schema = {
            "type": "object",
            "properties": {
                "sentiment": {"type": "string", "enum": categories},
                "strength": {**bounded, "description": _STRENGTH},
                "confidence": bounded,
            },
            "required": ["sentiment", "strength", "confidence"],
        }
        parser = SchemaParser(schema=schema)
        return FixingSchemaParser(parser=parser, model=self.model) if options.get("enableAutoFixing") else parser

    def _routed(
        self, index: int, categories: list[str], answer: Mapping[str, Any], options: Mapping[str, Any]
    ) -> tuple[int, Item] | None:
        sentiment = str(answer["sentiment"])
        output = next((i for i, c in enumerate(categories) if c.lower() == sentiment.lower()), -1)
        if output == -1:
            return None
        analysis: dict[str, Any] = {"category": answer["sentiment"]}
        if options.get("includeDetailedResults"):
            analysis["strength"] = answer["strength"]
            analysis["confidence"] = answer["confidence"]
        item = self.ctx.get_input_data()[index]
        return output, {**item, "json": {**item["json"], "sentimentAnalysis": analysis}}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


__all__ = ["DEFAULT_CATEGORIES", "SentimentAnalysis", "category_names", "configured_outputs"]
