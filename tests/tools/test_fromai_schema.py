"""``$fromAI()`` as n8n parses it and the schema the model receives (recorded: cases a100-a109, a120, a121)."""

from __future__ import annotations

from typing import Any

import pytest

from weft.expressions.fromai import FromAIError, extract_from_ai_calls, from_ai_json_schema, js_number
from weft.nodes.tool_input import tool_input_issues


def _schema(*texts: str) -> dict[str, Any]:
    return from_ai_json_schema("Tool", {f"p{i}": text for i, text in enumerate(texts)})


def test_quotes_commas_and_brackets_in_descriptions() -> None:
    schema = _schema(
        '={{ $fromAI("a", "double \\"quoted\\" (paren", "string") }}',
        "={{ $fromAI(`b`, `back, tick`, 'number', 2.5) }}",
        "={{ $fromAI('f', 'it\\'s here, ok') }}",
        "={{ $fromAI (  'g'  ) }}",
    )
    assert schema["properties"] == {
        "a": {"type": "string", "description": 'double "quoted" (paren'},
        "b": {"type": "number", "description": "back, tick", "default": 2.5},
        "f": {"type": "string", "description": "it's here, ok"},
        "g": {"type": "string"},
    }
    assert schema["required"] == ["a", "f", "g"]


def test_a_json_default_split_at_its_comma_stays_required() -> None:
    schema = _schema("={{ $fromAI('c', 'json', 'json', {\"k\": [1, 2]}) }}")
    assert schema["properties"]["c"] == {"description": "json", "default": '{"k": [1'}
    assert schema["required"] == ["c"]


@pytest.mark.parametrize(
    ("call", "default", "required"),
    [
        ("$fromAI('x', 'd', 'boolean', FALSE)", False, False),
        ("$fromAI('x', 'd', 'number', '7')", 7, False),
        ("$fromAI('x', 'd', 'number', abc)", "abc", True),
        ("$fromAI('x', 'd', 'number', 0x10)", 16, False),
        ("$fromAI('x', 'd', 'json', [1])", [1], False),
        ("$fromAI('x', 'd', 'json', [])", [], True),
        ("$fromAI('x', 'd', 'string', 'a, b')", "a, b", False),
        ("$fromAI('x', 'd', 'String', 5)", 5, True),
    ],
)
def test_defaults_by_type(call: str, default: Any, required: bool) -> None:
    schema = _schema("={{ " + call + " }}")
    assert schema["properties"]["x"]["default"] == default
    assert ("required" in schema) is required


def test_no_required_list_when_every_argument_has_a_default() -> None:
    schema = _schema("={{ $fromAI('a', 'A', 'string', 'x') }}", "={{ $fromAI('b', 'B', 'boolean', true) }}")
    assert "required" not in schema and schema["additionalProperties"] is False


def test_the_type_is_kept_as_written() -> None:
    [arg] = extract_from_ai_calls("$fromAI('h', 'lower', 'String')")
    assert (arg.type, arg.kind) == ("String", "string")
    assert _schema("={{ $fromai('h', 'lower', 'String') }}")["properties"]["h"] == {
        "type": "string",
        "description": "lower",
    }


def test_an_empty_description_differs_from_none() -> None:
    with pytest.raises(FromAIError, match="Duplicate key 'k'"):
        _schema("={{ $fromAI('k') }}", "={{ $fromAI('k', '') }}")


def test_a_duplicate_key_with_another_type_is_refused_with_n8n_texts() -> None:
    with pytest.raises(FromAIError) as caught:
        _schema("={{ $fromAI('q', 'the query', 'string') }}", "={{ $fromAI('q', 'the query', 'number') }}")
    assert caught.value.n8n_message == "Duplicate key 'q' found with different description or type"
    assert caught.value.n8n_description.startswith("Ensure all $fromAI() calls with the same key")
    assert caught.value.node_name == "Tool"


def test_the_last_call_of_a_key_gives_its_default() -> None:
    schema = _schema("={{ $fromAI('k', 'd', 'number', 1) }}", "={{ $fromAI('k', 'd', 'number', 2) }}")
    assert schema["properties"] == {"k": {"type": "number", "description": "d", "default": 2}}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("$fromAI('bad key')", "Parameter key `bad key` is invalid"),
        (
            "$fromAI('n', 'a number', 'integer')",
            "Failed to parse $fromAI arguments: 'n', 'a number', 'integer': Error: Invalid type: integer",
        ),
    ],
)
def test_bad_calls_get_n8n_message(call: str, message: str) -> None:
    with pytest.raises(FromAIError) as caught:
        _schema("={{ " + call + " }}")
    assert caught.value.n8n_message == message


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("", 0),
        (" 12 ", 12),
        ("1e3", 1000),
        (".5", 0.5),
        ("5.", 5),
        ("-0x1", None),
        ("0b11", 3),
        ("Infinity", float("inf")),
        ("1_000", None),
        ("inf", None),
        ("infinity", None),
        ("-Infinity", float("-inf")),
        ("1E2", 100),
        ("nan", None),
        ("abc", None),
    ],
)
def test_js_number(text: str, number: float | None) -> None:
    assert js_number(text) == number


@pytest.mark.parametrize(
    ("arguments", "issues"),
    [
        ({"city": "Oslo", "days": 2}, []),
        ({}, ["✖ Required\n  → at city"]),
        (
            {"city": 3, "days": "two"},
            ["✖ Expected string, received number\n  → at city", "✖ Expected number, received string\n  → at days"],
        ),
        ({"city": "Oslo", "tags": {}}, ["✖ Value must be a non-empty object or a non-empty array\n  → at tags"]),
    ],
)
def test_tool_input_is_checked_as_zod_does(arguments: dict[str, Any], issues: list[str]) -> None:
    schema = _schema(
        "={{ $fromAI('city', 'City') }}",
        "={{ $fromAI('days', 'Days', 'number', 1) }}",
        "={{ JSON.stringify($fromAI('tags', 'Tags', 'json', [1])) }}",
    )
    assert tool_input_issues(schema, arguments) == issues
