"""Template parsing as n8n's splitter does it: a segment ends at the first `}}`, backslashes escape, `{{` runs on."""

from __future__ import annotations

import pytest

from weft.expressions import is_expression
from weft.expressions.template import Segment, parse_template


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("plain", ("plain",)),
        ("{{ 1 }}", (Segment("1"),)),
        ("a {{ 1 }} b", ("a ", Segment("1"), " b")),
        # the first `}}` ends the segment, in a string or not (n8n: invalid syntax for these two)
        ("{{ '}}' }}", (Segment("'"), "' }}")),
        ("{{ {a: {b: 1}} }}", (Segment("{a: {b: 1"), " }}")),
        ("{{ {a: {b: 1} } }}", (Segment("{a: {b: 1} }"),)),
        ('{{ "a\\}}b" }}', (Segment('"a}}b"'),)),  # an escaped `}}` stays in the code
        ("\\{{ no }} {{ 1 }}", ("\\{{ no }} ", Segment("1"))),  # an escaped `{{` is text
        ("{{ 1 }}{{ 2 }}", (Segment("1"), Segment("2"))),
        ("{{ 1", (Segment("1"),)),  # unclosed: code to the end
        ("x {{ }}", ("x ", Segment(""))),
    ],
)
def test_parse(text: str, parts: tuple[object, ...]) -> None:
    assert parse_template(text).parts == parts


def test_single_and_literal() -> None:
    assert parse_template("{{ 1 }}").is_single
    assert not parse_template(" {{ 1 }}").is_single
    assert parse_template("no braces").is_literal


def test_is_expression() -> None:
    assert is_expression("={{ 1 }}")
    assert is_expression("=text")
    assert not is_expression("{{ 1 }}")
    assert not is_expression(1)
