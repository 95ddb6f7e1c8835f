from __future__ import annotations

from typing import Any


def rule(value: str, **extra: Any) -> dict[str, Any]:
    return {
        "conditions": {
            "options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict", "version": 2},
            "conditions": [
                {
                    "leftValue": "={{ $json.kind }}",
                    "rightValue": value,
                    "operator": {"type": "string", "operation": "equals"},
                }
            ],
            "combinator": "and",
        },
        **extra,
    }


ITEMS = [{"kind": "a"}, {"kind": "b"}, {"kind": "c"}, {"kind": "a"}]


async def test_rules_route_to_the_first_matching_output(run_node, out):
    run = await run_node("switch", {"rules": {"values": [rule("a"), rule("b")]}}, ITEMS, version=3.2)
    assert out(run) == [
        [{"json": {"kind": "a"}, "pairedItem": {"item": 0}}, {"json": {"kind": "a"}, "pairedItem": {"item": 3}}],
        [{"json": {"kind": "b"}, "pairedItem": {"item": 1}}],
    ]


async def test_extra_fallback_output(run_node, js):
    params = {"rules": {"values": [rule("a"), rule("b")]}, "options": {"fallbackOutput": "extra"}}
    run = await run_node("switch", params, ITEMS, version=3.2)
    assert js(run, output=2) == [{"kind": "c"}]


async def test_fallback_to_an_existing_output(run_node, js):
    params = {"rules": {"values": [rule("a"), rule("b")]}, "options": {"fallbackOutput": 1}}
    run = await run_node("switch", params, ITEMS, version=3.2)
    assert js(run, output=1) == [{"kind": "b"}, {"kind": "c"}]


async def test_all_matching_outputs(run_node, out):
    params = {
        "rules": {"values": [rule("a"), rule("a", renameOutput=True, outputKey="again")]},
        "options": {"allMatchingOutputs": True},
    }
    run = await run_node("switch", params, [{"kind": "a"}], version=3.2)
    assert out(run) == [[{"json": {"kind": "a"}, "pairedItem": {"item": 0}}]] * 2


async def test_outputs_downstream_follow_the_rules(new_flow):
    flow = new_flow().add("Trigger", "manualTrigger").add("Input", "noOp").pin("Input", ITEMS)
    flow.add("Switch", "switch", {"rules": {"values": [rule("a"), rule("b")]}}, version=3.2)
    flow.add("A", "noOp").add("B", "noOp")
    flow.connect("Trigger", "Input").connect("Input", "Switch").connect("Switch", "A").connect("Switch", "B", out=1)
    run = await flow.run()
    run_data = run["data"]["resultData"]["runData"]
    assert len(run_data["A"][0]["data"]["main"][0]) == 2
    assert run_data["B"][0]["source"] == [{"previousNode": "Switch", "previousNodeOutput": 1, "previousNodeRun": 0}]


async def test_expression_mode_routes_by_index(run_node, js):
    params = {"mode": "expression", "numberOutputs": 3, "output": "={{ $json.to }}"}
    run = await run_node("switch", params, [{"to": 2}, {"to": 0}], version=3.2)
    assert [js(run, output=i) for i in range(3)] == [[{"to": 0}], [], [{"to": 2}]]


async def test_expression_mode_rejects_an_index_out_of_range(run_node):
    params = {"mode": "expression", "numberOutputs": 2, "output": "={{ $json.to }}"}
    run = await run_node("switch", params, [{"to": 2}], version=3.2)
    error = run["data"]["resultData"]["error"]
    assert (error["message"], error["description"]) == (
        "The ouput 2 is not allowed. ",
        "Output indexes are zero based, if you want to use the extra output use 1",
    )


async def test_strict_type_error_and_continue_on_fail(run_node, js):
    params = {"rules": {"values": [rule("a")]}}
    failed = await run_node("switch", params, [{"kind": 1}], version=3.2)
    kept = await run_node("switch", params, [{"kind": 1}], version=3.2, onError="continueRegularOutput")
    assert failed["data"]["resultData"]["error"]["message"].startswith("Wrong type: '1' is a number")
    assert js(kept) == [{"error": "Wrong type: '1' is a number but was expecting a string [condition 0, item 0]"}]


async def test_expression_mode_with_javascript(run_node, js):
    params = {"mode": "expression", "numberOutputs": 2, "output": "={{ $json.n % 2 }}"}
    run = await run_node("switch", params, [{"n": 1}, {"n": 2}, {"n": 3}], version=3.2)
    assert (js(run, output=0), js(run, output=1)) == ([{"n": 2}], [{"n": 1}, {"n": 3}])


def test_v1_and_v2_outputs_follow_their_parameters() -> None:
    from weft.library.core.switch import configured_outputs

    v1_rules = {"dataType": "number", "rules": {"rules": [{"operation": "smaller", "value2": 1, "output": 2}]}}
    v2_rules = {"dataType": "string", "rules": {"rules": [{"operation": "equal", "value2": "a"}, {"value2": "b"}]}}
    assert len(configured_outputs(v1_rules)) == 4
    assert len(configured_outputs(v2_rules)) == 2
    assert len(configured_outputs({"mode": "expression", "outputsAmount": 3, "output": 1})) == 3
