"""LangChain's own ``StructuredOutputParser`` and ``OutputFixingParser``, which the Information Extractor, the Text
Classifier and the Sentiment Analysis node build inside themselves (no parser sub-node, so no parser runs).

The schema is held as the JSON Schema that zod's schema exports to: the format instructions show it as
``zod-to-json-schema`` writes it (:func:`~weft.ai.parsers.model_schema.offered_schema`); an answer is read as
LangChain reads it (the text inside the first fenced block, else the whole text; then the whole text again) and
checked as zod checks it (types, required keys, formats and bounds; unknown keys dropped).

The fixing parser asks the model once, with LangChain's fix prompt, when the answer does not fit; that call is a
run of the model node like any other.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from weft.ai.messages import HumanMessage
from weft.ai.models.base import ChatModel
from weft.ai.parsers.fixing import NAIVE_FIX_TEMPLATE
from weft.ai.parsers.model_schema import offered_schema, shaped
from weft.ai.parsers.structured import FORMAT_INSTRUCTIONS, TROUBLESHOOTING
from weft.errors import WeftError
from weft.workflow.jsjson import js_json, normalize_numbers

_FENCE = re.compile(r"```(?:json)?")


class OutputParserException(WeftError):
    """LangChain's ``OutputParserException``: the answer is not JSON, or does not fit the schema."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f'Failed to parse. Text: "{text}". Error: {reason}{TROUBLESHOOTING}')
        self.llm_output = text


@dataclass(frozen=True, kw_only=True)
class SchemaParser:
    """``StructuredOutputParser.fromZodSchema``: format instructions and :meth:`parse` for one schema."""

    schema: dict[str, Any]
    """The JSON Schema equivalent of the zod schema (objects without ``additionalProperties``: zod drops unknown
    keys instead of refusing them)."""

    def format_instructions(self) -> str:
        return FORMAT_INSTRUCTIONS.format(schema=js_json(offered_schema(self.schema)))

    async def parse(self, text: str) -> Any:
        first = _FENCE.split(text.strip())[1] if "```" in text else text.strip()
        try:
            return self._checked(first)
        except (ValueError, jsonschema.ValidationError):
            try:
                return self._checked(text.strip())
            except json.JSONDecodeError as error:
                raise OutputParserException(text, f"SyntaxError: {error.msg}") from None
            except jsonschema.ValidationError as error:
                raise OutputParserException(text, f"ZodError: {error.message}") from None

    def _checked(self, text: str) -> Any:
        value = normalize_numbers(json.loads(text))
        cls = jsonschema.validators.validator_for(self.schema, default=jsonschema.Draft7Validator)
        error = jsonschema.exceptions.best_match(cls(self.schema, format_checker=cls.FORMAT_CHECKER).iter_errors(value))
        if error is not None:
            raise error
        return shaped(value, self.schema)


@dataclass(frozen=True, kw_only=True)
class FixingSchemaParser:
    """``OutputFixingParser.fromLLM(model, parser)``: an answer that does not fit is sent back to the model once."""

    parser: SchemaParser
    model: ChatModel

    def format_instructions(self) -> str:
        return self.parser.format_instructions()

    async def parse(self, text: str) -> Any:
        try:
            return await self.parser.parse(text)
        except OutputParserException as error:
            prompt = NAIVE_FIX_TEMPLATE.format(
                instructions=self.parser.format_instructions(), completion=text, error=_stringified(error)
            )
            reply = await self.model.generate([HumanMessage(content=prompt)], [])
            return await self.parser.parse(reply.message.content)


def _stringified(error: OutputParserException) -> str:
    """The exception as LangChain's prompt template writes a value that is not a string: ``JSON.stringify``,
    which shows only its own fields (not the message)."""
    return js_json({"llmOutput": error.llm_output, "sendToLLM": False, "lc_error_code": "OUTPUT_PARSING_FAILURE"})


__all__ = ["FixingSchemaParser", "OutputParserException", "SchemaParser"]
