from __future__ import annotations

import pytest


async def test_splits_a_list_of_values(run_node, out):
    run = await run_node(
        "splitOut", {"fieldToSplitOut": "tags"}, [{"id": 1, "tags": ["a", "b"]}, {"id": 2, "tags": "c"}]
    )
    assert out(run) == [
        [
            {"json": {"tags": "a"}, "pairedItem": {"item": 0}},
            {"json": {"tags": "b"}, "pairedItem": {"item": 0}},
            {"json": {"tags": "c"}, "pairedItem": {"item": 1}},
        ]
    ]


async def test_objects_are_spread_when_nothing_else_is_kept(run_node, js):
    run = await run_node("splitOut", {"fieldToSplitOut": "data.rows"}, [{"data": {"rows": [{"x": 1}, {"x": 2}]}}])
    assert js(run) == [{"x": 1}, {"x": 2}]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"include": "allOtherFields"}, [{"id": 1, "other": "o", "tags": "a"}, {"id": 1, "other": "o", "tags": "b"}]),
        ({"include": "selectedOtherFields", "fieldsToInclude": "id"}, [{"tags": "a", "id": 1}, {"tags": "b", "id": 1}]),
        ({"options": {"destinationFieldName": "tag"}}, [{"tag": "a"}, {"tag": "b"}]),
    ],
)
async def test_include_and_destination(run_node, js, params, expected):
    run = await run_node(
        "splitOut", {"fieldToSplitOut": "tags", **params}, [{"id": 1, "other": "o", "tags": ["a", "b"]}]
    )
    assert js(run) == expected


async def test_several_fields_are_split_side_by_side(run_node, js):
    run = await run_node("splitOut", {"fieldToSplitOut": "a, b"}, [{"a": [1, 2], "b": ["x"]}])
    assert js(run) == [{"a": 1, "b": "x"}, {"a": 2}]


async def test_dot_notation_can_be_disabled(run_node, js):
    params = {"fieldToSplitOut": "a.b", "options": {"disableDotNotation": True}}
    run = await run_node("splitOut", params, [{"a.b": [1, 2], "a": {"b": [9]}}])
    assert js(run) == [{"a.b": 1}, {"a.b": 2}]


async def test_a_missing_field_gives_no_items(run_node, out):
    run = await run_node("splitOut", {"fieldToSplitOut": "nope"}, [{"a": 1}])
    assert out(run) == [[]]
