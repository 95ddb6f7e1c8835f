"""``@n8n/n8n-nodes-langchain.outputParserStructured``: the Structured Output Parser (versions 1–1.3).

The node supplies a :class:`StructuredOutputParser` to the agent. Its schema comes from a JSON example (through
:mod:`.example_schema`, all fields required from 1.3 on) or a JSON Schema (``inputSchema``; ``jsonSchema`` up to
1.1), wrapped as each version wraps it: 1.0 in ``__structured__output`` (an object or an array), 1.1 and 1.2 in an
optional ``output``, 1.3 in a required ``output``. The agent offers it to the model as the
``format_final_json_response`` tool (:func:`offered_schema`) and hands the model's answer to :meth:`parse`, which
records a run of the parser node as n8n's ``N8nStructuredOutputParser.parse`` does and validates the answer with
the ``jsonschema`` library against the full JSON Schema.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, ClassVar

import jsonschema

from weft.ai.parsers.example_schema import make_all_required, schema_from_example
from weft.ai.parsers.fixing import NAIVE_FIX_TEMPLATE, FixingParser, fixing_parser
from weft.ai.parsers.model_schema import DRAFT_07, offered_schema, shaped
from weft.ai.parsers.zod_issues import zod_message
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext
from weft.workflow import AI_LANGUAGE_MODEL, AI_OUTPUT_PARSER
from weft.workflow.jsjson import js_json, js_json_parse_error

PARSE_ERROR = "Model output doesn't fit required format"
PARSE_ERROR_DESCRIPTION = (
    "To continue the execution when this happens, change the 'On Error' parameter in the root node's settings"
)
EMPTY_ERROR = "The AI model returned an empty response to the Structured Output Parser"
EMPTY_DESCRIPTION = (
    "This usually happens when the model runs out of tokens before it can generate the structured output. Try "
    "reducing the prompt length, increasing the model's max output tokens, or simplifying the output schema. To "
    "continue the execution when this happens, change the 'On Error' parameter in the root node's settings."
)
#: LangChain's ``OutputParserException`` ends its message with this (the auto-fixing prompt quotes it).
TROUBLESHOOTING = (
    "\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langchain/errors/OUTPUT_PARSING_FAILURE/\n"
)
FORMAT_INSTRUCTIONS = """You must format your output as a JSON value that adheres to a given "JSON Schema" instance.

"JSON Schema" is a declarative language that allows you to annotate and validate JSON documents.

For example, the example "JSON Schema" instance {{{{"properties": {{{{"foo": {{{{"description": \
"a list of test words", "type": "array", "items": {{{{"type": "string"}}}}}}}}}}}}, "required": ["foo"]}}}}}}}}
would match an object with one required property, "foo". The "type" property specifies "foo" must be an "array", \
and the "description" property semantically describes it as "a list of test words". The items within "foo" must be \
strings.
Thus, the object {{{{"foo": ["bar", "baz"]}}}} is a well-formatted instance of this example "JSON Schema". The object \
{{{{"properties": {{{{"foo": ["bar", "baz"]}}}}}}}} is not well-formatted.

Your output will be parsed and type-checked according to the provided schema instance, so make sure all fields in \
your output match the schema exactly and there are no trailing commas!

Here is the JSON Schema instance your output must adhere to. Include the enclosing markdown codeblock:
```json
{schema}
```
"""
_WRAPPER = "__structured__output"
_OBJECT = "__structured__output__object"
_ARRAY = "__structured__output__array"
_FENCE_START = re.compile(r"^```(?:json)?$")

DEFAULT_EXAMPLE = '{\n\t"state": "California",\n\t"cities": ["Los Angeles", "San Francisco", "San Diego"]\n}'
DEFAULT_SCHEMA = (
    '{\n\t"type": "object",\n\t"properties": {\n\t\t"state": {\n\t\t\t"type": "string"\n\t\t},\n\t\t"cities": {\n'
    '\t\t\t"type": "array",\n\t\t\t"items": {\n\t\t\t\t"type": "string"\n\t\t\t}\n\t\t}\n\t}\n}'
)


@dataclass(frozen=True, kw_only=True)
class StructuredOutputParser:
    """What the parser node supplies: the wrapped schema, and :meth:`parse` for the model's answer."""

    ctx: SupplyDataContext
    schema: dict[str, Any]
    """The user's JSON Schema (unwrapped)."""
    version: float

    @property
    def wrapped(self) -> dict[str, Any]:
        """The JSON Schema the answer must match, with the version's wrapper."""
        if self.version == 1:
            inner = {
                "type": "object",
                "properties": {_OBJECT: self.schema, _ARRAY: {"type": "array", "items": self.schema}},
            }
            return {"type": "object", "properties": {_WRAPPER: inner}, "required": [_WRAPPER]}
        wrapper: dict[str, Any] = {"type": "object", "properties": {"output": self.schema}}
        if self.version >= 1.3:
            wrapper["required"] = ["output"]
        return wrapper

    def tool_schema(self) -> dict[str, Any]:
        """The ``format_final_json_response`` parameters, as n8n's model receives them (recorded: a200–a204)."""
        if self.version != 1:
            return offered_schema(self.wrapped)
        inner = offered_schema(self.schema)
        del inner["$schema"]
        ref = f"#/properties/{_WRAPPER}/properties/{_OBJECT}"
        wrapper = {
            "type": "object",
            "properties": {_OBJECT: inner, _ARRAY: {"type": "array", "items": {"$ref": ref}}},
            "additionalProperties": False,
            "description": f"Wrapper around the output data. It can only contain {_OBJECT} or {_ARRAY} but never both.",
        }
        return {
            "type": "object",
            "properties": {_WRAPPER: wrapper},
            "required": [_WRAPPER],
            "additionalProperties": False,
            "$schema": DRAFT_07,
        }

    def format_instructions(self) -> str:
        """LangChain's ``getFormatInstructions`` (the auto-fixing prompt's ``{instructions}``)."""
        return FORMAT_INSTRUCTIONS.format(schema=js_json(self.tool_schema()))

    async def parse(self, text: str) -> Any:
        """The model's answer parsed and validated, recorded as a run of the parser node; raises n8n's error."""
        run = self.ctx.add_input_data(AI_OUTPUT_PARSER, [[{"json": {"action": "parse", "text": text}}]])
        try:
            result = self._parse(text)
        except NodeOperationError as error:
            self.ctx.add_output_data(AI_OUTPUT_PARSER, run, error)
            raise
        self.ctx.add_output_data(AI_OUTPUT_PARSER, run, [[{"json": {"action": "parse", "response": result}}]])
        return result

    def _parse(self, text: str) -> Any:
        unfenced = _unfenced(text)
        try:
            value = json.loads(unfenced)
        except ValueError:
            error = self._error("Invalid JSON in model output")
            error.fix_message = js_json_parse_error(unfenced) + TROUBLESHOOTING  # type: ignore[attr-defined]
            raise error from None
        errors = list(_validator(self.wrapped).iter_errors(value))
        if errors:
            if text.strip() in ("", "{}") or _output_missing(errors):
                error = NodeOperationError(
                    self.ctx.node.name,
                    EMPTY_ERROR,
                    description=EMPTY_DESCRIPTION,
                    outputParserFailReason="Model output wrapper is an empty object",
                )
            else:
                error = self._error("Model output does not match the expected schema", errors[0])
            error.fix_message = zod_message(errors) + TROUBLESHOOTING  # type: ignore[attr-defined]
            raise error
        if self.version == 1 and self._one_of_violated(value):
            raise self._error("Model output does not match the expected schema")
        return _unwrap(shaped(value, self.wrapped))

    def _one_of_violated(self, value: dict[str, Any]) -> bool:
        inner = value.get(_WRAPPER) or {}
        return bool(inner.get(_OBJECT)) == bool(inner.get(_ARRAY))

    def _error(self, reason: str, cause: jsonschema.ValidationError | None = None) -> NodeOperationError:
        error = NodeOperationError(
            self.ctx.node.name, PARSE_ERROR, description=PARSE_ERROR_DESCRIPTION, outputParserFailReason=reason
        )
        if cause is not None:
            where = "/".join(str(part) for part in cause.absolute_path)
            error.validation_error = f"{where}: {cause.message}" if where else cause.message  # type: ignore[attr-defined]
        return error


def _validator(schema: dict[str, Any]) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _output_missing(errors: list[jsonschema.ValidationError]) -> bool:
    """zod's "output: Required" (n8n 2.41 words it as an empty response)."""
    first = errors[0]
    return first.validator == "required" and not first.absolute_path and "'output'" in first.message


def _unfenced(text: str) -> str:
    """The JSON inside the first fenced block (```json … ```), else the whole text."""
    stripped = text.strip()
    lines = stripped.split("\n")
    start = next((i for i, line in enumerate(lines) if _FENCE_START.match(line.strip())), -1)
    if start != -1:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == "```"), -1)
        if end != -1:
            return "\n".join(lines[start + 1 : end]).strip()
    return stripped


def _unwrap(value: Any) -> Any:
    """n8n's result: the 1.0 wrapper's object or array, then ``unwrapNestedOutput`` (``{output: {output: x}}``)."""
    if isinstance(value, dict) and isinstance(value.get(_WRAPPER), dict):
        inner = value[_WRAPPER]
        value = inner.get(_OBJECT) or inner.get(_ARRAY) or inner
    if (
        isinstance(value, dict)
        and list(value) == ["output"]
        and isinstance(value["output"], dict)
        and list(value["output"]) == ["output"]
    ):
        return value["output"]
    return value


def parser_schema(ctx: SupplyDataContext, item_index: int) -> dict[str, Any]:
    """The user's JSON Schema: from the JSON example or the schema parameter of the node's version."""
    version = float(ctx.node.typeVersion)
    schema_type = ctx.get_node_parameter("schemaType", item_index, "fromJson" if version >= 1.2 else "manual")
    if schema_type == "fromJson":
        example = _json_parameter(ctx, "jsonSchemaExample", item_index, DEFAULT_EXAMPLE)
        schema = schema_from_example(example)
        return make_all_required(schema) if version >= 1.3 else schema
    name = "jsonSchema" if version <= 1.1 else "inputSchema"
    value = _json_parameter(ctx, name, item_index, DEFAULT_SCHEMA)
    if not isinstance(value, dict):
        raise NodeOperationError(
            ctx.node.name, "Error during parsing of JSON Schema. Please check the schema and try again."
        )
    try:
        jsonschema.validators.validator_for(value, default=jsonschema.Draft7Validator).check_schema(value)
    except jsonschema.SchemaError as exc:
        raise NodeOperationError(
            ctx.node.name,
            "Error during parsing of JSON Schema. Please check the schema and try again.",
            description=f"{exc.message} (at {'/'.join(map(str, exc.absolute_path)) or 'the top level'})",
        ) from None
    return value


def _json_parameter(ctx: SupplyDataContext, name: str, item_index: int, default: str) -> Any:
    raw = ctx.get_node_parameter(name, item_index, default)
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise NodeOperationError(
            ctx.node.name,
            f"Parameter '{name}' is not valid JSON",
            description=f"Fix the JSON of '{name}': {exc}.",
        ) from None


class OutputParserStructured(NodeType):
    """Structured Output Parser: supplies a :class:`StructuredOutputParser`."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.outputParserStructured",
        display_name="Structured Output Parser",
        versions=(1, 1.1, 1.2, 1.3),
        description="Return data in a defined JSON format",
        inputs=lambda parameters: (AI_LANGUAGE_MODEL,) if parameters.get("autoFix") else (),
        outputs=(AI_OUTPUT_PARSER,),
        defaults={"jsonSchemaExample": DEFAULT_EXAMPLE, "autoFix": False},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> StructuredOutputParser | FixingParser:
        schema = parser_schema(ctx, item_index)
        parser = StructuredOutputParser(ctx=ctx, schema=schema, version=float(ctx.node.typeVersion))
        if not ctx.get_node_parameter("autoFix", item_index, False):
            return parser
        return await fixing_parser(ctx, parser, ctx.get_node_parameter("prompt", item_index, NAIVE_FIX_TEMPLATE))


__all__ = ["OutputParserStructured", "StructuredOutputParser", "parser_schema"]
