"""``@n8n/n8n-nodes-langchain.textClassifier``: the Text Classifier, typeVersions 1 and 1.1 (n8n's
``TextClassifier.node.ts`` and ``processItem.ts``).

One output per category (in order), and an "Other" output last with ``fallback: other``. The model answers a
JSON object with one boolean per category (and ``fallback``); LangChain's structured parser reads it, fixed once
by the model when ``enableAutoFixing`` is set (the option's default is on, but n8n reads it from the options as
given, so only a set option turns it on). Each item goes, paired to itself, to every output whose category is
true: one only, unless ``multiClass``. An unmatched item is dropped, or goes to "Other". An item that fails goes
to the first output when the node continues on fail. From 1.1 the items run in batches (5 by default).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from weft.ai.messages import HumanMessage, Message, SystemMessage
from weft.ai.models.base import ChatModel
from weft.ai.nodes.chains._batches import Batching, run_in_batches
from weft.ai.nodes.chains._common import connected_models, error_item, item_error
from weft.ai.nodes.chains._fstring import escape_braces, format_fstring
from weft.ai.nodes.chains._schema_parser import FixingSchemaParser, SchemaParser
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_LANGUAGE_MODEL, MAIN, Item, NodeOutput

SYSTEM_PROMPT_TEMPLATE = (
    "Please classify the text provided by the user into one of the following categories: {categories}, and use "
    "the provided formatting instructions below. Don't explain, and only output the json."
)
_MULTI_CLASS = {
    True: "Categories are not mutually exclusive, and multiple can be true",
    False: "Categories are mutually exclusive, and only one can be true",
}
_FALLBACK = {
    "other": 'If no categories apply, select the "fallback" option.',
    "discard": "If there is not a very fitting category, select none of the categories.",
}


def configured_outputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """n8n's ``configuredOutputs``: one output per category, and "Other" with ``fallback: other``."""
    categories = (parameters.get("categories") or {}).get("categories") or []
    other = (parameters.get("options") or {}).get("fallback") == "other"
    return (MAIN,) * (len(categories) + (1 if other else 0))


class TextClassifier(NodeType):
    """Text Classifier: route each item by the category the model gives its text."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.textClassifier",
        display_name="Text Classifier",
        versions=(1, 1.1),
        description="Classify your text into distinct categories",
        inputs=(MAIN, AI_LANGUAGE_MODEL),
        outputs=configured_outputs,
        defaults={"inputText": "", "categories": {}, "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        batching = Batching.of(ctx, "options.batching", enabled=float(ctx.node.typeVersion) >= 1.1)
        model = (await connected_models(ctx))[0]
        categories = [c for c in ctx.get_node_parameter("categories.categories", 0, []) or [] if isinstance(c, Mapping)]
        if not categories:
            raise NodeOperationError(
                ctx.node.name,
                "At least one category must be defined",
                description="Add a category under 'Categories'.",
            )
        classifier = _Classifier.of(ctx, model, categories)
        items = ctx.get_input_data()
        outputs: list[list[Item]] = [[] for _ in range(len(categories) + (1 if classifier.other else 0))]

        def read(index: int, result: dict[str, Any] | Exception) -> None:
            if isinstance(result, Exception):
                error = item_error(ctx, result, index)
                if not ctx.continue_on_fail():
                    raise error
                outputs[0].append(error_item(error, index))
                return
            item: Item = {**items[index], "pairedItem": {"item": index}}
            for output, category in enumerate(classifier.names):
                if result.get(category):
                    outputs[output].append(item)
            if classifier.other and result.get("fallback"):
                outputs[-1].append(item)

        await run_in_batches(len(items), batching, classifier.classify, read)
        return list(outputs)


@dataclass(frozen=True, kw_only=True)
class _Classifier:
    ctx: ExecuteContext
    model: ChatModel
    parser: SchemaParser | FixingSchemaParser
    names: list[str]
    other: bool
    rules: str
    """The multi-class and fallback sentences that end the system prompt."""

    @classmethod
    def of(cls, ctx: ExecuteContext, model: ChatModel, categories: list[Mapping[str, Any]]) -> _Classifier:
        options = ctx.get_node_parameter("options", 0, {}) or {}
        fallback = options.get("fallback", "discard")
        names = [str(c.get("category", "")) for c in categories]
        properties: dict[str, Any] = {
            name: {
                "type": "boolean",
                "description": f'Should be true if the input has category "{name}" '
                f"(description: {_js_string(c.get('description', ''))})",
            }
            for name, c in zip(names, categories, strict=True)
        }
        if fallback == "other":
            properties["fallback"] = {
                "type": "boolean",
                "description": "Should be true if none of the other categories apply",
            }
        structured = SchemaParser(schema={"type": "object", "properties": properties, "required": list(properties)})
        parser = FixingSchemaParser(parser=structured, model=model) if options.get("enableAutoFixing") else structured
        rules = f"{_MULTI_CLASS[bool(options.get('multiClass', False))]}\n\t{_FALLBACK.get(fallback, 'undefined')}"
        return cls(ctx=ctx, model=model, parser=parser, names=names, other=fallback == "other", rules=rules)

    async def classify(self, index: int) -> dict[str, Any]:
        reply = await self.model.generate(self._messages(index), [])
        result: dict[str, Any] = await self.parser.parse(reply.message.content)
        return result

    def _messages(self, index: int) -> list[Message]:
        ctx = self.ctx
        text = ctx.get_node_parameter("inputText", index)
        if not text:
            raise NodeOperationError(ctx.node.name, f"Text to classify for item {index} is not defined")
        template = ctx.get_node_parameter("options.systemPromptTemplate", index, SYSTEM_PROMPT_TEMPLATE)
        template = escape_braces(str(template)).replace("{{categories}}", "{categories}")
        values = {"categories": ", ".join(self.names), "format_instructions": self.parser.format_instructions()}
        system = format_fstring(f"{template}\n\t{{format_instructions}}\n\t{self.rules}", values)
        return [SystemMessage(content=system), HumanMessage(content=text if isinstance(text, str) else str(text))]


def _js_string(value: Any) -> str:
    """A value in a JavaScript template literal (``undefined`` when missing)."""
    if value is None:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


__all__ = ["TextClassifier", "configured_outputs"]
