"""Function and Function Item (legacy JavaScript nodes), run by the real engine in the Code node's sandbox."""

from __future__ import annotations

from typing import Any

from weft.binary import BinaryDataService
from weft.engine import EngineOptions, run_workflow
from weft.expressions import ExpressionLimits

ITEMS = [{"n": 1, "name": "a"}, {"n": 2, "name": "b"}]


def _error(run: dict[str, Any], name: str = "Node") -> str:
    return str(run["data"]["resultData"]["runData"][name][0]["error"]["message"])


async def test_function_sees_copies_with_their_index(run_node, js):
    code = "for (const i of items) { i.json.at = i.index; i.json.next = $item(i.index + 1).$json.name; }\nreturn items;"
    run = await run_node("function", {"functionCode": code}, ITEMS)
    assert js(run) == [{"n": 1, "name": "a", "at": 0, "next": "b"}, {"n": 2, "name": "b", "at": 1}]
    assert js(run, "Input") == ITEMS  # the input is untouched


async def test_function_may_declare_its_own_items(run_node, js):
    run = await run_node("function", {"functionCode": "let items = [{json: {own: true}}];\nreturn items;"}, ITEMS)
    assert js(run) == [{"own": True}]


async def test_function_normalizes_plain_objects_and_refuses_mixed_ones(run_node, js):
    run = await run_node("function", {"functionCode": "return {single: 1};"}, ITEMS)
    assert js(run) == [{"single": 1}]
    run = await run_node("function", {"functionCode": "return [{json: {a: 1}}, {b: 2}];"}, ITEMS)
    assert _error(run) == "Inconsistent item format"
    run = await run_node("function", {"functionCode": "return 5;"}, ITEMS)
    assert _error(run) == "Always an Array of items has to be returned!"


async def test_function_error_names_its_line_and_continue_on_fail_keeps_the_message(run_node, js):
    code = "const a = 1;\n\nnull.x;\nreturn items;"
    run = await run_node("function", {"functionCode": code}, ITEMS)
    assert _error(run) == "Cannot read properties of null (reading 'x') [Line 3]"
    run = await run_node("function", {"functionCode": code}, ITEMS, onError="continueRegularOutput")
    assert js(run) == [{"error": "Cannot read properties of null (reading 'x')"}]


async def test_function_static_data_and_node_parameter(run_node, js):
    code = (
        "const s = getWorkflowStaticData('global'); s.count = (s.count || 0) + 1;\n"
        "return [{json: {count: s.count, code: getNodeParameter('functionCode').length > 0}}];"
    )
    run = await run_node("function", {"functionCode": code}, ITEMS)
    assert js(run) == [{"count": 1, "code": True}]


async def test_function_user_code_is_time_limited():
    flow = {
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {
                "name": "F",
                "type": "n8n-nodes-base.function",
                "typeVersion": 1,
                "parameters": {"functionCode": "while (true) {}"},
            },
        ],
        "connections": {"T": {"main": [[{"node": "F", "type": "main", "index": 0}]]}},
    }
    options = EngineOptions(expression_limits=ExpressionLimits(code_time_s=0.3))
    run = await run_workflow(flow, options=options)
    assert run["status"] == "error"
    assert _error(run, "F") == "Task execution timed out after 0.3 seconds"


async def test_function_item_returns_each_item_paired(run_node, out):
    code = "item.seen = $json.name + $itemIndex;\nreturn item;"
    run = await run_node("functionItem", {"functionCode": code}, ITEMS)
    assert out(run) == [
        [
            {"json": {"n": 1, "name": "a", "seen": "a0"}, "pairedItem": {"item": 0}},
            {"json": {"n": 2, "name": "b", "seen": "b1"}, "pairedItem": {"item": 1}},
        ]
    ]


async def test_function_item_errors(run_node, js):
    run = await run_node("functionItem", {"functionCode": "item.x = 1;"}, ITEMS)
    assert _error(run) == "No data got returned. Always an object has to be returned!"
    run = await run_node(
        "functionItem", {"functionCode": "if (item.n === 2) throw new Error('no');\nreturn item;"}, ITEMS
    )
    assert _error(run) == "no [Line 1 | Item Index: 1]"
    run = await run_node("functionItem", {"functionCode": "return 'text';"}, ITEMS)
    assert _error(run) == "The json-property has to be an object!"


async def test_function_item_binary_round_trip_in_default_mode(new_flow):
    set_code = (
        "await setBinaryDataAsync({file: {data: Buffer.from('hi ' + item.name).toString('base64'),"
        " mimeType: 'text/plain', fileName: 'f.txt'}});\nreturn item;"
    )
    read_code = "const b = await getBinaryDataAsync();\n"
    read_code += "item.text = Buffer.from(b.file.data, 'base64').toString();\nreturn item;"
    flow = (
        new_flow()
        .add("T", "manualTrigger")
        .add("Set", "functionItem", {"functionCode": "return {name: 'x'};"})
        .add("Bin", "functionItem", {"functionCode": set_code})
        .add("Read", "functionItem", {"functionCode": read_code})
        .connect("T", "Set")
        .connect("Set", "Bin")
        .connect("Bin", "Read")
    )
    options = EngineOptions(binary_data=BinaryDataService("default"))
    run = await run_workflow(flow.build(), options=options)
    read = run["data"]["resultData"]["runData"]["Read"][0]["data"]["main"][0][0]
    assert read["json"] == {"name": "x", "text": "hi x"}
    entry = read["binary"]["file"]
    assert entry == {"data": "aGkgeA==", "mimeType": "text/plain", "fileName": "f.txt", "fileSize": "4 B", "bytes": 4}
