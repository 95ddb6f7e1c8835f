"""Compare Datasets: n8n's fuzzy comparison at each version, and the node's matching (more in n460-n467)."""

from __future__ import annotations

import pytest

from weft.library.core._compare_datasets_items import UNDEFINED, fuzzy_compare


@pytest.mark.parametrize(
    ("a", "b", "v1", "v2"),
    [
        (3, "3", True, True),
        (None, 0, False, True),  # version 2 treats null, 0 and "0" alike
        (None, "0", False, True),
        (None, "", True, True),  # empty values match each other
        ([], None, True, True),
        ({}, None, False, False),  # {} is not "falsy" to n8n
        ("", UNDEFINED, True, True),  # a missing field matches an empty one
        (True, "TRUE", True, True),
        (False, 0, True, True),
        (True, "1", True, True),
        ({"a": 1}, '{"a":1}', True, True),
        ([1, 2], "[1, 2]", True, True),
        ("x", "y", False, False),
        (1, 1.0, True, True),
    ],
)
def test_fuzzy_compare(a, b, v1, v2):
    assert fuzzy_compare(True, 1)(a, b) is v1
    assert fuzzy_compare(True, 2)(a, b) is v2
    assert fuzzy_compare(True, 2)(b, a) is v2


def test_strict_compare_is_lodash_is_equal():
    equal = fuzzy_compare(False)
    assert equal({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
    assert not equal(1, "1")
    assert not equal(True, 1)
    assert not equal(None, UNDEFINED)


def _compare(new_flow, a, b, parameters, version=2.3):
    flow = new_flow().add("Trigger", "manualTrigger").add("A", "noOp").add("B", "noOp")
    flow.add("Compare", "compareDatasets", parameters, typeVersion=version)
    flow.connect("Trigger", "A").connect("Trigger", "B").connect("A", "Compare").connect("B", "Compare", into=1)
    return flow.pin("A", a).pin("B", b).run()


MATCH = {"mergeByFields": {"values": [{"field1": "id", "field2": "key"}]}}


async def test_four_outputs_and_all_matches(new_flow, js):
    a = [{"id": 1, "x": 1}, {"id": 2, "x": 2}, {"id": 3}, {}]
    b = [{"x": 1, "id": 1}, {"x": 9, "id": 2}, {"x": 2, "id": 2}, {"id": 7}]
    by_id = {"mergeByFields": {"values": [{"field1": "id", "field2": "id"}]}}
    run = await _compare(new_flow, a, b, {**by_id, "options": {"multipleMatches": "all"}})
    assert js(run, "Compare", 0) == [{"id": 3}]  # the empty item is dropped
    assert js(run, "Compare", 1) == [{"id": 1, "x": 1}, {"id": 2, "x": 2}]
    assert js(run, "Compare", 2) == [
        {
            "keys": {"id": 2},
            "same": {"id": 2},
            "different": {"x": {"inputA": 2, "inputB": 9}},
        }
    ]
    assert js(run, "Compare", 3) == [{"id": 7}]


@pytest.mark.parametrize(("version", "kept"), [(2, {"id": 1, "x": "b", "key": 1}), (2.1, None)])
async def test_the_default_resolution_changed_in_2_1(new_flow, js, version, kept):
    run = await _compare(new_flow, [{"id": 1, "x": "a"}], [{"key": 1, "id": 1, "x": "b"}], MATCH, version)
    different = js(run, "Compare", 2)
    if kept is None:  # includeBoth
        assert different[0]["different"]["x"] == {"inputA": "a", "inputB": "b"}
    else:  # preferInput2
        assert different == [kept]


async def test_mix_takes_the_excepted_fields_from_the_other_input_without_changing_it(new_flow, js):
    params = {**MATCH, "resolve": "mix", "preferWhenMix": "input1", "exceptWhenMix": "x"}
    run = await _compare(new_flow, [{"id": 1, "x": "a", "y": 1}], [{"key": 1, "x": "b", "y": 2}], params)
    assert js(run, "Compare", 2) == [{"id": 1, "x": "b", "y": 1}]
    assert js(run, "A") == [{"id": 1, "x": "a", "y": 1}]


async def test_a_match_field_missing_everywhere_is_an_error_before_2_2(new_flow):
    run = await _compare(new_flow, [{"id": 1}], [{"other": 1}], MATCH, 2.1)
    assert run["data"]["resultData"]["error"]["message"] == "Field 'key' is not present in any of items in 'Input B'"
    run = await _compare(new_flow, [{"id": 1}], [{"other": 1}], MATCH, 2.2)
    assert "error" not in run["data"]["resultData"]
