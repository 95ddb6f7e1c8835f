from __future__ import annotations

import pytest

ITEMS = [{"a": 1, "b": {"c": "x"}}, {"a": 1, "b": {"c": "y"}}, {"a": 2, "b": {"c": "x"}}, {"a": 1, "b": {"c": "x"}}]


@pytest.mark.parametrize(
    ("params", "kept"),
    [
        ({}, [0, 1, 2]),
        ({"compare": "selectedFields", "fieldsToCompare": "a"}, [0, 2]),
        ({"compare": "selectedFields", "fieldsToCompare": "b.c"}, [0, 1]),
        ({"compare": "allFieldsExcept", "fieldsToExclude": "b.c"}, [0, 2]),
    ],
)
async def test_keeps_the_first_of_equal_items(run_node, out, params, kept):
    run = await run_node("removeDuplicates", params, ITEMS, version=2)
    assert out(run) == [[{"json": ITEMS[i], "pairedItem": {"item": i}} for i in kept]]


async def test_remove_other_fields(run_node, out):
    params = {"compare": "selectedFields", "fieldsToCompare": "b.c", "options": {"removeOtherFields": True}}
    run = await run_node("removeDuplicates", params, ITEMS, version=2)
    assert out(run) == [
        [{"json": {"b": {"c": "x"}}, "pairedItem": {"item": 0}}, {"json": {"b": {"c": "y"}}, "pairedItem": {"item": 1}}]
    ]


async def test_mixed_types_are_an_error(run_node):
    run = await run_node("removeDuplicates", {}, [{"v": 1}, {"v": True}], version=1.1)
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "'v' isn't always the same type"
    assert (
        error["description"]
        == "The type of this field varies between items, in item [0] it's a number and in item [1] it's a boolean "
    )


async def test_integral_floats_equal_ints(run_node, js):
    run = await run_node("removeDuplicates", {}, [{"v": 1}, {"v": 1.0}, {"v": 2}], version=2)
    assert js(run) == [{"v": 1}, {"v": 2}]


async def test_missing_field_is_an_error(run_node):
    run = await run_node("removeDuplicates", {"compare": "selectedFields", "fieldsToCompare": "z"}, ITEMS, version=2)
    assert run["data"]["resultData"]["error"]["message"] == "'z' field is missing from some input items"


async def test_history_operations_are_not_supported_yet(run_node):
    params = {"operation": "removeItemsRepeatedWithinPreviousExecutions"}
    run = await run_node("removeDuplicates", params, ITEMS, version=2)
    assert "is not supported yet" in run["data"]["resultData"]["error"]["message"]
