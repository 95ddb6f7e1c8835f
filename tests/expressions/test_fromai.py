"""`$fromAI()`: n8n's parser test table, schema rules and run-time values."""

from __future__ import annotations

from typing import Any

import pytest
from expr_fixtures import make_context

from weft.errors import ExpressionError, WorkflowDefinitionError
from weft.expressions import collect_from_ai_arguments, evaluate, extract_from_ai_calls, from_ai_json_schema
from weft.expressions.fromai import FromAIParseError


def _one(text: str) -> Any:
    calls = extract_from_ai_calls(text)
    assert len(calls) == 1
    return calls[0]


def test_key_description_type() -> None:
    arg = _one('$fromAI("a", "b", "string")')
    assert (arg.key, arg.description, arg.type, arg.has_default) == ("a", "b", "string", False)


def test_number_default() -> None:
    arg = _one('$fromAI("a", "b", "number", 5)')
    assert arg.default == 5 and type(arg.default) is int


def test_backtick_description() -> None:
    assert _one('$fromAI("a", "`", "number", 5)').description == "`"


def test_escaped_backtick_description() -> None:
    assert _one('$fromAI("a", "\\`", "number", 5)').description == "`"


def test_escaped_n_becomes_n() -> None:
    assert _one('$fromAI("a", "\\n", "number", 5)').description == "n"


def test_inside_template() -> None:
    assert _one('{{ $fromAI("a", "b", "boolean") }}').type == "boolean"


def test_invalid_type() -> None:
    with pytest.raises(FromAIParseError, match="Invalid type: c"):
        extract_from_ai_calls('$fromAI("a", "b", "c")')


def test_unbalanced_parentheses() -> None:
    with pytest.raises(FromAIParseError, match="Unbalanced parentheses"):
        extract_from_ai_calls('$fromAI("a", "b", "string"')


def test_unterminated_quote() -> None:
    with pytest.raises(FromAIParseError):
        extract_from_ai_calls('$fromAI("a", "b", "string, "d")')


def test_two_calls_in_order() -> None:
    calls = extract_from_ai_calls('$fromAI("a", "b", "string") and $fromAI("c", "d", "number")')
    assert [(c.key, c.type) for c in calls] == [("a", "string"), ("c", "number")]


def test_without_dollar_is_ignored() -> None:
    assert extract_from_ai_calls('fromAI("a")') == []


def test_json_default() -> None:
    assert _one('$fromAI("a","b","json","{"key": "defaultValue"}")').default == {"key": "defaultValue"}


def test_case_whitespace_and_type_case() -> None:
    arg = _one("$FROMai  (  'city' , 'The city', 'NUMBER' )")
    assert (arg.key, arg.description, arg.type, arg.kind) == ("city", "The city", "NUMBER", "number")


def test_nested_parentheses_and_extra_arguments() -> None:
    arg = _one("$fromAI('q', 'a (nested (deep)) text', 'string', 'x', 'ignored')")
    assert (arg.description, arg.default) == ("a (nested (deep)) text", "x")


def test_escaped_quotes_and_unicode() -> None:
    arg = _one("$fromAI('k', 'it\\'s “quoted” ✓', 'string')")
    assert arg.description == "it's “quoted” ✓"


def test_boolean_default_and_empty_description() -> None:
    arg = _one("$fromAI('flag', '', 'boolean', true)")
    assert arg.default is True and arg.description == ""  # n8n keeps '' (it differs from no description)


def test_collect_traverses_every_string() -> None:
    params = {
        "a": "={{ $fromAI('x') }}",
        "b": [{"c": "={{ $fromAI('y', 'Y', 'number') }}"}, 3, None],
        "d": {"e": True, "f": "plain"},
    }
    assert [a.key for a in collect_from_ai_arguments(params)] == ["x", "y"]


def test_schema() -> None:
    schema = from_ai_json_schema(
        "Tool",
        {
            "to": "={{ $fromAI('to', 'Recipient', 'string') }}",
            "count": "={{ $fromAI('count', 'How many', 'number', 3) }}",
            "data": "={{ $fromAI('data', '', 'json') }}",
        },
    )
    assert schema == {
        "type": "object",
        "properties": {
            "to": {"type": "string", "description": "Recipient"},
            "count": {"type": "number", "description": "How many", "default": 3},
            "data": {},  # zod.custom: no type reaches the model (recorded: case a101)
        },
        "required": ["to", "data"],
        "additionalProperties": False,
    }


def test_key_length_rule() -> None:
    from_ai_json_schema("T", {"p": f"={{{{ $fromAI('{'k' * 64}') }}}}"})
    with pytest.raises(WorkflowDefinitionError, match=r"Parameter key `k+` is invalid"):
        from_ai_json_schema("T", {"p": f"={{{{ $fromAI('{'k' * 65}') }}}}"})


def test_invalid_key() -> None:
    with pytest.raises(WorkflowDefinitionError, match="Parameter key `param@name!` is invalid"):
        from_ai_json_schema("T", {"p": "={{ $fromAI('param@name!') }}"})


def test_empty_key() -> None:
    with pytest.raises(WorkflowDefinitionError, match=r"You must specify a key when using \$fromAI\(\)"):
        from_ai_json_schema("T", {"p": "={{ $fromAI('') }}"})


def test_duplicate_keys() -> None:
    same = {"a": "={{ $fromAI('k', 'd', 'string') }}", "b": "={{ $fromAI('k', 'd', 'string') }}"}
    assert list(from_ai_json_schema("T", same)["properties"]) == ["k"]
    different = {"a": "={{ $fromAI('k', 'd', 'string') }}", "b": "={{ $fromAI('k', 'other', 'string') }}"}
    with pytest.raises(WorkflowDefinitionError, match="Duplicate key 'k' found with different description or type"):
        from_ai_json_schema("T", different)


def test_runtime_value_from_model() -> None:
    ctx = make_context(from_ai_args={"city": "Paris", "query": {"n": 2}})
    assert evaluate("={{ $fromAI('city') }}", ctx) == "Paris"
    assert evaluate("={{ $fromAI('n', '', 'number') }}", ctx) == 2
    assert evaluate("={{ $fromAI('missing', '', 'number', 7) }}", ctx) == 7
    assert evaluate("={{ $fromai('city') }}", ctx) == "Paris"


def test_runtime_outside_a_tool_call_says_what_to_do() -> None:
    with pytest.raises(ExpressionError) as info:
        evaluate("={{ $fromAI('city') }}", make_context())
    assert "not being run as a tool" in info.value.message
    assert "AI Agent" in (info.value.description or "")


def test_preview_placeholder() -> None:
    assert evaluate("={{ $fromAI('city') }}", make_context(preview=True)) == "[filled by the model: city]"
