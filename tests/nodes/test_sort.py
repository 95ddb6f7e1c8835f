from __future__ import annotations

from typing import Any


def by(*fields: tuple[str, str], **options: Any) -> dict[str, Any]:
    return {"sortFieldsUi": {"sortField": [{"fieldName": f, "order": o} for f, o in fields]}, "options": options}


async def test_sorts_by_fields_stably_and_case_insensitively(run_node, out):
    items = [{"n": "b", "k": 2}, {"n": "A", "k": 1}, {"n": "a", "k": 3}]
    run = await run_node("sort", by(("n", "ascending"), ("k", "descending")), items)
    assert out(run) == [
        [
            {"json": {"n": "a", "k": 3}, "pairedItem": {"item": 2}},
            {"json": {"n": "A", "k": 1}, "pairedItem": {"item": 1}},
            {"json": {"n": "b", "k": 2}, "pairedItem": {"item": 0}},
        ]
    ]


async def test_nested_fields_and_numbers(run_node, js):
    run = await run_node("sort", by(("a.v", "descending")), [{"a": {"v": 2}}, {"a": {"v": 10}}, {"a": {"v": 1}}])
    assert js(run) == [{"a": {"v": 10}}, {"a": {"v": 2}}, {"a": {"v": 1}}]


async def test_missing_field_is_an_error(run_node):
    run = await run_node("sort", by(("a.b", "ascending"), disableDotNotation=True), [{"a": {"b": 1}}])
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Couldn't find the field 'a.b' in the input data"
    assert "disable dot notation" in error["description"]


async def test_random_keeps_every_item(run_node, js):
    run = await run_node("sort", {"type": "random"}, [{"n": i} for i in range(20)])
    assert sorted(i["n"] for i in js(run)) == list(range(20))


async def test_code_sort_runs_the_comparator_and_keeps_the_pairing(run_node, out):
    run = await run_node("sort", {"type": "code", "code": "return b.json.n - a.json.n"}, [{"n": 1}, {"n": 3}, {"n": 2}])
    sorted_items = [(i["json"]["n"], i["pairedItem"]) for i in out(run)[0]]
    assert sorted_items == [(3, {"item": 1}), (2, {"item": 2}), (1, {"item": 0})]


async def test_code_sort_without_return_is_an_error(run_node):
    run = await run_node("sort", {"type": "code", "code": "a.json.n - b.json.n"}, [{"n": 1}])
    assert run["data"]["resultData"]["error"]["message"].startswith("Sort code doesn't return")
