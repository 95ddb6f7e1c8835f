"""A ``{{ }}`` segment is a program whose first statement is the value, as in n8n (recorded: e102): a trailing ``;``
works; a syntax error reads ``invalid syntax`` with a description in the user's own terms, naming the parameter
and the node, and never a ``)`` or ``;`` of the code Weft wraps the segment in."""

from __future__ import annotations

from typing import Any

import pytest
from expr_fixtures import make_context

from weft.engine import run_workflow
from weft.errors import ExpressionError
from weft.expressions import ExpressionContext, evaluate
from weft.expressions.statements import Statements, split_statements


@pytest.fixture(scope="module")
def ctx() -> ExpressionContext:
    return make_context()


@pytest.mark.parametrize(
    ("code", "statements"),
    [
        ("1 + 2", Statements("1 + 2", "")),
        ("1 + 2;", Statements("1 + 2", "", ended_by=";")),
        ("a; b", Statements("a", " b", ended_by=";")),
        ("'a;b'; c", Statements("'a;b'", " c", ended_by=";")),
        ("f(() => { x; y; })", Statements("f(() => { x; y; })", "")),
        ("1 // a; comment", Statements("1 // a; comment", "")),
        ("1\n2", Statements("1", "2", ended_by="\n")),
        ("$json.a\n  .b", Statements("$json.a\n  .b", "")),
        ("typeof\nx", Statements("typeof\nx", "")),
        ("{a: 1}; 2", Statements("{a: 1}; 2", "")),  # n8n parenthesizes a segment starting with `{`
        ("1 ) ( 2", Statements("1 ) ( 2", "", stray=")")),
    ],
)
def test_a_segment_splits_after_its_first_statement(code: str, statements: Statements) -> None:
    assert split_statements(code) == statements


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("={{ 1 + 2; }}", 3),
        ("={{ $json.name; }}", "Ada"),
        ("={{ 1 + 2; // the sum }}", 3),
        ("={{ 1; 2 }}", 1),
        ("={{ 3;; }}", 3),
        ("=sum {{ 1 + 2; }} end", "sum 3 end"),
        ("={{ 'ab cd'.toTitleCase(); }}", "Ab Cd"),
        ("={{ 5; null.x.y }}", 5),  # what follows the first statement never runs
        ("={{ 1\n2 }}", 1),
    ],
)
def test_the_first_statement_is_the_value(ctx: ExpressionContext, expression: str, value: Any) -> None:
    assert evaluate(expression, ctx, 0, parameter="value") == value


@pytest.mark.parametrize(
    ("expression", "problem"),
    [
        ("={{ 1 + }}", "Unexpected end of input in {{ 1 + }}"),
        ("={{ 1 + ; }}", "Unexpected token ';' in {{ 1 + ; }}"),
        ("={{ (1 + 2 }}", "Unexpected end of input in {{ (1 + 2 }}"),
        ("={{ foo(1, }}", "Unexpected end of input in {{ foo(1, }}"),
        ("={{ ; }}", "No expression before the first ';' in {{ ; }}"),
        ("={{ 1 ) ( 2 }}", "Unexpected token ')' in {{ 1 ) ( 2 }}"),
        ("={{ {a: 1}; }}", "Unexpected token ';' in {{ {a: 1}; }}"),
        ("={{ 1; 1 + }}", "Unexpected end of input in {{ 1; 1 + }}"),
        ("={{ let x = 1; x }}", "Unexpected token 'x' in {{ let x = 1; x }}"),
        ("=a {{ }} b", "Nothing between {{ and }}"),
        (
            "={{ {a: {b: 1}} }}",
            "Unexpected end of input in {{ {a: {b: 1 }}: the first }} ends the {{ }}, "
            "so write '} }' to close two braces",
        ),
    ],
)
def test_a_syntax_error_says_what_and_where(ctx: ExpressionContext, expression: str, problem: str) -> None:
    with pytest.raises(ExpressionError) as info:
        evaluate(expression, ctx, 0, parameter="value")
    assert info.value.message == "invalid syntax"  # n8n's message
    assert info.value.description == f"{problem} (parameter 'value' of node 'Current')"
    assert (info.value.node_name, info.value.parameter) == ("Current", "value")


async def test_a_set_node_names_the_field_of_its_syntax_error() -> None:
    field = {"id": "a1", "name": "total", "value": "={{ $json.n + }}", "type": "number"}
    workflow = {
        "name": "syntax error",
        "nodes": [
            {"name": "Trigger", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {
                "name": "Sum",
                "type": "n8n-nodes-base.set",
                "typeVersion": 3.4,
                "parameters": {"mode": "manual", "assignments": {"assignments": [field]}},
            },
        ],
        "connections": {"Trigger": {"main": [[{"node": "Sum", "type": "main", "index": 0}]]}},
    }
    run = await run_workflow(workflow)
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "invalid syntax"
    assert error["description"] == "Unexpected end of input in {{ $json.n + }} (parameter 'total' of node 'Sum')"


@pytest.mark.parametrize(
    "code",
    [
        "(function f()\n{ return 1 })()",
        "(class A\n{ get v() { return 7; } }).name",
        "$json.a\n!== 1",
        "'a'\nin {a: 1}",
        "typeof\n$json",
        "[1, 2]\n.map(x => x)",
        "`a\n${1}\nb`",
        "f(1,\n2)",
    ],
)
def test_a_line_break_inside_one_value_does_not_split_it(code: str) -> None:
    assert split_statements(code) == Statements(code, "")
