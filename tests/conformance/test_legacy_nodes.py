"""The legacy node versions the engine suites use, checked against n8n's own node fixtures (restated as tables).

* IF v1: ``packages/nodes-base/nodes/If/test/v1/IF.number.json`` and ``IF.string.json`` — one IF per
  operation over the same input items; which items go ``true`` and which ``false``.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.conformance._n8n import if_v1, n, workflow

from weft.engine import run_workflow

NUMBERS = [{"value": 1}, {"value": 2}]
NAMES = [{"name": "Elon Musk"}, {"name": "Arnold Schwarzenegger"}]
ELON, ARNOLD = [NAMES[0]], [NAMES[1]]

#: ``(data type, operation or None for the default, value2, true items, false items)``
IF_V1_CASES: list[tuple[str, str | None, Any, list[Any], list[Any]]] = [
    ("number", None, 2, [NUMBERS[0]], [NUMBERS[1]]),  # default operation: smaller
    ("number", "smallerEqual", 2, NUMBERS, []),
    ("number", "equal", 1, [NUMBERS[0]], [NUMBERS[1]]),
    ("number", "notEqual", 1, [NUMBERS[1]], [NUMBERS[0]]),
    ("number", "larger", 1, [NUMBERS[1]], [NUMBERS[0]]),
    ("number", "largerEqual", 1, NUMBERS, []),
    ("number", "isEmpty", None, [], NUMBERS),
    ("number", "isNotEmpty", None, NUMBERS, []),
    ("string", "contains", "Elon", ELON, ARNOLD),
    ("string", "notContains", "Elon", ARNOLD, ELON),
    ("string", "endsWith", "Musk", ELON, ARNOLD),
    ("string", "notEndsWith", "Musk", ARNOLD, ELON),
    ("string", None, "Elon Musk", ELON, ARNOLD),  # default operation: equal
    ("string", "notEqual", "Elon Musk", ARNOLD, ELON),
    ("string", "regex", "([E])", ELON, ARNOLD),
    ("string", "notRegex", "([E])", ARNOLD, ELON),
    ("string", "startsWith", "Elon", ELON, ARNOLD),
    ("string", "notStartsWith", "Elon", ARNOLD, ELON),
    ("string", "isEmpty", None, [], NAMES),
    ("string", "isNotEmpty", None, NAMES, []),
]


@pytest.mark.parametrize(("kind", "operation", "value2", "true_items", "false_items"), IF_V1_CASES)
async def test_if_v1_operation(kind: str, operation: str | None, value2: Any, true_items: list, false_items: list):
    items = NUMBERS if kind == "number" else NAMES
    condition: dict[str, Any] = {"value1": "={{ $json.value }}" if kind == "number" else "={{ $json.name }}"}
    if operation is not None:
        condition["operation"] = operation
    if value2 is not None:
        condition["value2"] = value2
    wf = workflow(
        [
            n("On clicking 'execute'", "manualTrigger", (0, 0)),
            n("Code", "code", (200, 0), {"jsCode": f"return {items!r};".replace("'", '"')}, 1),
            if_v1("IF", (400, 0), **{kind: [condition]}),
        ],
        {"On clicking 'execute'": [[("Code", 0)]], "Code": [[("IF", 0)]]},
    )
    run = await run_workflow(wf)
    assert run["status"] == "success"
    true_out, false_out = run["data"]["resultData"]["runData"]["IF"][0]["data"]["main"]
    assert [i["json"] for i in true_out] == true_items
    assert [i["json"] for i in false_out] == false_items


# --------------------------------------------------------------------------- SplitInBatches v1 / v2


def _split_in_batches_v1_workflow() -> dict[str, Any]:
    """``packages/nodes-base/nodes/SplitInBatches/test/SplitInBatches.workflow_v1.json`` (settings ``{}``: v0)."""
    from tests.conformance._n8n import set_v1

    trigger = 'When clicking "Execute Workflow"'
    context = '={{ $node["Split In Batches"].context'
    nodes = [
        n(trigger, "manualTrigger", (400, 220)),
        n("Split In Batches", "splitInBatches", (1100, 220), {"batchSize": 1, "options": {}}, 1),
        set_v1("Set", (640, 220), options=True, string=[("data[0]", "n8n"), ("data[1]", "test")]),
        n("Item Lists", "splitOut", (860, 220), {"fieldToSplitOut": "data", "options": {}}, 1),
        if_v1("IF", (1280, 220), boolean=[{"value1": f'{context}["noItemsLeft"] }}}}', "value2": True}]),
        n("Output", "set", (1480, 200), {"values": {"string": [
            {"name": "maxRunIndex", "value": f'{context}["maxRunIndex"] }}}}'},
            {"value": f'{context}["currentRunIndex"] }}}}'},
        ]}, "options": {}}),
    ]  # fmt: skip
    connections = {
        trigger: [[("Set", 0)]],
        "Split In Batches": [[("IF", 0)]],
        "Set": [[("Item Lists", 0)]],
        "Item Lists": [[("Split In Batches", 0)]],
        "IF": [[("Output", 0)], [("Split In Batches", 0)]],
    }
    return workflow(nodes, connections, "v0")


async def test_split_in_batches_v1_fixture() -> None:
    run = await run_workflow(_split_in_batches_v1_workflow())
    output = run["data"]["resultData"]["runData"]["Output"][0]["data"]["main"][0]
    assert [i["json"] for i in output] == [{"data": "test", "maxRunIndex": 2, "propertyName": 1}]


@pytest.mark.parametrize("version", [1, 2])
async def test_split_in_batches_legacy_hands_out_batches_then_stops(version: int) -> None:
    """The batches of the v1 fixture's loop: the IF reads ``noItemsLeft`` from the node's context and stops it."""
    run = await run_workflow(_split_in_batches_v1_workflow_for(version))
    runs = run["data"]["resultData"]["runData"]["Split In Batches"]
    loop = [[i["json"] for i in (task["data"]["main"][0] or [])] for task in runs]
    assert loop == [[{"data": "n8n"}], [{"data": "test"}]]
    assert run["data"]["executionData"]["contextData"]["node:Split In Batches"]["noItemsLeft"] is True


def _split_in_batches_v1_workflow_for(version: int) -> dict[str, Any]:
    wf = _split_in_batches_v1_workflow()
    for node in wf["nodes"]:
        if node["name"] == "Split In Batches":
            node["typeVersion"] = version
    return wf
