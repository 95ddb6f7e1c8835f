"""The frozen expression context still behaves as ordinary JavaScript, and Code runs get fresh contexts."""

from __future__ import annotations

from expr_fixtures import make_context

import weft.expressions.runtime as runtime
from weft.expressions import ExpressionLimits, evaluate
from weft.expressions.code import run_code


def test_instances_can_override_what_their_frozen_prototypes_define() -> None:
    expression = "={{ (() => { const e = new Error('m'); e.name = 'Custom'; const o = {}; o.toString = () => 'o';"
    expression += " return String(e) + ' ' + o; })() }}"
    assert evaluate(expression, make_context(), 0) == "Custom: m o"


def test_the_expression_context_is_frozen_even_after_luxon_loads() -> None:
    ctx = make_context()
    assert evaluate("={{ Object.isFrozen(globalThis) && Object.isFrozen(Array['proto' + 'type']) }}", ctx, 0) is True
    assert evaluate("={{ $now.year > 2000 }}", ctx, 0) is True  # Luxon: the context is rebuilt, frozen again
    frozen = "={{ Object.isFrozen(DateTime) && Object.isFrozen(Object['getPrototype' + 'Of'](DateTime.now())) }}"
    assert evaluate(frozen, ctx, 0) is True
    assert runtime.get_runtime(ExpressionLimits()).luxon_loaded


def test_code_nodes_keep_sloppy_globals_within_their_own_run() -> None:
    code = "for (item of items) { total = (typeof total === 'number' ? total : 0) + 1; }\nreturn [{json: {total}}];"
    assert run_code(code, make_context()).items[0]["json"] == {"total": 3}
    again = "return [{json: {seen: typeof total}}];"
    assert run_code(again, make_context()).items[0]["json"] == {"seen": "undefined"}
