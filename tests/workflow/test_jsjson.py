"""JSON as JavaScript writes it and reads it: ``JSON.stringify``'s form, and V8's ``JSON.parse`` messages
(Node 24's, as n8n 2.41.1 shows them; the first is recorded in case a224)."""

from __future__ import annotations

import json

import pytest

from weft.workflow.jsjson import js_json, js_json_parse_error, js_number_string


def test_integral_numbers_have_no_fraction_and_nothing_is_escaped() -> None:
    assert js_json({"a": 2.0, "b": [1.5, 3.0], "c": "é"}) == '{"a":2,"b":[1.5,3],"c":"é"}'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("San Francisco, about 808k people", "Unexpected token 'S', \"San Franci\"... is not valid JSON"),
        ("still not json", "Unexpected token 's', \"still not json\" is not valid JSON"),
        ("[1, 2, 3, 4, 5, x, 6, 7, 8, 9]", "Unexpected token 'x', ...\" 3, 4, 5, x, 6, 7, 8\"... is not valid JSON"),
        (
            '{"long": "enough text", x}',
            "Expected double-quoted property name in JSON at position 24 (line 1 column 25)",
        ),
        ("", "Unexpected end of JSON input"),
        ('{"a": 1', "Expected ',' or '}' after property value in JSON at position 7 (line 1 column 8)"),
        ("[1 2]", "Expected ',' or ']' after array element in JSON at position 3 (line 1 column 4)"),
        ('{"a": 1,}', "Expected double-quoted property name in JSON at position 8 (line 1 column 9)"),
        ("{a: 1}", "Expected property name or '}' in JSON at position 1 (line 1 column 2)"),
        ('{"a" 1}', "Expected ':' after property name in JSON at position 5 (line 1 column 6)"),
        ('{"a": 1} x', "Unexpected non-whitespace character after JSON at position 9 (line 1 column 10)"),
        ('{"a": "b', "Unterminated string in JSON at position 8 (line 1 column 9)"),
    ],
)
def test_json_parse_errors_read_as_v8_words_them(text: str, message: str) -> None:
    assert js_json_parse_error(text) == message


def test_valid_json_has_no_error() -> None:
    with pytest.raises(ValueError, match="valid JSON"):
        js_json_parse_error("[1]")


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e-5, "0.00001"),
        (-1.2345e-5, "-0.000012345"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (0.1 + 0.2, "0.30000000000000004"),
        (2.0**64, "18446744073709552000"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (-0.0, "0"),
        (2.0, "2"),
        (5e-324, "5e-324"),
        (float("nan"), "NaN"),
        (float("-inf"), "-Infinity"),
        (12, "12"),
    ],
)
def test_numbers_are_written_as_javascripts_string(value: float, text: str) -> None:
    assert js_number_string(value) == text


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1e-05, "0.00001"),
        (1e-07, "1e-7"),
        (-2.5e-08, "-2.5e-8"),
        (1e20, "100000000000000000000"),
        (1.2345678901234568e20, "123456789012345680000"),
        (1e21, "1e+21"),
        (1.5e300, "1.5e+300"),
    ],
)
def test_js_json_writes_floats_in_exponent_form_as_javascript_does(value: float, expected: str) -> None:
    # JSON.stringify({a: [x]}): decimal notation from 1e-7 up to 1e21, one-digit exponents
    assert js_json({"a": [value], "s": "1e-05"}) == f'{{"a":[{expected}],"s":"1e-05"}}'


def test_js_json_a_string_that_looks_like_the_marker_stays_a_string() -> None:
    text = "\x00" + "0" * 16 + ":0"
    assert json.loads(js_json({"s": text, "n": 1e-05})) == {"s": text, "n": 1e-05}
