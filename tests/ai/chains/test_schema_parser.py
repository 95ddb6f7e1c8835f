"""LangChain's structured parser and output-fixing parser, as the Information Extractor, Text Classifier and
Sentiment Analysis build them."""

from __future__ import annotations

import pytest

from weft.ai.messages import HumanMessage
from weft.ai.nodes.chains._schema_parser import FixingSchemaParser, OutputParserException, SchemaParser
from weft.testing import ScriptedChatModel

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "City"}, "size": {"type": "number", "minimum": 0}},
    "required": ["city"],
}


def test_instructions_show_the_schema_as_zod_exports_it() -> None:
    instructions = SchemaParser(schema=SCHEMA).format_instructions()
    assert instructions.endswith(
        '```json\n{"type":"object","properties":{"city":{"type":"string","description":"City"},'
        '"size":{"type":"number","minimum":0}},"required":["city"],"additionalProperties":false,'
        '"$schema":"http://json-schema.org/draft-07/schema#"}\n```\n'
    )


@pytest.mark.parametrize(
    "text",
    ['{"city": "Rome", "extra": 1}', 'Here:\n```json\n{"city": "Rome"}\n```', '  {"city": "Rome"}  '],
)
async def test_the_answer_is_read_from_a_fence_or_whole_and_unknown_keys_are_dropped(text: str) -> None:
    assert await SchemaParser(schema=SCHEMA).parse(text) == {"city": "Rome"}


@pytest.mark.parametrize("text", ["Rome", '{"size": 3}', '{"city": "Rome", "size": -1}'])
async def test_an_answer_that_does_not_fit_is_an_output_parser_exception(text: str) -> None:
    with pytest.raises(OutputParserException, match=r"Failed to parse\. Text: ") as caught:
        await SchemaParser(schema=SCHEMA).parse(text)
    assert caught.value.llm_output == text


async def test_the_fixing_parser_asks_the_model_once_with_langchains_prompt() -> None:
    model = ScriptedChatModel(['{"city": "Oslo"}'])
    parser = FixingSchemaParser(parser=SchemaParser(schema=SCHEMA), model=model)
    assert await parser.parse("Oslo") == {"city": "Oslo"}
    [prompt] = model.calls[0]
    assert isinstance(prompt, HumanMessage)
    assert "\nCompletion:\n--------------\nOslo\n--------------\n" in prompt.text
    assert '{"llmOutput":"Oslo","sendToLLM":false,"lc_error_code":"OUTPUT_PARSING_FAILURE"}' in prompt.text


async def test_the_fixing_parser_gives_up_after_one_fix() -> None:
    model = ScriptedChatModel(["still Oslo"])
    parser = FixingSchemaParser(parser=SchemaParser(schema=SCHEMA), model=model)
    with pytest.raises(OutputParserException):
        await parser.parse("Oslo")
    assert len(model.calls) == 1
