from __future__ import annotations

from typing import Any

import pytest

LEFT = [{"id": 1, "a": "x"}, {"id": 2, "a": "y"}, {"id": 3, "a": "z"}]
RIGHT = [{"id": 2, "b": "B2"}, {"id": 1, "b": "B1"}, {"id": 9, "b": "B9"}]


async def merge(new_flow, params: dict[str, Any], left: list[Any], right: list[Any], **extra: Any):
    flow = new_flow().add("Trigger", "manualTrigger").add("Left", "noOp").add("Right", "noOp")
    flow.add("Merge", "merge", params, version=3.1, **extra).pin("Left", left).pin("Right", right)
    flow.connect("Trigger", "Left").connect("Trigger", "Right").connect("Left", "Merge").connect(
        "Right", "Merge", into=1
    )
    return await flow.run()


async def test_append_keeps_input_order_and_pairing(new_flow, out):
    run = await merge(new_flow, {}, [{"a": 1}], [{"b": 2}, {"b": 3}])
    assert out(run, "Merge") == [
        [
            {"json": {"a": 1}, "pairedItem": {"item": 0}},
            {"json": {"b": 2}, "pairedItem": {"item": 0, "input": 1}},
            {"json": {"b": 3}, "pairedItem": {"item": 1, "input": 1}},
        ]
    ]


async def test_combine_by_fields_keep_matches_merges_both(new_flow, out):
    params = {"mode": "combine", "fieldsToMatchString": "id"}
    run = await merge(new_flow, params, LEFT, RIGHT)
    assert out(run, "Merge") == [
        [
            {
                "json": {"id": 1, "a": "x", "b": "B1"},
                "binary": {},
                "pairedItem": [{"item": 0}, {"item": 1, "input": 1}],
            },
            {
                "json": {"id": 2, "a": "y", "b": "B2"},
                "binary": {},
                "pairedItem": [{"item": 1}, {"item": 0, "input": 1}],
            },
        ]
    ]


@pytest.mark.parametrize(
    ("join", "output_from", "expected"),
    [
        (
            "keepNonMatches",
            "both",
            [{"id": 3, "a": "z", "_source": "input1"}, {"id": 9, "b": "B9", "_source": "input2"}],
        ),
        ("keepNonMatches", "input2", [{"id": 9, "b": "B9"}]),
        ("keepMatches", "input1", [{"id": 1, "a": "x"}, {"id": 2, "a": "y"}]),
        ("enrichInput1", "both", [{"id": 1, "a": "x", "b": "B1"}, {"id": 2, "a": "y", "b": "B2"}, {"id": 3, "a": "z"}]),
        (
            "enrichInput2",
            "both",
            [{"id": 1, "b": "B1", "a": "x"}, {"id": 2, "b": "B2", "a": "y"}, {"id": 9, "b": "B9"}],
        ),
    ],
)
async def test_combine_by_fields_join_modes(new_flow, js, join, output_from, expected):
    params = {"mode": "combine", "fieldsToMatchString": "id", "joinMode": join, "outputDataFrom": output_from}
    run = await merge(new_flow, params, LEFT, RIGHT)
    assert js(run, "Merge") == expected


async def test_keep_everything_with_advanced_fields_and_suffix(new_flow, js):
    params = {
        "mode": "combine",
        "advanced": True,
        "mergeByFields": {"values": [{"field1": "id", "field2": "key"}]},
        "joinMode": "keepEverything",
        "options": {"clashHandling": {"values": {"resolveClash": "addSuffix"}}},
    }
    run = await merge(new_flow, params, [{"id": 1, "v": "l"}, {"id": 5, "v": "x"}], [{"key": 1, "v": "r"}])
    assert js(run, "Merge") == [{"id_1": 1, "v_1": "l", "key_2": 1, "v_2": "r"}, {"id_1": 5, "v_1": "x"}]


async def test_combine_by_fields_needs_fields(new_flow):
    run = await merge(new_flow, {"mode": "combine"}, LEFT, RIGHT)
    assert run["data"]["resultData"]["error"]["message"] == (
        'You need to define at least one pair of fields in "Fields to Match" to match on'
    )


async def test_combine_by_position(new_flow, out):
    run = await merge(new_flow, {"mode": "combine", "combineBy": "combineByPosition"}, [{"a": 1}, {"a": 2}], [{"b": 1}])
    assert out(run, "Merge") == [
        [
            {
                "json": {"a": 1, "b": 1},
                "binary": {},
                "pairedItem": [{"item": 0}, {"item": 0, "input": 1}, {"item": 0, "input": 1}],
            }
        ]
    ]


async def test_combine_all_makes_every_pair(new_flow, js):
    run = await merge(
        new_flow, {"mode": "combine", "combineBy": "combineAll"}, [{"a": 1}, {"a": 2}], [{"b": 1}, {"b": 2}]
    )
    assert js(run, "Merge") == [{"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 1}, {"a": 2, "b": 2}]


async def test_choose_branch(new_flow, out):
    specified = await merge(new_flow, {"mode": "chooseBranch", "useDataOfInput": 2}, [{"a": 1}], [{"b": 2}])
    empty = await merge(new_flow, {"mode": "chooseBranch", "output": "empty"}, [{"a": 1}], [{"b": 2}])
    assert out(specified, "Merge") == [[{"json": {"b": 2}, "pairedItem": {"item": 0, "input": 1}}]]
    assert out(empty, "Merge") == [[{"json": {}, "pairedItem": [{"item": 0}, {"item": 0, "input": 1}]}]]


async def test_three_inputs(new_flow, js):
    flow = new_flow().add("Trigger", "manualTrigger").add("Merge", "merge", {"numberInputs": 3}, version=3.1)
    for index, name in enumerate(("A", "B", "C")):
        flow.add(name, "noOp").pin(name, [{"from": name}]).connect("Trigger", name).connect(name, "Merge", into=index)
    run = await flow.run()
    assert js(run, "Merge") == [{"from": "A"}, {"from": "B"}, {"from": "C"}]


def _missing_input_flow(new_flow, mode: str):
    edit = {
        "assignments": {"assignments": [{"id": "1", "name": "test", "value": "a", "type": "string"}]},
        "options": {},
    }
    check = {
        "conditions": {
            "options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict", "version": 2},
            "conditions": [
                {
                    "leftValue": "={{ $json.test }}",
                    "rightValue": "b",
                    "operator": {"type": "string", "operation": "equals"},
                }
            ],
            "combinator": "and",
        },
        "options": {},
    }
    flow = (
        new_flow()
        .add("Start", "manualTrigger")
        .add("Set", "set", edit, version=3.4)
        .add("IF", "if", check, version=2.2)
    )
    flow.add("NoOp1", "noOp").add("Merge", "merge", {"mode": mode}, version=3.1)
    flow.connect("Start", "Set").connect("Set", "IF").connect("IF", "Merge").connect("IF", "NoOp1", out=1)
    return flow.connect("NoOp1", "Merge", into=1)


async def test_runs_with_a_missing_input_fixture(new_flow, js):
    """n8n v1 fixture "keep executing if input 1 data missing"."""
    run = await _missing_input_flow(new_flow, "append").run()
    order = sorted(run["data"]["resultData"]["runData"].items(), key=lambda kv: kv[1][0]["executionIndex"])
    assert [name for name, _ in order] == ["Start", "Set", "IF", "NoOp1", "Merge"]
    assert js(run, "Merge") == [{"test": "a"}]


async def test_choose_branch_requires_every_input(new_flow):
    run = await _missing_input_flow(new_flow, "chooseBranch").run()
    assert run["status"] == "success"
    assert "Merge" not in run["data"]["resultData"]["runData"]


async def test_sql_mode_is_a_clear_error(new_flow):
    run = await merge(new_flow, {"mode": "combineBySql"}, [{"a": 1}], [{"b": 1}])
    assert run["data"]["resultData"]["error"]["message"] == "The merge mode 'combineBySql' is not supported yet"
