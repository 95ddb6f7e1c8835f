"""The JavaScript/lodash semantics the data nodes rely on (pure functions, no engine needed)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from weft.nodes.paths import get_path, set_path, to_path, unset_path
from weft.nodes.values import js_equal, js_less_than, js_string, js_to_number, validate_field_type


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1e3", 1000), (" 12 ", 12), ("0x1f", 31), ("", 0), ("1.50", 1.5), (True, 1), (None, 0), ([5], 5)],
)
def test_number_conversion(value: Any, expected: Any) -> None:
    assert js_to_number(value) == expected


@pytest.mark.parametrize("value", ["abc", [1, 2], {"a": 1}, "1,5"])
def test_number_conversion_nan(value: Any) -> None:
    assert math.isnan(js_to_number(value))


@pytest.mark.parametrize(
    ("value", "expected"),
    [(1.0, "1"), (1e21, "1e+21"), (1.5e-7, "1.5e-7"), ([1, None, [2, 3]], "1,,2,3"), ({"a": 1}, "[object Object]")],
)
def test_string_conversion(value: Any, expected: str) -> None:
    assert js_string(value) == expected


def test_equality_and_order_follow_javascript() -> None:
    assert js_equal({"a": [1, 2.0]}, {"a": [1, 2]}) and not js_equal(1, True)
    assert js_less_than("10", 9) is False and js_less_than("a", "b") and not js_less_than(None, -1)


def test_paths_follow_lodash() -> None:
    data = {"a": {"b": [1, {"c": 2}]}, "x.y": 3}
    assert to_path('a.b[1]["c"]') == ["a", "b", "1", "c"]
    assert (get_path(data, "a.b[1].c"), get_path(data, "x.y"), get_path(data, "a.z", default=0)) == (2, 3, 0)


def test_set_and_unset_copy_the_containers_they_change() -> None:
    source = {"a": {"b": 1}, "keep": {"k": 1}}
    copy = dict(source)
    set_path(copy, "a.c", 2)
    set_path(copy, "list[2]", "x")
    unset_path(copy, "a.b")
    assert copy == {"a": {"c": 2}, "keep": {"k": 1}, "list": [None, None, "x"]}
    assert source == {"a": {"b": 1}, "keep": {"k": 1}} and copy["keep"] is source["keep"]


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [("true", "boolean", True), ("0", "boolean", False), ("{a: 1}", "object", {"a": 1}), ("['a']", "array", ["a"])],
)
def test_validate_field_type_converts(value: Any, kind: str, expected: Any) -> None:
    assert validate_field_type("f", value, kind) == (True, expected, "")


def test_validate_field_type_messages() -> None:
    assert validate_field_type("f", "yes", "boolean")[2] == "'f' expects a boolean but we got 'yes'"
    assert validate_field_type("f", [1], "number", strict=True)[2] == "'f' expects a number but we got array"
