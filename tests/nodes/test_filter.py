from __future__ import annotations

from typing import Any

import pytest

#: As n8n's editor stores them: the array operators compare with a value or a number.
RIGHT_TYPES = {
    "contains": "any",
    "notContains": "any",
    **{f"length{s}": "number" for s in ("Equals", "NotEquals", "Gt", "Lt", "Gte", "Lte")},
}


def filter_params(left: Any, kind: str, operation: str, right: Any = "", **extra: Any) -> dict[str, Any]:
    operator = {"type": kind, "operation": operation}
    if kind == "array" and operation in RIGHT_TYPES:
        operator["rightType"] = RIGHT_TYPES[operation]
    if operation in ("exists", "notExists", "empty", "notEmpty", "true", "false"):
        operator["singleValue"] = True
    return {
        "conditions": {
            "options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict", "version": 2},
            "conditions": [{"id": "1", "leftValue": left, "rightValue": right, "operator": operator}],
            "combinator": "and",
        },
        "options": {},
        **extra,
    }


CASES = [
    ("abc", "string", "exists", "", True),
    (None, "string", "notExists", "", True),
    ("", "string", "empty", "", True),
    ("a", "string", "notEmpty", "", True),
    ("abc", "string", "equals", "abc", True),
    ("abc", "string", "notEquals", "abd", True),
    ("abc", "string", "contains", "b", True),
    ("abc", "string", "notContains", "z", True),
    ("abc", "string", "startsWith", "ab", True),
    ("abc", "string", "notStartsWith", "b", True),
    ("abc", "string", "endsWith", "bc", True),
    ("abc", "string", "notEndsWith", "b", True),
    ("abc123", "string", "regex", "^[a-z]+\\d+$", True),
    ("ABC", "string", "regex", "/abc/i", True),
    ("abc", "string", "notRegex", "\\d", True),
    ("2024-x", "string", "regex", "/(?<year>\\d{4})-X/i", True),
    # JavaScript's reading of the pattern: $ is the end of the text, . stops at a line break, \s includes U+00A0
    ("abc\n", "string", "regex", "abc$", False),
    ("a\nc", "string", "regex", "a.c", False),
    ("a\nc", "string", "regex", "/a.c/s", True),
    ("a\u00a0b", "string", "regex", "a\\sb", True),
    ("aaaa", "string", "regex", "^(a|a)+\\1$", True),  # a backreference: the backtracking engine
    (5, "number", "equals", 5, True),
    (5, "number", "notEquals", 4, True),
    (5, "number", "gt", 4, True),
    (5, "number", "lt", 4, False),
    (5, "number", "gte", 5, True),
    (5, "number", "lte", 4.5, False),
    (None, "number", "empty", "", True),
    ("2024-01-02T00:00:00Z", "dateTime", "after", "2024-01-01", True),
    ("2024-01-02", "dateTime", "before", "2024-01-01T10:00:00+02:00", False),
    ("2024-01-01T00:00:00Z", "dateTime", "afterOrEquals", "2024-01-01T00:00:00.000Z", True),
    ("Tue, 02 Jan 2024 00:00:00 GMT", "dateTime", "beforeOrEquals", "2024-01-02T00:00:00Z", True),
    (True, "boolean", "true", "", True),
    (False, "boolean", "false", "", True),
    (True, "boolean", "equals", True, True),
    (True, "boolean", "notEquals", True, False),
    ([1, 2], "array", "contains", 2, True),
    (["a"], "array", "notContains", "b", True),
    ([1, 2], "array", "lengthEquals", 2, True),
    ([1, 2], "array", "lengthNotEquals", 2, False),
    ([1, 2], "array", "lengthGt", 1, True),
    ([1, 2], "array", "lengthLt", 2, False),
    ([1, 2], "array", "lengthGte", 2, True),
    ([1, 2], "array", "lengthLte", 1, False),
    ([], "array", "empty", "", True),
    ([0], "array", "notEmpty", "", True),
    ({}, "object", "empty", "", True),
    ({"a": 1}, "object", "notEmpty", "", True),
]


@pytest.mark.parametrize(("left", "kind", "operation", "right", "expected"), CASES)
async def test_operators(run_node, js, left, kind, operation, right, expected):
    run = await run_node("filter", filter_params("={{ $json.v }}", kind, operation, right), [{"v": left}], version=2.2)
    assert js(run) == ([{"v": left}] if expected else [])


async def test_keeps_matching_items_with_their_pairing(run_node, out):
    run = await run_node(
        "filter", filter_params("={{ $json.n }}", "number", "gte", 2), [{"n": 1}, {"n": 2}, {"n": 3}], version=2.2
    )
    # as in n8n, the discarded items are a second output in the run data (recorded case n054)
    assert out(run) == [
        [{"json": {"n": 2}, "pairedItem": {"item": 1}}, {"json": {"n": 3}, "pairedItem": {"item": 2}}],
        [{"json": {"n": 1}, "pairedItem": {"item": 0}}],
    ]


async def test_case_insensitive_and_array_contains_ignore_case(run_node, js):
    params = filter_params("={{ $json.tags }}", "array", "contains", "RED", options={"ignoreCase": True})
    run = await run_node("filter", params, [{"tags": ["red"]}, {"tags": ["blue"]}], version=2.2)
    assert js(run) == [{"tags": ["red"]}]


async def test_ignore_case_lowercases_the_value_of_a_regex_condition_not_the_pattern(run_node, js):
    # n8n: `leftValue.toLocaleLowerCase()` for every string operator; the pattern keeps its case and flags
    items = [{"v": "ABC"}, {"v": "abc"}]
    upper = filter_params("={{ $json.v }}", "string", "regex", "^[A-Z]+$", options={"ignoreCase": True})
    assert js(await run_node("filter", upper, items, version=2.2)) == []
    lower = filter_params("={{ $json.v }}", "string", "regex", "^[a-z]+$", options={"ignoreCase": True})
    assert js(await run_node("filter", lower, items, version=2.2)) == items


async def test_an_invalid_pattern_is_the_node_error_v8_gives(run_node):
    run = await run_node(
        "filter", filter_params("={{ $json.v }}", "string", "regex", "/(/i"), [{"v": "x"}], version=2.2
    )
    assert run["data"]["resultData"]["error"]["message"].startswith("Invalid regular expression: /(/i: ")


async def test_loose_validation_converts_booleans_and_numbers(run_node, js):
    params = filter_params("={{ $json.v }}", "boolean", "true", looseTypeValidation=True)
    run = await run_node("filter", params, [{"v": "true"}, {"v": "false"}, {"v": 1}, {"v": 0}], version=2.2)
    assert js(run) == [{"v": "true"}, {"v": 1}]


async def test_strict_mismatch_fails_and_continue_on_fail_discards(run_node, js):
    params = filter_params("={{ $json.v }}", "string", "equals", "1")
    failed = await run_node("filter", params, [{"v": 1}], version=2.2)
    kept = await run_node("filter", params, [{"v": 1}, {"v": "1"}], version=2.2, onError="continueRegularOutput")
    assert failed["data"]["resultData"]["error"]["message"] == (
        "Wrong type: '1' is a number but was expecting a string [condition 0, item 0]"
    )
    assert js(kept) == [{"v": "1"}]


async def test_both_values_of_the_wrong_type(run_node):
    run = await run_node("filter", filter_params("={{ $json.v }}", "number", "equals", "b"), [{"v": "a"}], version=2.2)
    assert (
        run["data"]["resultData"]["error"]["message"] == "Comparison type expects a number but both fields are a string"
    )
