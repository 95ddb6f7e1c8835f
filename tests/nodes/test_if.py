from __future__ import annotations

from typing import Any


def conditions(*conds: dict[str, Any], combinator: str = "and", **options: Any) -> dict[str, Any]:
    return {
        "conditions": {
            "options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict", "version": 2, **options},
            "conditions": [{"id": str(i), **c} for i, c in enumerate(conds)],
            "combinator": combinator,
        },
        "options": {},
    }


def cond(left: Any, kind: str, operation: str, right: Any = "", **operator: Any) -> dict[str, Any]:
    return {"leftValue": left, "rightValue": right, "operator": {"type": kind, "operation": operation, **operator}}


async def test_routes_items_to_true_and_false(run_node, out):
    params = conditions(cond("={{ $json.n }}", "number", "gt", 2))
    run = await run_node("if", params, [{"n": 1}, {"n": 3}], version=2.2)
    assert out(run) == [
        [{"json": {"n": 3}, "pairedItem": {"item": 1}}],
        [{"json": {"n": 1}, "pairedItem": {"item": 0}}],
    ]


async def test_or_combinator(run_node, js):
    params = conditions(
        cond("={{ $json.s }}", "string", "equals", "a"),
        cond("={{ $json.s }}", "string", "endsWith", "z"),
        combinator="or",
    )
    run = await run_node("if", params, [{"s": "a"}, {"s": "xyz"}, {"s": "b"}], version=2.2)
    assert js(run, output=0) == [{"s": "a"}, {"s": "xyz"}]
    assert js(run, output=1) == [{"s": "b"}]


async def test_strict_type_error_is_worded_like_n8n(run_node):
    run = await run_node("if", conditions(cond("={{ $json.n }}", "number", "equals", 1)), [{"n": "abc"}], version=2.2)
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Wrong type: 'abc' is a string but was expecting a number [condition 0, item 0]"
    assert "Converting the first field to a number by adding <code>.toNumber()</code>" in error["description"]


async def test_loose_type_validation_converts(run_node, js):
    params = {**conditions(cond("={{ $json.n }}", "number", "equals", "5")), "looseTypeValidation": True}
    run = await run_node("if", params, [{"n": "5"}, {"n": "abc"}], version=2.2, onError="continueRegularOutput")
    assert js(run, output=0) == [{"n": "5"}]
    assert js(run, output=1) == [{"n": "abc"}]


async def test_loose_conversion_error_message(run_node):
    params = {**conditions(cond("={{ $json.n }}", "number", "equals", 1)), "looseTypeValidation": True}
    run = await run_node("if", params, [{"n": "abc"}], version=2.2)
    message = run["data"]["resultData"]["error"]["message"]
    assert message == "Conversion error: the string 'abc' can't be converted to a number [condition 0, item 0]"


async def test_ignore_case_option(run_node, js):
    params = conditions(cond("={{ $json.s }}", "string", "contains", "ABC"))
    params["options"] = {"ignoreCase": True}
    run = await run_node("if", params, [{"s": "xabcx"}], version=2.2)
    assert js(run, output=0) == [{"s": "xabcx"}]


async def test_continue_on_fail_sends_failing_items_to_false(run_node, js):
    run = await run_node(
        "if",
        conditions(cond("={{ $json.n }}", "number", "lt", 5)),
        [{"n": "x"}, {"n": 1}],
        version=2.2,
        onError="continueRegularOutput",
    )
    assert js(run, output=0) == [{"n": 1}]
    assert js(run, output=1) == [{"n": "x"}]


async def test_always_output_data_multiple_outputs_fixture(new_flow):
    """n8n's always_output_data_multiple_outputs.json as n8n 2.8.4/2.41.1 run it (recorded case f903): the false
    output's item, then the ``{}`` that alwaysOutputData puts on the empty true output."""
    edit = {
        "assignments": {"assignments": [{"id": "1", "name": "foo", "value": "bar", "type": "string"}]},
        "options": {},
    }
    check = conditions(cond(False, "boolean", "true", singleValue=True))
    flow = (
        new_flow()
        .add("Trigger", "manualTrigger")
        .add("Edit Fields", "set", edit, version=3.4)
        .add("If", "if", check, version=2.2, alwaysOutputData=True)
        .add("NoOp", "noOp")
    )
    flow.connect("Trigger", "Edit Fields").connect("Edit Fields", "If").connect("If", "NoOp").connect(
        "If", "NoOp", out=1
    )
    run = await flow.run()
    runs = run["data"]["resultData"]["runData"]["NoOp"]
    assert [r["data"]["main"] for r in runs] == [
        [[{"json": {"foo": "bar"}, "pairedItem": {"item": 0}}]],
        [[{"json": {}, "pairedItem": {"item": 0}}]],
    ]


async def test_javascript_expression_as_a_boolean_condition(run_node, js):
    params = conditions(cond("={{ $json.n % 2 === 0 }}", "boolean", "true", singleValue=True))
    run = await run_node("if", params, [{"n": 1}, {"n": 2}], version=2.2)
    assert js(run, output=0) == [{"n": 2}]


async def test_continue_error_output_keeps_failing_items_on_false(run_node, out):
    params = conditions(cond("={{ $json.n }}", "number", "lt", 5))
    run = await run_node("if", params, [{"n": "x"}, {"n": 1}], version=2.2, onError="continueErrorOutput")
    assert out(run) == [
        [{"json": {"n": 1}, "pairedItem": {"item": 1}}],
        [{"json": {"n": "x"}, "pairedItem": {"item": 0}}],
        [],
    ]
