"""LangChain's f-string templates, as the chains fill their system prompts."""

from __future__ import annotations

import pytest

from weft.ai.nodes.chains._fstring import PromptTemplateError, escape_braces, format_fstring


def test_values_are_filled_and_doubled_braces_are_braces() -> None:
    filled = format_fstring("Sort {{x}} into {categories}: {n}", {"categories": "A, B", "n": [1, 2]})
    assert filled == "Sort {x} into A, B: [1,2]"


def test_an_escaped_template_shows_its_braces_except_the_categories_variable() -> None:
    template = escape_braces('Reply with {"a": 1} for {categories}').replace("{{categories}}", "{categories}")
    assert format_fstring(template, {"categories": "A"}) == 'Reply with {"a": 1} for A'


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{json}", "(f-string) Missing value for input json"),
        ("a { b", "Unclosed '{' in template."),
        ("a } b", "Single '}' in template."),
    ],
)
def test_a_broken_template_says_what_is_wrong(template: str, message: str) -> None:
    with pytest.raises(PromptTemplateError, match=message.replace("(", r"\(").replace(")", r"\)")):
        format_fstring(template, {})
