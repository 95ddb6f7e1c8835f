"""Summarize: the aggregations and groupings n8n's code gives (the recorded cases n450-n457 hold the rest)."""

from __future__ import annotations

ITEMS = [
    {"k": 1, "v": "b", "o": {"a": 1}},
    {"k": "1", "v": 10, "o": {"a": 1}},
    {"k": 1, "v": "a", "o": None},
]


def _params(*aggregations: dict[str, object], **extra: object) -> dict[str, object]:
    return {"fieldsToSummarize": {"values": list(aggregations)}, **extra}


async def test_count_unique_counts_objects_one_by_one_and_min_max_compare_as_javascript(run_node, js):
    run = await run_node(
        "summarize",
        _params(
            {"aggregation": "countUnique", "field": "o"},
            {"aggregation": "min", "field": "v"},
            {"aggregation": "max", "field": "v"},
            {"aggregation": "sum", "field": "v"},
            {"aggregation": "average", "field": "missing.deep"},
        ),
        ITEMS,
        typeVersion=1.1,
    )
    # two equal objects are two values in a JavaScript Set; 10 and "b" do not compare, "a" < "b" does
    assert js(run) == [{"unique_count_o": 2, "min_v": "a", "max_v": "b", "sum_v": 10, "average_missing_deep": None}]


async def test_version_1_groups_by_text_and_1_1_by_value(run_node, js):
    aggregation = {"aggregation": "count", "field": "v"}
    v1 = await run_node("summarize", _params(aggregation, fieldsToSplitBy="k"), ITEMS, typeVersion=1)
    v11 = await run_node("summarize", _params(aggregation, fieldsToSplitBy="k"), ITEMS, typeVersion=1.1)
    assert js(v1) == [{"count_v": 3, "k": "1"}]
    assert js(v11) == [{"count_v": 2, "k": 1}, {"count_v": 1, "k": "1"}]


async def test_paired_items_follow_the_groups(run_node, out):
    run = await run_node(
        "summarize", _params({"aggregation": "append", "field": "v"}, fieldsToSplitBy="k"), ITEMS, typeVersion=1.1
    )
    assert [item["pairedItem"] for item in out(run)[0]] == [[{"item": 0}, {"item": 2}], [{"item": 1}]]


async def test_no_field_to_summarize_is_an_error_naming_the_parameter(run_node):
    run = await run_node("summarize", _params({"aggregation": "sum", "field": ""}), ITEMS)
    error = run["data"]["resultData"]["error"]
    assert "'Fields to Summarize' with non empty 'Field'" in error["message"]


async def test_a_missing_field_stops_version_1_only(run_node, js):
    params = _params({"aggregation": "sum", "field": "nope"})
    stopped = await run_node("summarize", params, ITEMS, typeVersion=1)
    assert stopped["data"]["resultData"]["error"]["message"] == "The field 'nope' does not exist in any items"
    assert js(await run_node("summarize", params, ITEMS, typeVersion=1.1)) == [{"sum_nope": 0}]
