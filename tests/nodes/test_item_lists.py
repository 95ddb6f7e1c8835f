"""Item Lists (itemLists 1, 2, 2.1, 2.2, 3, 3.1): each operation over the standalone node's logic, with each
version's own parameters and checks."""

from __future__ import annotations

from typing import Any

import pytest

ITEMS = [{"id": 1, "tags": ["x", "y"], "n": 3, "s": "a"}, {"id": 2, "tags": ["z"], "n": 1, "s": "b"}]
MIXED = [{"a": 1, "b": "x"}, {"a": "1", "b": "x"}, {"a": 1, "b": "x"}]


def _error(run: dict[str, Any]) -> str:
    return str(run["data"]["resultData"]["runData"]["Node"][0]["error"]["message"])


async def test_split_out_in_every_version(run_node, js):
    for version in (1, 2, 2.1, 2.2, 3, 3.1):
        run = await run_node("itemLists", {"fieldToSplitOut": "tags"}, ITEMS, version=version)
        assert js(run) == [{"tags": "x"}, {"tags": "y"}, {"tags": "z"}], version


@pytest.mark.parametrize(
    ("version", "field", "message"),
    [
        (1, "missing", "Couldn't find the field 'missing' in the input data"),
        (1, "n", "The provided field 'n' is not an array"),
        (2, "missing", "Couldn't find the field 'missing' in the input data"),
        (2.1, "n", "The provided field 'n' is not an array or object"),
    ],
)
async def test_split_out_checks_of_old_versions(run_node, version, field, message):
    run = await run_node("itemLists", {"fieldToSplitOut": field}, ITEMS, version=version)
    assert _error(run) == message


async def test_newer_split_out_wraps_values_and_drops_json_prefix(run_node, js):
    run = await run_node("itemLists", {"fieldToSplitOut": "$json.n, missing"}, ITEMS, version=3)
    assert js(run) == [{"n": 3}, {"n": 1}]


async def test_old_fixed_collections_of_field_names(run_node, js):
    params = {
        "operation": "aggregateItems",
        "aggregate": "aggregateAllItemData",
        "include": "specifiedFields",
        "fieldsToInclude": {"fields": [{"fieldName": "id"}]},
    }
    run = await run_node("itemLists", params, ITEMS, version=2)
    assert js(run) == [{"data": [{"id": 1}, {"id": 2}]}]
    params = {
        "operation": "removeDuplicates",
        "compare": "selectedFields",
        "fieldsToCompare": {"fields": [{"fieldName": "b"}]},
    }
    run = await run_node("itemLists", params, MIXED, version=1)
    assert js(run) == [{"a": 1, "b": "x"}]


async def test_aggregate_refuses_a_missing_field_before_2_1(run_node, js):
    params = {"operation": "aggregateItems", "fieldsToAggregate": {"fieldToAggregate": [{"fieldToAggregate": "nope"}]}}
    run = await run_node("itemLists", params, ITEMS, version=2)
    assert _error(run) == "Couldn't find the field 'nope' in the input data"
    run = await run_node("itemLists", params, ITEMS, version=2.1)
    assert js(run) == [{"nope": []}]


async def test_remove_duplicates_of_mixed_types_is_an_error_until_3_1(run_node, js):
    params = {"operation": "removeDuplicates", "compare": "selectedFields", "fieldsToCompare": "a, b"}
    run = await run_node("itemLists", params, MIXED, version=3)
    assert _error(run) == "'a' isn't always the same type"
    run = await run_node("itemLists", params, MIXED, version=3.1)
    assert js(run) == [{"a": 1, "b": "x"}, {"a": "1", "b": "x"}]


async def test_summarize_field_check_ends_at_2_1(run_node, js):
    params = {"operation": "summarize", "fieldsToSummarize": {"values": [{"aggregation": "sum", "field": "nope"}]}}
    run = await run_node("itemLists", params, ITEMS, version=2)
    assert _error(run) == "The field 'nope' does not exist in any items"
    run = await run_node("itemLists", params, ITEMS, version=3.1)
    assert js(run) == [{"sum_nope": 0}]


async def test_sort_limit_and_an_unknown_operation(run_node, js):
    sort = {"operation": "sort", "sortFieldsUi": {"sortField": [{"fieldName": "n"}]}}
    assert [i["id"] for i in js(await run_node("itemLists", sort, ITEMS, version=3.1))] == [2, 1]
    limit = {"operation": "limit", "maxItems": 1, "keep": "lastItems"}
    assert js(await run_node("itemLists", limit, ITEMS, version=2)) == [ITEMS[1]]
    run = await run_node("itemLists", {"operation": "aggregateItems"}, ITEMS, version=3)
    assert _error(run) == 'The operation "aggregateItems" is not supported!'
