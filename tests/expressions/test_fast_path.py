"""The Python fast path gives exactly what the JavaScript path gives."""

from __future__ import annotations

from typing import Any

import pytest
from expr_fixtures import make_context

from weft.errors import ExpressionError
from weft.expressions import evaluate
from weft.expressions.evaluator import compile_template
from weft.expressions.fastpath import DECLINE, parse_path

CASES = [
    "={{ $json.name }}",
    "={{ $json['name'] }}",
    '={{ $json["key with space"] }}',
    "={{ $json.nested.deep.value }}",
    "={{ $json.tags[0] }}",
    "={{ $json.items[1].v }}",
    "={{ $json.price }}",
    "={{ $json.nested }}",
    "={{ $json.tags }}",
    "={{ $json.missing }}",
    "={{ $json.zero }}",
    "=Hello {{ $json.name }}, {{ $json.count }}",
    "={{ $json.empty }}",
    "=x{{ $json.tags }}",
]


def _outcome(expression: str, ctx: Any, index: int) -> Any:
    try:
        return evaluate(expression, ctx, index)
    except ExpressionError as exc:
        return ("error", exc.message)


def _js_value(expression: str, ctx: Any, index: int) -> Any:
    # The same lookup routed through JavaScript: `(0, …)` keeps it out of the fast path.
    js = expression.replace("{{ $json", "{{ (0, $json").replace(" }}", ") }}")
    assert compile_template(js[1:]).fast is None
    return _outcome(js, ctx, index)


@pytest.mark.parametrize("expression", CASES)
@pytest.mark.parametrize("index", [0, 1, 2])
def test_fast_path_matches_javascript(expression: str, index: int) -> None:
    ctx = make_context()
    assert _outcome(expression, ctx, index) == _js_value(expression, ctx, index)


def test_plain_lookups_take_the_fast_path() -> None:
    ctx = make_context()
    fast = compile_template("{{ $json.nested.deep.value }}").fast
    assert fast is not None
    assert fast(ctx.connection_input, 0) == 42
    assert fast(ctx.connection_input, 2) is DECLINE  # missing key: JavaScript decides


def test_fast_path_normalises_numbers_like_json() -> None:
    ctx = make_context(connection_input=[{"json": {"n": 2.0, "big": 2**60}}])
    assert evaluate("={{ $json.n }}", ctx) == 2
    assert type(evaluate("={{ $json.n }}", ctx)) is int


@pytest.mark.parametrize("code", ["$json.a()", "$json.a + 1", "$json[a]", "$jsonx.a", "$json.a.length()"])
def test_not_a_plain_lookup(code: str) -> None:
    assert parse_path(code) is None


def test_returned_objects_are_copies() -> None:
    ctx = make_context()
    value = evaluate("={{ $json.nested }}", ctx)
    value["deep"]["value"] = 0
    assert ctx.connection_input[0]["json"]["nested"]["deep"]["value"] == 42
