from __future__ import annotations

from typing import Any

ITEMS = [{"name": "a", "tags": [1, None], "user": {"id": 1}}, {"name": None, "tags": [2]}, {"user": {"id": 3}}]


def fields(*specs: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {"fieldsToAggregate": {"fieldToAggregate": list(specs)}, "options": options}


async def test_individual_fields_skip_missing_values(run_node, out):
    run = await run_node("aggregate", fields({"fieldToAggregate": "name"}, {"fieldToAggregate": "user.id"}), ITEMS)
    assert out(run) == [
        [{"json": {"name": ["a"], "id": [1, 3]}, "pairedItem": [{"item": 0}, {"item": 1}, {"item": 2}]}]
    ]


async def test_merge_lists_keep_missing_and_rename(run_node, js):
    spec = {"fieldToAggregate": "tags", "renameField": True, "outputFieldName": "all"}
    merged = await run_node("aggregate", fields(spec, mergeLists=True), ITEMS)
    missing = await run_node("aggregate", fields({"fieldToAggregate": "name"}, keepMissing=True), ITEMS)
    assert js(merged) == [{"all": [1, 2]}]
    assert js(missing) == [{"name": ["a", None, None]}]


async def test_duplicate_output_field_is_an_error(run_node):
    run = await run_node("aggregate", fields({"fieldToAggregate": "a"}, {"fieldToAggregate": "a"}), ITEMS)
    assert run["data"]["resultData"]["error"]["message"] == "The 'a' output field is used more than once"


async def test_all_item_data(run_node, out):
    run = await run_node("aggregate", {"aggregate": "aggregateAllItemData"}, [{"a": 1}, {"b": 2}])
    assert out(run) == [[{"json": {"data": [{"a": 1}, {"b": 2}]}, "pairedItem": [{"item": 0}, {"item": 1}]}]]


async def test_all_item_data_with_selected_fields(run_node, out):
    params = {
        "aggregate": "aggregateAllItemData",
        "destinationFieldName": "rows",
        "include": "specifiedFields",
        "fieldsToInclude": "a",
    }
    run = await run_node("aggregate", params, [{"a": 1, "x": 0}, {"b": 2}])
    assert out(run) == [[{"json": {"rows": [{"a": 1}]}, "pairedItem": [{"item": 0}]}]]
