"""Extension calls are rewritten as n8n's compiler does: ``x.name(args)`` → ``__x.e(x, 'name')(args)``."""

from __future__ import annotations

import json

import pytest

from weft.expressions import ExpressionLimits
from weft.expressions.extend import EXTENSION_NAMES, rewrite_calls
from weft.expressions.runtime import get_runtime


@pytest.mark.parametrize(
    ("code", "rewritten"),
    [
        ("$json.a.toTitleCase()", "__x.e($json.a,'toTitleCase')()"),
        ("$json.a.toSnakeCase().length", "__x.e($json.a,'toSnakeCase')().length"),
        ("new Date(0).beginningOf('month')", "__x.e(new Date(0),'beginningOf')('month')"),
        ("xs.map(x => x.isEmpty())", "xs.map(x => __x.e(x,'isEmpty')())"),
        ("typeof 'a'.extractEmail()", "typeof __x.e('a','extractEmail')()"),
        ("(1.5).round(1)", "__x.e((1.5),'round')(1)"),
        ("a.b.first().c.last()", "__x.e(__x.e(a.b,'first')().c,'last')()"),
        ("x?.isEmpty()", "__x.q(x,'isEmpty')?.()"),
        ("x.isEmpty?.()", "__x.o(x,'isEmpty')?.()"),
        ("[...xs.sum()]", "[...__x.e(xs,'sum')()]"),
        ("`${a.first()}`", "`${__x.e(a,'first')()}`"),
        # n8n compiles $if to a ternary: only the chosen branch runs; a missing else is false
        ("$if(a, b.c, 'n')", "((a)?( b.c):( 'n'))"),
        ("$if(a, b)", "((a)?( b):(false))"),
        ("'$if(a, b)'", "'$if(a, b)'"),
        # not calls of extensions: property reads, text in strings, regexes and comments
        ("$json.keys", "$json.keys"),
        ("'a.sum()' + /b.sum()/.source", "'a.sum()' + /b.sum()/.source"),
        ("a // b.sum()", "a // b.sum()"),
    ],
)
def test_rewrite(code: str, rewritten: str) -> None:
    assert rewrite_calls(code) == rewritten


def test_names_match_the_runtime() -> None:
    runtime = get_runtime(ExpressionLimits())
    names = json.loads(runtime.context.eval("JSON.stringify(__x.names)"))
    assert set(names) == EXTENSION_NAMES
