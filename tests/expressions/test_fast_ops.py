"""Operators on the Python fast path give exactly what the sandbox gives, or leave the expression to it."""

from __future__ import annotations

from typing import Any

import pytest
from expr_fixtures import make_context

from weft.errors import ExpressionError
from weft.expressions import evaluate
from weft.expressions.evaluator import compile_template
from weft.expressions.fastops import compile_operation
from weft.expressions.fastpath import DECLINE

ITEMS: list[Any] = [
    {
        "json": {
            "i": 3,
            "f": 1.5,
            "s": "abc",
            "t": "Zoë",
            "n": None,
            "b": True,
            "zero": 0,
            "neg": -4,
            "o": {"a": 1},
            "l": [1, "x", None],
            "e": "a😀b",
            "d": {"length": 7, "0": "first", "k": [1.5]},
        }
    },
    {
        "json": {
            "i": 2**52,
            "f": 0.1,
            "s": "",
            "t": "x y",
            "n": None,
            "b": False,
            "zero": 0.0,
            "neg": -0.5,
            "o": [1],
            "l": [],
            "e": "",
            "d": {"k": {"a": 2.0}},
        }
    },
    {
        "json": {
            "i": 7,
            "f": 1e308,
            "s": "Mixed Case 9",
            "t": "ß",
            "zero": 0,
            "neg": 2.5,
            "o": None,
            "l": [[1], {"a": 2}],
            "e": "\u00e9\u20ac",
            "d": {"length": "x"},
        }
    },
    {"json": {}},
]

EXPRESSIONS = [
    "$json.i * 2",
    "$json.i + 1",
    "$json.i - 10",
    "$json.i / 2",
    "$json.i / $json.zero",
    "$json.f * 3",
    "$json.f + 0.2",
    "$json.f * 10",
    "$json.i * $json.i",
    "($json.i ?? 0) + 1",
    "($json.n ?? 0) + 1",
    "($json.missing ?? 0) + 1",
    "$json.n ?? $json.s",
    "$json.n ?? 'none'",
    "$json.b ?? 1",
    "$json.i + 2 * 3",
    "($json.i + 2) * 3",
    "$json.i - 1 - 1",
    "$json.i / 4 * 2",
    "-$json.i",
    "-$json.zero",
    "$json.neg * -1",
    "$json.zero * -1",
    "2 - - $json.i",
    "$json.i - -1",
    "$json.s + 'x'",
    "$json.s + $json.t",
    "$json.s + 1",
    "1 + $json.s",
    "$json.b + 1",
    "$json.n + 1",
    "$json.o + 1",
    "$json.s.toUpperCase()",
    "$json.s.toLowerCase()",
    "$json.t.toUpperCase()",
    "$json['s'].toUpperCase() + \"!\"",
    "$json.i.toUpperCase()",
    "$json.missing.toUpperCase()",
    "$json.f * $json.f",
    "0.1 + 0.2",
    "$json.i * 1.5",
    "9007199254740991 + $json.i",
    "$json.s.length",
    "$json.t.length",
    "$json.o.length",
    "$json.l.length",
    "$json.l.length * 2",
    "$json.s.length + $json.l.length",
    "$json.e.length",
    "$json['l']['length']",
    "$json.l.length.x",
    "$json.d.length",
    "{ a: $json.i, b: $json.s }",
    "{ total: $json.i + 1, greeting: 'Hi ' + $json.s.toUpperCase(), count: $json.l.length }",
    "{ 'x y': $json.f * 2, \"z\": $json.n, }",
    "{ o: $json.o, l: $json.l, d: $json.d }",
    "{ nested: { a: $json.i, b: { c: $json.s } }, after: 1 }",
    "{ a: 1, a: $json.i, b: 2 }",
    "{ b: 1, '0': $json.i }",
    "{ b: 1, '10': 2, '01': 3 }",
    "{ __proto__: $json.o }",
    "{ 'constructor': $json.i }",
    "{ m: $json.missing }",
    "{ f: $json.f, neg: -$json.neg, z: $json.zero * -1 }",
    "{}",
    "{ a: $json.o ?? 1, b: $json.n ?? { c: 2 } }",
    "{ toString: $json.s }",
]


def _outcome(expression: str, ctx: Any, index: int) -> Any:
    try:
        value = evaluate(expression, ctx, index)
    except ExpressionError as exc:
        return ("error", exc.message)
    return _ordered(value)


def _ordered(value: Any) -> Any:
    """The value with its type at every level and its keys in order (``==`` on dicts ignores order)."""
    if isinstance(value, dict):
        return ("dict", [(key, _ordered(v)) for key, v in value.items()])
    if isinstance(value, list):
        return ("list", [_ordered(v) for v in value])
    return (type(value).__name__, value)


@pytest.mark.parametrize("code", EXPRESSIONS)
@pytest.mark.parametrize("index", range(len(ITEMS)))
def test_operations_match_the_sandbox(code: str, index: int) -> None:
    ctx = make_context(connection_input=ITEMS)
    sandboxed = f"={{{{ (0, {code}) }}}}"  # the comma operator is not on the fast path
    assert compile_template(sandboxed[1:]).fast is None
    assert _outcome(f"={{{{ {code} }}}}", ctx, index) == _outcome(sandboxed, ctx, index)


@pytest.mark.parametrize("code", EXPRESSIONS[:12])
@pytest.mark.parametrize("index", range(len(ITEMS)))
def test_operations_in_text_match_the_sandbox(code: str, index: int) -> None:
    ctx = make_context(connection_input=ITEMS)
    assert _outcome(f"=v: {{{{ {code} }}}}.", ctx, index) == _outcome(f"=v: {{{{ (0, {code}) }}}}.", ctx, index)


def test_supported_operations_skip_the_sandbox() -> None:
    items = ITEMS[:1]
    assert compile_template("{{ ($json.i ?? 0) + 1 }}").fast(items, 0) == 4  # type: ignore[misc]
    assert compile_template("{{ $json.s.toUpperCase() }}").fast(items, 0) == "ABC"  # type: ignore[misc]
    assert compile_template("{{ $json.f * 2 }}").fast(items, 0) == 3  # type: ignore[misc]
    assert type(compile_template("{{ $json.f * 2 }}").fast(items, 0)) is int  # type: ignore[misc]
    assert compile_template("{{ $json.t.toUpperCase() }}").fast(items, 0) is DECLINE  # type: ignore[misc]
    assert compile_template("{{ $json.l.length }}").fast(items, 0) == 3  # type: ignore[misc]
    assert compile_template("{{ $json.e.length }}").fast(items, 0) == 4  # type: ignore[misc]
    body = compile_template("{{ { n: $json.i + 1, l: $json.l, o: { s: $json.s } } }}").fast(items, 0)  # type: ignore[misc]
    assert list(body.items()) == [("n", 4), ("l", [1, "x", None]), ("o", {"s": "abc"})]
    assert body["l"] is not items[0]["json"]["l"]  # a copy: the node may change what it gets
    assert compile_template("{{ { b: 1, '0': 2 } }}").fast is None
    assert compile_template("{{ { __proto__: 1 } }}").fast is None


@pytest.mark.parametrize(
    "code",
    [
        "$json.a % 2",
        "$json.a()",
        "$json.a + 1;",
        "$json.a\n($json.b)",
        "$json.a.trim()",
        "$json.a || 1",
        "$json.a && 1",
        "$json.a ? 1 : 2",
        "$json.a + 1 // comment",
        "$json.a + 010",
        "$json.a + 1e3",
        "$json.a + 1.",
        "$json.a + 1.5.x",
        "'a\\'b' + $json.a",
        "$json.a$ + 1",
        "$jsonx + 1",
        "$json.a + $json.b.c(1)",
        "($json.a + 1",
        "$json.a + 1)",
        "$json.a +",
        "9007199254740992 + $json.a",
        "$json.é + 1",
        "{ a: 1 ",
        "{ a 1 }",
        "{ a: 1 b: 2 }",
        "{ 1: $json.a }",
        "{ [$json.k]: 1 }",
        "{ a }",
        "{ a: b }",
        "{ ...$json }",
        "$json.a--1",
        "$json.a++1",
        "--$json.a",
    ],
)
def test_other_code_is_left_to_the_sandbox(code: str) -> None:
    assert compile_operation(code) is None
