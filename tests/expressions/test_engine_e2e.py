"""Expressions and the Code node run through the engine (``weft.engine.run_workflow``)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from weft.engine import run_workflow

W3 = Path(__file__).resolve().parents[1] / "workflows" / "w3_code_10k_set.json"


def _node(name: str, type_: str, parameters: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "typeVersion": extra.pop("typeVersion", 2), "parameters": parameters, **extra}


def _chain(*names: str) -> dict[str, Any]:
    return {a: {"main": [[{"node": b, "type": "main", "index": 0}]]} for a, b in itertools.pairwise(names)}


def _output(run: Any, node: str, run_index: int = 0) -> list[Any]:
    return run["data"]["resultData"]["runData"][node][run_index]["data"]["main"][0]


PAIRED = {
    "name": "paired items",
    "nodes": [
        _node("Trigger", "n8n-nodes-base.manualTrigger", {}, typeVersion=1),
        _node(
            "Generate new items",
            "n8n-nodes-base.code",
            {
                "jsCode": "return [{originalItem: 'first', n: 1}, {originalItem: 'second', n: 2},"
                " {originalItem: 'third', n: 3}];"
            },
        ),
        _node(
            "Mix up pairing",
            "n8n-nodes-base.code",
            {
                "jsCode": "const all = $input.all();\n"
                "return [2, 0, 1].map((i, k) => ({json: {position: k}, pairedItem: i}));"
            },
        ),
        _node(
            "Set3",
            "n8n-nodes-base.set",
            {
                "assignments": {
                    "assignments": [
                        {
                            "id": "1",
                            "name": "original",
                            "type": "string",
                            "value": "={{ $('Generate new items').item.json.originalItem }}",
                        },
                        {"id": "2", "name": "label", "type": "string", "value": "=#{{ $json.position }}"},
                    ]
                },
                "options": {},
            },
            typeVersion=3.4,
        ),
    ],
    "connections": _chain("Trigger", "Generate new items", "Mix up pairing", "Set3"),
}


async def test_paired_items_resolve_through_a_code_node() -> None:
    run = await run_workflow(PAIRED)
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    assert [i["json"] for i in _output(run, "Set3")] == [
        {"original": "third", "label": "#0"},
        {"original": "first", "label": "#1"},
        {"original": "second", "label": "#2"},
    ]


RETRY_CODE = """const data = $execution.customData;
let count = Number(data.get('count') ?? 0);
count += 1;
data.set('count', String(count));
const needed = 4;

if (count < needed) {
  throw new Error(`simulated error, count = ${count}`);
}
return [{ json: { success: true, count } }];"""


async def test_code_error_with_continue_regular_output() -> None:
    workflow = {
        "name": "retry",
        "nodes": [
            _node("Trigger", "n8n-nodes-base.manualTrigger", {}, typeVersion=1),
            _node(
                "Retry+Continue4",
                "n8n-nodes-base.code",
                {"jsCode": RETRY_CODE},
                retryOnFail=True,
                maxTries=3,
                waitBetweenTries=10,
                onError="continueRegularOutput",
            ),
        ],
        "connections": _chain("Trigger", "Retry+Continue4"),
    }
    run = await run_workflow(workflow)
    assert run["status"] == "success"
    assert [i["json"] for i in _output(run, "Retry+Continue4")] == [{"error": "simulated error, count = 3 [line 8]"}]


async def test_w3_code_10k_then_set() -> None:
    run = await run_workflow(json.loads(W3.read_text()))
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    out = _output(run, "Edit Fields")
    assert len(out) == 10000
    assert out[9999]["json"] == {"i": 9999, "name": "item9999", "double": 19998, "label": "ITEM9999"}


async def test_run_once_for_all_items_sees_every_input_item() -> None:
    # a Set before it: the items reach the Code node lazily, 512 at a time; `items` must still hold all 2,000
    data = {
        "name": "all items",
        "nodes": [
            _node("Trigger", "n8n-nodes-base.manualTrigger", {}, typeVersion=1),
            _node("Make", "n8n-nodes-base.code", {"jsCode": "return Array.from({length: 2000}, (_, i) => ({i}));"}),
            _node(
                "Double",
                "n8n-nodes-base.set",
                {
                    "assignments": {
                        "assignments": [{"id": "1", "name": "j", "value": "={{ $json.i * 2 }}", "type": "number"}]
                    }
                },
                typeVersion=3.4,
            ),
            _node("Count", "n8n-nodes-base.code", {"jsCode": "return [{n: items.length, last: items.at(-1).json.j}];"}),
        ],
        "connections": _chain("Trigger", "Make", "Double", "Count"),
    }
    run = await run_workflow(data)
    assert [item["json"] for item in _output(run, "Count")] == [{"n": 2000, "last": 3998}]
