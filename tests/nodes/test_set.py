from __future__ import annotations

from typing import Any

import pytest


def assignments(*entries: tuple[str, str, Any]) -> dict[str, Any]:
    return {
        "assignments": {
            "assignments": [{"id": str(i), "name": n, "type": t, "value": v} for i, (n, t, v) in enumerate(entries)]
        },
        "options": {},
    }


async def test_sets_typed_fields_without_other_fields(run_node, out):
    params = assignments(
        ("s", "string", 12), ("n", "number", "3.5"), ("b", "boolean", "true"), ("o", "object", '{"k": 1}')
    )
    run = await run_node("set", params, [{"keep": "x"}], version=3.4)
    assert out(run) == [[{"json": {"s": "12", "n": 3.5, "b": True, "o": {"k": 1}}, "pairedItem": {"item": 0}}]]


async def test_array_and_string_conversions(run_node, js):
    params = assignments(("a", "array", "[1, 'two']"), ("s", "string", {"x": [1, True]}), ("z", "number", None))
    run = await run_node("set", params, [{}], version=3.4)
    assert js(run) == [{"a": [1, "two"], "s": '{"x":[1,true]}', "z": None}]


async def test_dot_notation_creates_nested_and_keeps_input_unchanged(run_node, js):
    params = {**assignments(("a.b", "string", "new"), ("list[1]", "number", 7)), "includeOtherFields": True}
    run = await run_node("set", params, [{"a": {"c": 1}, "list": [0]}], version=3.4)
    assert js(run) == [{"a": {"c": 1, "b": "new"}, "list": [0, 7]}]
    assert js(run, "Input") == [{"a": {"c": 1}, "list": [0]}]


async def test_dot_notation_off_writes_the_key_as_is(run_node, js):
    params = assignments(("a.b", "string", "x"))
    params["options"] = {"dotNotation": False}
    run = await run_node("set", params, [{}], version=3.4)
    assert js(run) == [{"a.b": "x"}]


@pytest.mark.parametrize(
    ("include", "extra", "expected"),
    [
        ("all", {}, {"a": 1, "b": {"c": 2}, "d": 3, "new": 1}),
        ("selected", {"includeFields": "a, b.c"}, {"a": 1, "c": 2, "new": 1}),
        ("except", {"excludeFields": "a,b.c"}, {"b": {}, "d": 3, "new": 1}),
    ],
)
async def test_include_other_fields(run_node, js, include, extra, expected):
    params = {**assignments(("new", "number", 1)), "includeOtherFields": True, "include": include, **extra}
    run = await run_node("set", params, [{"a": 1, "b": {"c": 2}, "d": 3}], version=3.4)
    assert js(run) == [expected]


async def test_values_from_json_lookups(run_node, js):
    params = assignments(("name", "string", "={{ $json.user.name }}"), ("age", "number", "={{ $json.user.age }}"))
    run = await run_node(
        "set", params, [{"user": {"name": "Ada", "age": "36"}}, {"user": {"name": "Bo", "age": 7}}], version=3.4
    )
    assert js(run) == [{"name": "Ada", "age": 36}, {"name": "Bo", "age": 7}]


async def test_conversion_error_stops_the_workflow_with_n8ns_message(run_node):
    run = await run_node("set", assignments(("n", "number", "abc")), [{}], version=3.4)
    error = run["data"]["resultData"]["error"]
    assert run["status"] == "error"
    assert error["message"] == "'n' expects a number but we got 'abc' [item 0]"
    assert error["description"].startswith('To fix the error try to change the type for the field "n"')


async def test_ignore_conversion_errors_keeps_the_value(run_node, js):
    params = assignments(("n", "number", "abc"))
    params["options"] = {"ignoreConversionErrors": True}
    run = await run_node("set", params, [{}], version=3.4)
    assert js(run) == [{"n": "abc"}]


async def test_continue_regular_output_turns_item_errors_into_error_items(run_node, out):
    params = assignments(("n", "number", "={{ $json.v }}"))
    run = await run_node("set", params, [{"v": "1"}, {"v": "x"}], version=3.4, onError="continueRegularOutput")
    assert out(run) == [
        [
            {"json": {"n": 1}, "pairedItem": {"item": 0}},
            {"json": {"error": "'n' expects a number but we got 'x' [item 1]"}, "pairedItem": {"item": 1}},
        ]
    ]


async def test_continue_error_output_routes_error_items(run_node, out):
    params = assignments(("n", "number", "={{ $json.v }}"))
    run = await run_node("set", params, [{"v": "1"}, {"v": "x"}], version=3.4, onError="continueErrorOutput")
    success, errors = out(run)
    assert success == [{"json": {"n": 1}, "pairedItem": {"item": 0}}]
    assert errors == [
        {"json": {"v": "x", "error": "'n' expects a number but we got 'x' [item 1]"}, "pairedItem": {"item": 1}}
    ]


async def test_binary_is_kept_in_34_unless_stripped_or_no_other_fields(run_node, out):
    items = [{"json": {"a": 1}, "binary": {"data": {"mimeType": "text/plain", "data": "aGk="}}}]
    kept = await run_node("set", {**assignments(("x", "number", 1)), "includeOtherFields": True}, items, version=3.4)
    dropped = await run_node("set", assignments(("x", "number", 1)), items, version=3.4)
    assert out(kept)[0][0]["binary"] == items[0]["binary"]
    assert "binary" not in out(dropped)[0][0]


async def test_raw_mode_parses_json_output(run_node, js):
    run = await run_node("set", {"mode": "raw", "jsonOutput": '{"a": 1, "b": [true]}'}, [{"x": 1}], version=3.4)
    assert js(run) == [{"a": 1, "b": [True]}]


async def test_raw_mode_resolves_template_segments(run_node, js):
    params = {"mode": "raw", "jsonOutput": '={"name": "{{ $json.n }}", "obj": {{ $json.o }} }'}
    run = await run_node("set", params, [{"n": "Ada", "o": {"k": [1]}}], version=3.4)
    assert js(run) == [{"name": "Ada", "obj": {"k": [1]}}]


async def test_raw_mode_invalid_json_error(run_node):
    run = await run_node("set", {"mode": "raw", "jsonOutput": "[1, 2]"}, [{}], version=3.4)
    assert (
        run["data"]["resultData"]["error"]["message"]
        == "The 'JSON Output' in item 0 does not contain a valid JSON object"
    )


async def test_version_3_fields_values_format(run_node, js):
    params = {
        "fields": {
            "values": [{"name": "n", "type": "numberValue", "numberValue": "2"}, {"name": "s", "stringValue": "x"}]
        },
        "include": "none",
    }
    run = await run_node("set", params, [{"a": 1}], version=3.2)
    assert js(run) == [{"n": 2, "s": "x"}]


async def test_legacy_v2_values_format(run_node, js):
    params = {"values": {"boolean": [{"name": "b", "value": 1}], "string": [{"name": "x.y", "value": "s"}]}}
    run = await run_node("set", params, [{"a": 1}], version=2)
    assert js(run) == [{"a": 1, "b": True, "x": {"y": "s"}}]


async def test_javascript_expressions(run_node, js):
    params = assignments(("next", "number", "={{ $json.a + 1 }}"), ("up", "string", "={{ $json.s.toUpperCase() }}"))
    run = await run_node("set", params, [{"a": 1, "s": "x"}, {"a": 41, "s": "yz"}], version=3.4)
    assert js(run) == [{"next": 2, "up": "X"}, {"next": 42, "up": "YZ"}]


async def test_chain_of_sets_counts(new_flow, js):
    counter = assignments(("counter", "number", "={{ ($json.counter ?? 0) + 1 }}"))
    flow = new_flow().add("Trigger", "manualTrigger")
    previous = "Trigger"
    for index in range(10):
        flow.add(f"Set {index}", "set", {**counter, "includeOtherFields": True}, version=3.4).connect(
            previous, f"Set {index}"
        )
        previous = f"Set {index}"
    run = await flow.run()
    assert js(run, "Set 9") == [{"counter": 10}]


async def test_raw_mode_default_json_output(run_node, js):
    run = await run_node("set", {"mode": "raw"}, [{}], version=3.4)
    assert js(run) == [{"my_field_1": "value", "my_field_2": 1}]


async def test_duplicate_item_in_manual_runs(run_node, out):
    params = {**assignments(("a", "number", 1)), "duplicateItem": True, "duplicateCount": 2}
    run = await run_node("set", params, [{}], version=3.4)
    assert out(run) == [[{"json": {"a": 1}, "pairedItem": {"item": 0}}] * 3]
