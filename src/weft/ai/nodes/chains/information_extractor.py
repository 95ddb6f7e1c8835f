"""``@n8n/n8n-nodes-langchain.informationExtractor``: the Information Extractor, typeVersions 1 to 1.2 (n8n's
``InformationExtractor.node.ts``, ``processItem.ts`` and ``helpers.ts``).

The schema of the answer comes from attribute descriptions (``attributes.attributes``: name, type, description,
required), a JSON example (every field required from 1.2) or a JSON Schema. Each item's ``text`` goes to the
model with the system prompt and LangChain's format instructions; the answer is read by LangChain's structured
parser, and an answer that does not fit is sent back once to be fixed (LangChain's ``OutputFixingParser``, always
on). The item is ``{output: <the answer>}``. From 1.1 the items run in batches (5 by default).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from weft.ai.messages import HumanMessage, Message, SystemMessage
from weft.ai.nodes.chains._batches import Batching, run_in_batches
from weft.ai.nodes.chains._common import connected_models, error_item, item_error
from weft.ai.nodes.chains._fstring import escape_braces, format_fstring
from weft.ai.nodes.chains._schema_parser import FixingSchemaParser, SchemaParser
from weft.ai.parsers.example_schema import make_all_required, schema_from_example
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_LANGUAGE_MODEL, MAIN, Item, NodeOutput

SYSTEM_PROMPT_TEMPLATE = (
    "You are an expert extraction algorithm.\n"
    "Only extract relevant information from the text.\n"
    "If you do not know the value of an attribute asked to extract, you may omit the attribute's value."
)
DEFAULT_EXAMPLE = '{\n\t"state": "California",\n\t"cities": ["Los Angeles", "San Francisco", "San Diego"]\n}'
DEFAULT_SCHEMA = (
    '{\n\t"type": "object",\n\t"properties": {\n\t\t"state": {\n\t\t\t"type": "string"\n\t\t},\n\t\t"cities": {\n'
    '\t\t\t"type": "array",\n\t\t\t"items": {\n\t\t\t\t"type": "string"\n\t\t\t}\n\t\t}\n\t}\n}'
)
#: An attribute's type as zod checks it (``date``: ``z.string().date()``; anything else: ``z.unknown()``).
_ATTRIBUTE_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "date": {"type": "string", "format": "date"},
}


class InformationExtractor(NodeType):
    """Information Extractor: structured data out of each item's text."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.informationExtractor",
        display_name="Information Extractor",
        versions=(1, 1.1, 1.2),
        description="Extract information from text in a structured format",
        inputs=(MAIN, AI_LANGUAGE_MODEL),
        outputs=(MAIN,),
        defaults={
            "text": "",
            "schemaType": "fromAttributes",
            "jsonSchemaExample": DEFAULT_EXAMPLE,
            "inputSchema": DEFAULT_SCHEMA,
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        model = (await connected_models(ctx))[0]
        parser = FixingSchemaParser(parser=SchemaParser(schema=answer_schema(ctx)), model=model)
        version = float(ctx.node.typeVersion)
        batching = Batching.of(ctx, "options.batching", enabled=version >= 1.1, minimum=1)
        output: list[Item] = []

        async def extract(index: int) -> Any:
            reply = await model.generate(_messages(ctx, index, parser), [])
            return await parser.parse(reply.message.content)

        def read(index: int, result: Any) -> None:
            if isinstance(result, Exception):
                error = item_error(ctx, result, index)
                if not ctx.continue_on_fail():
                    raise error
                output.append(error_item(error, index))
                return
            output.append({"json": {"output": result}})

        await run_in_batches(len(ctx.get_input_data()), batching, extract, read)
        return [output]


def answer_schema(ctx: ExecuteContext) -> dict[str, Any]:
    """The JSON Schema of the answer (as zod checks it), from the node's ``schemaType``."""
    schema_type = ctx.get_node_parameter("schemaType", 0, "")
    if schema_type == "fromAttributes":
        attributes = ctx.get_node_parameter("attributes.attributes", 0, [])
        if not attributes:
            raise NodeOperationError(
                ctx.node.name,
                "At least one attribute must be specified",
                description="Add an attribute under 'Attributes', or choose another 'Schema Type'.",
            )
        return _attributes_schema(attributes)
    if schema_type == "fromJson":
        example = _json(ctx, "jsonSchemaExample")
        schema = schema_from_example(example)
        return make_all_required(schema) if float(ctx.node.typeVersion) >= 1.2 else schema
    schema = _json(ctx, "inputSchema")
    if not isinstance(schema, dict):
        raise NodeOperationError(
            ctx.node.name, "Parameter 'inputSchema' must be a JSON Schema object", description="Fix the JSON Schema."
        )
    return schema


def _attributes_schema(attributes: list[Mapping[str, Any]]) -> dict[str, Any]:
    """``makeZodSchemaFromAttributes``: an attribute is optional unless ``required`` is set."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for attribute in attributes:
        name = str(attribute.get("name", ""))
        properties[name] = dict(_ATTRIBUTE_TYPES.get(str(attribute.get("type")), {}))
        if attribute.get("description") is not None:
            properties[name]["description"] = attribute["description"]
        if attribute.get("required"):  # n8n fills the option's default (false) in
            required.append(name)
    return {"type": "object", "properties": properties, "required": required}


def _json(ctx: ExecuteContext, name: str) -> Any:
    raw = ctx.get_node_parameter(name, 0, "")
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError as error:
        raise NodeOperationError(
            ctx.node.name, f"Parameter '{name}' is not valid JSON", description=f"Fix the JSON of '{name}': {error}."
        ) from None


def _messages(ctx: ExecuteContext, index: int, parser: FixingSchemaParser) -> list[Message]:
    """The system prompt with the format instructions, then the item's text (``processItem``)."""
    text = ctx.get_node_parameter("text", index)
    if not isinstance(text, str) or not text.strip():
        raise NodeOperationError(ctx.node.name, f"Text for item {index} is not defined", item_index=index)
    options = ctx.get_node_parameter("options", index, {}) or {}
    template = options.get("systemPromptTemplate")
    template = escape_braces(SYSTEM_PROMPT_TEMPLATE if template is None else str(template))
    system = format_fstring(
        f"{template}\n{{format_instructions}}", {"format_instructions": parser.format_instructions()}
    )
    return [SystemMessage(content=system), HumanMessage(content=text)]


__all__ = ["InformationExtractor", "answer_schema"]
